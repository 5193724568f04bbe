import SyncStorage

/// What a catalog refresh under way has received (`catalogRecordsNotReceived`).
enum CatalogTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("catalogs", sql: "CREATE TABLE IF NOT EXISTS catalog_received (type TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (type, name));"),
    ]
}
