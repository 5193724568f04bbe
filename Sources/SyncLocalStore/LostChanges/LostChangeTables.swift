import SyncStorage

/// The notices of changes the engine dropped, until the app takes them (`LostChange`).
enum LostChangeTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("lostChanges", sql: """
            CREATE TABLE IF NOT EXISTS lost_changes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                event TEXT NOT NULL,
                dropped_at REAL NOT NULL);
            """),
    ]
}
