import SyncStorage

/// The asset cache's entries: one row per asset field of a record whose file this device knows,
/// keyed by record type, name and field (a draft and its projection share a name; a model may
/// hold several asset fields). The state is never null.
enum AssetCacheTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("assetCache", sql: """
            CREATE TABLE IF NOT EXISTS asset_cache (
                type TEXT NOT NULL, name TEXT NOT NULL,
                state TEXT NOT NULL,
                suffix TEXT NOT NULL,
                size INTEGER NOT NULL,
                pinned INTEGER NOT NULL,
                last_access REAL NOT NULL,
                digest TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (type, name));
            -- Entries by state, then pinned, then least recently read: a pass finds the few it has
            -- work for, and eviction its candidates in order, without reading the rest.
            CREATE INDEX IF NOT EXISTS asset_cache_by_use ON asset_cache (state, pinned, last_access);
            -- What AssetCacheBookkeeping keeps: the bytes of the files on this device, and the
            -- entries whose model was deleted since the last pass.
            CREATE TABLE IF NOT EXISTS asset_cache_bytes (id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS asset_cache_orphans (type TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (type, name));
            """),
        // Entries made before they carried their file's digest, and the index by state alone
        // that `asset_cache_by_use` replaced.
        DatabaseMigrator.Step("assetCache.digest") { database in
            try database.execute("DROP INDEX IF EXISTS asset_cache_by_state")
            try database.addColumnIfMissing("digest", "TEXT NOT NULL DEFAULT ''", to: "asset_cache")
        },
        // Entries made while a model held one asset are keyed by record alone: they take the
        // field '' ("the model's first asset field"), which the engine names at its next start,
        // once it knows the models (`EarlierAssetEntries` in the engine). The table is made
        // again rather than renamed: the model tables' triggers name `asset_cache`, and SQLite
        // checks them when a table is renamed.
        DatabaseMigrator.Step("assetCache.field", sql: """
            CREATE TABLE asset_cache_before_fields AS SELECT * FROM asset_cache;
            DROP TABLE asset_cache;
            CREATE TABLE asset_cache (
                type TEXT NOT NULL, name TEXT NOT NULL, field TEXT NOT NULL,
                state TEXT NOT NULL,
                suffix TEXT NOT NULL,
                size INTEGER NOT NULL,
                pinned INTEGER NOT NULL,
                last_access REAL NOT NULL,
                digest TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (type, name, field));
            CREATE INDEX asset_cache_by_use ON asset_cache (state, pinned, last_access);
            INSERT INTO asset_cache (type, name, field, state, suffix, size, pinned, last_access, digest)
                SELECT type, name, '', state, suffix, size, pinned, last_access, digest FROM asset_cache_before_fields;
            DROP TABLE asset_cache_before_fields;
            """),
    ]
}
