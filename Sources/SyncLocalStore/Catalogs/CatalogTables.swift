import SyncStorage

/// What a catalog refresh under way has received (`catalogRecordsNotReceived`), and when each
/// kept result of a server query over a catalog this device does not mirror was kept
/// (`KeptResults`).
enum CatalogTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("catalogs", sql: "CREATE TABLE IF NOT EXISTS catalog_received (type TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (type, name));"),
        DatabaseMigrator.Step(
            "catalogs.keptResults",
            sql: """
                CREATE TABLE IF NOT EXISTS kept_results (
                    type TEXT NOT NULL, name TEXT NOT NULL, kept_at REAL NOT NULL, kept_order INTEGER NOT NULL,
                    PRIMARY KEY (type, name)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS kept_results_by_age ON kept_results (type, kept_at);
                CREATE INDEX IF NOT EXISTS kept_results_by_order ON kept_results (type, kept_order);
                """),
    ]
}
