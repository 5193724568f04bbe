import SyncCore
import SyncStorage

/// What the asset cache keeps so that an idle pass costs the same whatever the cache holds: the
/// bytes of the files on this device, and the entries whose model was deleted since the last
/// pass. SQLite triggers keep both, so every path that writes an entry or deletes a model (a
/// save, a pull, a purge, a reset) keeps them true, in its own transaction.
enum AssetCacheBookkeeping {
    /// Creates the bookkeeping and brings it up to date with the entries and models there are:
    /// once per opening (the only step that reads the whole cache).
    static func install(_ database: SQLiteDatabase) throws {
        let withFile = AssetCacheState.allCases.filter(\.hasLocalFile).map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        let bytes = { (row: String) in "(CASE WHEN \(row).state IN (\(withFile)) THEN \(row).size ELSE 0 END)" }
        // The triggers are made again at each opening, from the states of this version.
        try database.execute("""
            DROP TRIGGER IF EXISTS asset_cache_bytes_insert;
            DROP TRIGGER IF EXISTS asset_cache_bytes_update;
            DROP TRIGGER IF EXISTS asset_cache_bytes_delete;
            CREATE TRIGGER asset_cache_bytes_insert AFTER INSERT ON asset_cache
                BEGIN UPDATE asset_cache_bytes SET bytes = bytes + \(bytes("NEW")); END;
            CREATE TRIGGER asset_cache_bytes_update AFTER UPDATE ON asset_cache
                BEGIN UPDATE asset_cache_bytes SET bytes = bytes - \(bytes("OLD")) + \(bytes("NEW")); END;
            CREATE TRIGGER asset_cache_bytes_delete AFTER DELETE ON asset_cache
                BEGIN UPDATE asset_cache_bytes SET bytes = bytes - \(bytes("OLD")); END;
            INSERT OR REPLACE INTO asset_cache_bytes (id, bytes)
                SELECT 0, COALESCE(SUM(size), 0) FROM asset_cache WHERE state IN (\(withFile));
            """)
        for recordType in try ModelTables.recordTypes(database) {
            try watchDeletions(of: recordType, database)
        }
        // Entries whose model went while no trigger watched (a store of an earlier version), or
        // whose type has no table at all.
        for recordType in try database.query("SELECT DISTINCT type FROM asset_cache").map({ $0.text(0) }) {
            let hasTable = try !database.query("SELECT 1 FROM model_tables WHERE type = ?", [.text(recordType)]).isEmpty
            let unmatched = hasTable ? "AND NOT EXISTS (SELECT 1 FROM \(ModelTable.sqlName(recordType)) m WHERE m._name = a.name)" : ""
            try database.query(
                "INSERT OR IGNORE INTO asset_cache_orphans (type, name) SELECT type, name FROM asset_cache a WHERE a.type = ? \(unmatched)",
                [.text(recordType)])
        }
    }

    /// A model of `recordType` deleted while it has an asset entry becomes an orphan candidate.
    static func watchDeletions(of recordType: String, _ database: SQLiteDatabase) throws {
        // Record type names are CloudKit names (letters, digits, underscores): safe to write in.
        let type = "'\(recordType)'"
        try database.execute("""
            CREATE TRIGGER IF NOT EXISTS "model_\(recordType)_asset_orphans" AFTER DELETE ON \(ModelTable.sqlName(recordType))
                WHEN EXISTS (SELECT 1 FROM asset_cache WHERE type = \(type) AND name = OLD._name)
                BEGIN INSERT OR IGNORE INTO asset_cache_orphans (type, name) VALUES (\(type), OLD._name); END;
            """)
    }
}
