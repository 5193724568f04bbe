import SyncStorage

/// The app's schema migrations on this device: the schema versions whose backfills ran, and the
/// values a backfill computed that are not pushed yet (they yield to the cloud's).
enum SchemaMigrationTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("schemaMigrations", sql: """
            CREATE TABLE IF NOT EXISTS schema_versions (version INTEGER PRIMARY KEY, migrated_at REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS backfilled_values (
                type TEXT NOT NULL, name TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
                PRIMARY KEY (type, name, key));
            """),
    ]
}
