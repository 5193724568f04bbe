import SyncStorage

/// Changes the cloud refused for good: set aside with their error, out of the queue.
enum SetAsideTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("setAside", sql: """
            CREATE TABLE IF NOT EXISTS failed_changes (
                type TEXT NOT NULL, name TEXT NOT NULL,
                owner TEXT NOT NULL,
                kind INTEGER NOT NULL,
                code INTEGER NOT NULL, message TEXT NOT NULL,
                failed_at REAL NOT NULL,
                PRIMARY KEY (type, name));
            """),
    ]
}
