import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// An account's unpushed changes, parked when it signs out and restored when it signs in again.
/// Rows move between tables as they are: nothing is decoded, so nothing can be lost in the move.
extension SQLiteStoreTransaction: AccountParking {
    /// The records with something of the app the cloud does not have yet: a change waiting in
    /// the history or set aside, or a file still to upload (its record may be pushed already).
    func recordsNotInTheCloudYet() throws -> [RecordKey] {
        Self.ordered(try recordsWithLocalChanges().records.union(try recordsOwingFiles()))
    }

    /// The records with a file still to upload.
    func recordsOwingFiles() throws -> Set<RecordKey> {
        Set(try assetEntries(in: Set(AssetCacheState.allCases.filter(\.isAwaitingUpload))).map { RecordKey($0.key.recordType, $0.key.recordName) })
    }

    /// Records by type, then name.
    static func ordered(_ records: Set<RecordKey>) -> [RecordKey] {
        records.sorted { ($0.recordType, $0.recordName) < ($1.recordType, $1.recordName) }
    }

    /// The owner a deleted record was routed by: its latest tombstone, or its set-aside change.
    func deletedOwner(type: String, name: String) throws -> String {
        if let blob = try database.query("SELECT tombstone FROM history WHERE type = ? AND name = ? AND kind = 1 AND tombstone IS NOT NULL ORDER BY seq DESC LIMIT 1", [.text(type), .text(name)]).first?.blob(0),
            case .string(let owner) = try FieldsCodec.decode(blob)[RecordFieldNames.ownerName]
        {
            return owner
        }
        return try failedChange(recordType: type, recordName: name)?.ownerName ?? SyncConstants.currentUserOwnerName
    }

    func parkAndPurge(account: String) throws -> (count: Int, assets: [AssetCacheEntry]) {
        let changed = try recordsNotInTheCloudYet()
        var parkedAssets: [AssetCacheEntry] = []
        for key in changed {
            let (type, name) = (key.recordType, key.recordName)
            let record: [SQLiteValue] = [.text(type), .text(name)]
            if let stored = try changes.tables.row(recordType: type, recordName: name) {
                try database.query(
                    "INSERT OR REPLACE INTO parked_changes (account, type, name, kind, owner, parent, fields, modified) VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
                    [.text(account)] + record + [.text(stored.owner), stored.parent.map(SQLiteValue.text) ?? .null,
                                                 .blob(FieldsCodec.encode(stored.fields)), .real(stored.modified.timeIntervalSince1970)])
            } else {
                try database.query(
                    "INSERT OR REPLACE INTO parked_changes (account, type, name, kind, owner) VALUES (?, ?, ?, 1, ?)",
                    [.text(account)] + record + [.text(try deletedOwner(type: type, name: name))])
            }
            try database.query(
                "INSERT OR REPLACE INTO parked_sync_records (account, \(Self.syncRecordColumns)) SELECT ?, \(Self.syncRecordColumns) FROM sync_records WHERE type = ? AND name = ?",
                [.text(account)] + record)
            // A file the cloud does not have yet is part of the change, parked with it. A file the
            // cloud has goes with the purge, and its entry is parked as remote: the record comes
            // back naming the asset, and only its entry tells the device to fetch it (a pull
            // skips the unchanged version the restore brings back).
            for var entry in try assetEntries(recordType: type, recordName: name) {
                if entry.state.isAwaitingUpload {
                    parkedAssets.append(entry)
                } else {
                    entry.state = .remote
                }
                try database.query(
                    "INSERT OR REPLACE INTO parked_assets (account, \(Self.assetColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [.text(account)] + Self.assetRow(entry))
            }
        }
        try purgeEverything()
        return (changed.count, parkedAssets)
    }

    func restoreParked(account: String) throws -> (count: Int, assets: [AssetCacheEntry]) {
        let rows = try database.query("SELECT type, name, kind, owner, parent, fields, modified FROM parked_changes WHERE account = ? ORDER BY type, name", [.text(account)])
        try carryIn(try rows.map { row in
            let (type, name, owner) = (row.text(0), row.text(1), row.text(3))
            guard row.integer(2) == ChangeKind.save.rawValue else { return .deletion(of: type, name, owner: owner) }
            let stored = StoredRow(name: name, owner: owner, parent: row.optionalText(4), modified: Date(timeIntervalSince1970: row.real(6)), fields: try FieldsCodec.decode(row.blob(5)))
            return .save(stored, of: type)
        })
        try database.query("INSERT OR REPLACE INTO sync_records (\(Self.syncRecordColumns)) SELECT \(Self.syncRecordColumns) FROM parked_sync_records WHERE account = ?", [.text(account)])
        var assets: [AssetCacheEntry] = []
        for row in try database.query("SELECT \(Self.assetColumns) FROM parked_assets WHERE account = ?", [.text(account)]) {
            var entry = try Self.assetEntry(row)
            // An upload the sign-out interrupted starts again.
            entry.state = entry.state.after(.interrupted) ?? entry.state
            try setAssetEntry(entry)
            if entry.state.isAwaitingUpload { assets.append(entry) }
        }
        try forgetParked(account: account)
        return (rows.count, assets)
    }

    func parkedChanges() throws -> [ParkedChanges] {
        try database.query("SELECT account, COUNT(*) FROM parked_changes GROUP BY account ORDER BY account").map {
            ParkedChanges(userRecordName: $0.text(0), count: Int($0.integer(1)))
        }
    }

    func discardParked(account: String) throws -> [AssetCacheEntry] {
        let assets = try database.query("SELECT \(Self.assetColumns) FROM parked_assets WHERE account = ?", [.text(account)]).map(Self.assetEntry).filter(\.state.isAwaitingUpload)
        try forgetParked(account: account)
        return assets
    }

    private func forgetParked(account: String) throws {
        for table in ["parked_changes", "parked_sync_records", "parked_assets"] {
            try database.query("DELETE FROM \(table) WHERE account = ?", [.text(account)])
        }
    }

    /// Every model and every table of sync state, emptied (parked changes stay): each topic's
    /// tables but parking's.
    func purgeEverything() throws {
        for table in try changes.tables.all() {
            try database.forEachRow("SELECT _name FROM \(table.sqlName) ORDER BY _name") { row in
                changes.note(table.recordType, row.text(0), .delete, by: .sync)
            }
            try database.execute("DELETE FROM \(table.sqlName)")
        }
        try database.execute("DELETE FROM history; DELETE FROM sync_records; DELETE FROM sent_uploads; DELETE FROM sync_state; DELETE FROM catalog_received; DELETE FROM asset_cache; DELETE FROM asset_cache_orphans; DELETE FROM failed_changes; DELETE FROM conflict_resolutions; DELETE FROM conflicts; DELETE FROM conflict_fields; DELETE FROM natural_key_checks; DELETE FROM natural_key_merges; DELETE FROM sync_shares;")
    }
}
