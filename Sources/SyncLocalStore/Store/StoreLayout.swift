import SyncStorage

/// The store file's layout: each topic's steps, the topics in a fixed order (their steps never
/// depend on another topic's). Every store, new or made by an earlier version, is opened through
/// these steps; one made by a later version is refused (`LocalStoreError.Reason.newerVersion`).
enum StoreLayout {
    static let migrator = DatabaseMigrator(
        fileKind: "the local store",
        steps: HistoryTables.migrations + ModelTables.migrations + ServerVersionTables.migrations + SetAsideTables.migrations
            + ConflictTables.migrations + EngineStateTables.migrations + CatalogTables.migrations + ParkingTables.migrations
            + NaturalKeys.migrations + AssetCacheTables.migrations + ShareTables.migrations + LostChangeTables.migrations
            + SearchIndexes.migrations + SchemaMigrationTables.migrations + ImportTables.migrations + RecoveryTables.migrations)
}
