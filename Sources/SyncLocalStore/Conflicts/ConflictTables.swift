import SyncStorage

/// The conflicts sync settled by itself: when, per record, and which fields from which values.
enum ConflictTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("conflicts", sql: """
            -- When sync last resolved a conflict on a record by itself (its status shows it).
            CREATE TABLE IF NOT EXISTS conflict_resolutions (
                type TEXT NOT NULL, name TEXT NOT NULL,
                resolved_at REAL NOT NULL,
                PRIMARY KEY (type, name));
            -- Conflicts whose fields both sides changed, kept for the app (`RecordConflict`), and
            -- each field's values; numbers only grow, so the newest is the largest.
            CREATE TABLE IF NOT EXISTS conflicts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                type TEXT NOT NULL, name TEXT NOT NULL, zone_owner TEXT NOT NULL, zone TEXT NOT NULL,
                resolved_at REAL NOT NULL);
            CREATE INDEX IF NOT EXISTS conflicts_by_record ON conflicts (type, name);
            CREATE TABLE IF NOT EXISTS conflict_fields (
                conflict INTEGER NOT NULL, position INTEGER NOT NULL, field TEXT NOT NULL,
                ancestor BLOB, local BLOB, server BLOB, resolved BLOB,
                PRIMARY KEY (conflict, position));
            """),
    ]
}
