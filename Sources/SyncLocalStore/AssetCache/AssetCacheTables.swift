import SyncStorage

/// The asset cache's entries: one row per record whose asset this device knows, keyed by record
/// type and name (a draft and its projection share a name). The state is never null.
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
    ]
}
