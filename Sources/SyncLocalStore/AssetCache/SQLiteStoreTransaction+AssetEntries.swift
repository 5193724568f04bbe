import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// The asset cache's bookkeeping, in the store's own table beside the models.
extension SQLiteStoreTransaction: AssetEntries {
    static let assetColumns = "type, name, field, state, suffix, size, pinned, last_access, digest"

    func assetEntry(_ key: AssetKey) throws -> AssetCacheEntry? {
        try database.query(
            "SELECT \(Self.assetColumns) FROM asset_cache WHERE type = ? AND name = ? AND field = ?",
            [.text(key.recordType), .text(key.recordName), .text(key.field)]
        ).first.map(Self.assetEntry)
    }

    func assetEntries(recordType: String, recordName: String) throws -> [AssetCacheEntry] {
        try database.query(
            "SELECT \(Self.assetColumns) FROM asset_cache WHERE type = ? AND name = ? ORDER BY field",
            [.text(recordType), .text(recordName)]
        ).map(Self.assetEntry)
    }

    func assetEntriesFromBeforeFields() throws -> [AssetCacheEntry] {
        try database.query("SELECT \(Self.assetColumns) FROM asset_cache WHERE field = '' ORDER BY type, name").map(Self.assetEntry)
    }

    func assetEntries(in states: Set<AssetCacheState>?) throws -> [AssetCacheEntry] {
        try assetEntries(in: states, pinnedOnly: false)
    }

    func pinnedAssetEntries(in states: Set<AssetCacheState>) throws -> [AssetCacheEntry] {
        try assetEntries(in: states, pinnedOnly: true)
    }

    /// Entries in any of `states` (every state when nil), pinned ones only or all, in key order.
    private func assetEntries(in states: Set<AssetCacheState>?, pinnedOnly: Bool) throws -> [AssetCacheEntry] {
        let wanted = states.map { $0.map(\.rawValue).sorted() }
        var conditions = wanted.map { ["state IN (" + Array(repeating: "?", count: $0.count).joined(separator: ", ") + ")"] } ?? []
        if pinnedOnly { conditions.append("pinned = 1") }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try database.query(
            "SELECT \(Self.assetColumns) FROM asset_cache\(filter) ORDER BY type, name, field",
            (wanted ?? []).map(SQLiteValue.text)
        ).map(Self.assetEntry)
    }

    func cachedAssetBytes() throws -> Int64 {
        try database.query("SELECT bytes FROM asset_cache_bytes WHERE id = 0").first?.integer(0) ?? 0
    }

    func evictionCandidates() throws -> [AssetCacheEntry] {
        try database.query(
            "SELECT \(Self.assetColumns) FROM asset_cache WHERE state = ? AND pinned = 0 ORDER BY last_access, type, name, field",
            [.text(AssetCacheState.cached.rawValue)]
        ).map(Self.assetEntry)
    }

    func takeOrphanedAssetEntries() throws -> [AssetCacheEntry] {
        // The candidates the deletion triggers noted (`AssetCacheBookkeeping`): a model saved
        // again since it was deleted is no orphan.
        let candidates = try database.query(
            "SELECT \(Self.assetColumns) FROM asset_cache WHERE (type, name) IN (SELECT type, name FROM asset_cache_orphans) ORDER BY type, name, field"
        ).map(Self.assetEntry)
        try database.execute("DELETE FROM asset_cache_orphans")
        return try candidates.filter { entry in
            guard let table = try changes.tables.table(named: entry.key.recordType) else { return true }
            return try database.query("SELECT 1 FROM \(table.sqlName) WHERE _name = ?", [.text(entry.key.recordName)]).isEmpty
        }
    }

    func setAssetEntry(_ entry: AssetCacheEntry) throws {
        try database.query(
            """
            INSERT INTO asset_cache (\(Self.assetColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(type, name, field) DO UPDATE SET state = excluded.state, suffix = excluded.suffix,
                size = excluded.size, pinned = excluded.pinned, last_access = excluded.last_access, digest = excluded.digest
            """,
            Self.assetRow(entry))
    }

    /// An entry's values in the order of `assetColumns`.
    static func assetRow(_ entry: AssetCacheEntry) -> [SQLiteValue] {
        [.text(entry.key.recordType), .text(entry.key.recordName), .text(entry.key.field), .text(entry.state.rawValue), .text(entry.suffix),
         .integer(entry.byteSize), .integer(entry.isPinned ? 1 : 0), .real(entry.lastAccess.timeIntervalSince1970), .text(entry.digest)]
    }

    func removeAssetEntry(_ key: AssetKey) throws {
        try database.query(
            "DELETE FROM asset_cache WHERE type = ? AND name = ? AND field = ?", [.text(key.recordType), .text(key.recordName), .text(key.field)])
    }

    func attachAsset<Model: CacheableModel>(_ reference: AssetReference, entry: AssetCacheEntry, to type: Model.Type) throws -> Bool {
        try asApp { writer in
            guard var model = try writer.fetch(type, recordName: entry.key.recordName), model.setAssetReference(reference, entry.key.field) else { return false }
            try writer.save(model)
            try setAssetEntry(entry)
            return true
        }
    }

    /// An entry from a row of `assetColumns` (from `offset` on).
    static func assetEntry(_ row: SQLiteRow) throws(SQLiteError) -> AssetCacheEntry {
        try assetEntry(row, from: 0)
    }

    static func assetEntry(_ row: SQLiteRow, from offset: Int32) throws(SQLiteError) -> AssetCacheEntry {
        let key = AssetKey(recordType: row.text(offset), recordName: row.text(offset + 1), field: row.text(offset + 2))
        guard let state = AssetCacheState(rawValue: row.text(offset + 3)) else {
            throw SQLiteError(code: -1, message: "asset cache entry \(key) has an unknown state '\(row.text(offset + 3))'")
        }
        return AssetCacheEntry(
            key: key, state: state, suffix: row.text(offset + 4), byteSize: row.integer(offset + 5), digest: row.text(offset + 8),
            isPinned: row.integer(offset + 6) != 0, lastAccess: Date(timeIntervalSince1970: row.real(offset + 7)))
    }
}
