import SyncStorage

/// Imports of an app's data from its old store (`SyncEngine.importModels`): how far each has read
/// its source, and the batch it saved whose files may not all be attached yet.
enum ImportTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("imports", sql: """
            CREATE TABLE IF NOT EXISTS imports (
                name TEXT PRIMARY KEY,
                read INTEGER NOT NULL, imported INTEGER NOT NULL, skipped INTEGER NOT NULL,
                batch_end INTEGER, batch_imported INTEGER, batch_skipped INTEGER);
            """),
    ]
}
