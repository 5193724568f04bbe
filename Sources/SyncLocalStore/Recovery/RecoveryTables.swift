import SyncStorage

/// The reports of stores healed (`StoreRecovery`), until the app acknowledges them.
enum RecoveryTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("storeRecoveries", sql: """
            CREATE TABLE IF NOT EXISTS store_recoveries (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                outcome TEXT NOT NULL, problem TEXT NOT NULL, damaged_file TEXT,
                recovered TEXT NOT NULL, not_recovered TEXT NOT NULL,
                at REAL NOT NULL);
            """),
    ]
}
