import Foundation

/// The asset cache's bookkeeping, in the store's own table beside the models.
extension SyncStore {
    public func assetEntry(_ key: AssetKey) throws -> AssetCacheEntry? {
        try database.withLock { database in
            try database.query(
                "SELECT type, name, state, suffix, size, pinned, last_access FROM asset_cache WHERE type = ? AND name = ?",
                [.text(key.recordType), .text(key.recordName)]
            ).first.map(Self.assetEntry)
        }
    }

    public func assetEntries(in states: Set<AssetCacheState>?) throws -> [AssetCacheEntry] {
        let wanted = states.map { $0.map(\.rawValue).sorted() }
        let filter = wanted.map { " WHERE state IN (" + Array(repeating: "?", count: $0.count).joined(separator: ", ") + ")" } ?? ""
        return try database.withLock { database in
            try database.query(
                "SELECT type, name, state, suffix, size, pinned, last_access FROM asset_cache\(filter) ORDER BY type, name",
                (wanted ?? []).map(SQLiteValue.text)
            ).map(Self.assetEntry)
        }
    }

    public func orphanedAssetEntries() throws -> [AssetCacheEntry] {
        try database.withLock { database in
            try database.query(
                """
                SELECT type, name, state, suffix, size, pinned, last_access FROM asset_cache a
                WHERE NOT EXISTS (SELECT 1 FROM models m WHERE m.type = a.type AND m.name = a.name)
                ORDER BY type, name
                """, []
            ).map(Self.assetEntry)
        }
    }

    public func setAssetEntry(_ entry: AssetCacheEntry) throws {
        try database.withLock { try Self.write(entry, to: $0) }
    }

    public func removeAssetEntry(_ key: AssetKey) throws {
        try database.withLock { database in
            try database.query("DELETE FROM asset_cache WHERE type = ? AND name = ?", [.text(key.recordType), .text(key.recordName)])
        }
    }

    public func attachAsset<Model: CacheableModel>(_ reference: AssetReference, entry: AssetCacheEntry, to type: Model.Type, recordName: String) throws -> Bool {
        try write(author: .app) { (writer: StoreWriter) in
            guard var model = try writer.fetch(type, recordName: recordName) else { return false }
            model.assetReference = reference
            try writer.save(model)
            try Self.write(entry, to: writer.database)
            return true
        }
    }

    private static func write(_ entry: AssetCacheEntry, to database: SQLiteDatabase) throws {
        try database.query(
            """
            INSERT INTO asset_cache (type, name, state, suffix, size, pinned, last_access) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(type, name) DO UPDATE SET state = excluded.state, suffix = excluded.suffix,
                size = excluded.size, pinned = excluded.pinned, last_access = excluded.last_access
            """,
            [.text(entry.key.recordType), .text(entry.key.recordName), .text(entry.state.rawValue), .text(entry.suffix),
             .integer(entry.byteSize), .integer(entry.isPinned ? 1 : 0), .real(entry.lastAccess.timeIntervalSince1970)])
    }

    private static func assetEntry(_ row: SQLiteRow) throws(SQLiteError) -> AssetCacheEntry {
        guard let state = AssetCacheState(rawValue: row.text(2)) else {
            throw SQLiteError(code: -1, message: "asset cache entry \(row.text(0)) '\(row.text(1))' has an unknown state '\(row.text(2))'")
        }
        return AssetCacheEntry(
            key: AssetKey(recordType: row.text(0), recordName: row.text(1)), state: state, suffix: row.text(3),
            byteSize: row.integer(4), isPinned: row.integer(5) != 0, lastAccess: Date(timeIntervalSince1970: row.real(6)))
    }
}
