import SyncStorage

/// Unpushed changes of an account that signed out, kept apart until it signs in again: the model
/// as it was (a save) or its tombstone (a deletion), the server versions the changes were based
/// on, and the cache entries of files not uploaded yet.
enum ParkingTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("parking", sql: """
            CREATE TABLE IF NOT EXISTS parked_changes (
                account TEXT NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL,
                kind INTEGER NOT NULL,
                owner TEXT NOT NULL, parent TEXT, fields BLOB, modified REAL,
                PRIMARY KEY (account, type, name));
            CREATE TABLE IF NOT EXISTS parked_sync_records (
                account TEXT NOT NULL,
                zone_owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
                type TEXT NOT NULL, change_tag TEXT, fields BLOB NOT NULL, encrypted BLOB NOT NULL,
                modified REAL, parent TEXT, share TEXT, creator TEXT, system_fields BLOB,
                PRIMARY KEY (account, zone_owner, zone, name));
            CREATE TABLE IF NOT EXISTS parked_assets (
                account TEXT NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL,
                state TEXT NOT NULL, suffix TEXT NOT NULL, size INTEGER NOT NULL,
                pinned INTEGER NOT NULL, last_access REAL NOT NULL, digest TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (account, type, name));
            """),
        // Parked before server versions kept system fields, or entries their file's digest.
        DatabaseMigrator.Step("parking.systemFields") { database in
            try database.addColumnIfMissing("system_fields", "BLOB", to: "parked_sync_records")
        },
        DatabaseMigrator.Step("parking.digest") { database in
            try database.addColumnIfMissing("digest", "TEXT NOT NULL DEFAULT ''", to: "parked_assets")
        },
        DatabaseMigrator.Step("parking.authorship") { database in
            try database.addColumnIfMissing("created", "REAL", to: "parked_sync_records")
            try database.addColumnIfMissing("modifier", "TEXT", to: "parked_sync_records")
        },
        // Parked entries keyed by field, as the cache's own (`assetCache.field`).
        DatabaseMigrator.Step("parking.assetField", sql: """
            CREATE TABLE parked_assets_before_fields AS SELECT * FROM parked_assets;
            DROP TABLE parked_assets;
            CREATE TABLE parked_assets (
                account TEXT NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL, field TEXT NOT NULL,
                state TEXT NOT NULL, suffix TEXT NOT NULL, size INTEGER NOT NULL,
                pinned INTEGER NOT NULL, last_access REAL NOT NULL, digest TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (account, type, name, field));
            INSERT INTO parked_assets (account, type, name, field, state, suffix, size, pinned, last_access, digest)
                SELECT account, type, name, '', state, suffix, size, pinned, last_access, digest FROM parked_assets_before_fields;
            DROP TABLE parked_assets_before_fields;
            """),
    ]
}
