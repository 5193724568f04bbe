import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// What a store holds about one record, for the inspector's `history`: the changes of it still
/// kept (those not pushed yet, newest last), each version the cloud returned of it, a change set
/// aside, the conflicts kept, and its asset. Types and names only: never its fields' values.
package struct RecordReport: Sendable, Hashable, Codable {
    /// A change of the record the store keeps.
    package struct Change: Sendable, Hashable, Codable {
        package var sequence: Int64
        package var kind: String
        package var author: String
        package var at: Date?
    }

    /// A version the cloud returned.
    package struct ServerVersion: Sendable, Hashable, Codable {
        package var zone: String
        package var changeTag: String?
        package var modifiedAt: Date?
        package var createdBy: String?
        package var modifiedBy: String?
        package var shareRecordName: String?
    }

    package var recordType: String
    package var recordName: String
    package var isStored: Bool
    package var changes: [Change]
    package var serverVersions: [ServerVersion]
    package var setAside: String?
    package var conflicts: [String]
    /// Each asset field's file: "cover: cached, 1200 bytes; thumbnail: remote, 80 bytes".
    package var asset: String?
}

extension SyncStore {
    /// The report of one record.
    package func report(recordType: String, recordName: String) throws -> RecordReport {
        try sqliteTransaction { store in
            let changes = try store.database.query(
                "SELECT seq, kind, author, at FROM history WHERE type = ? AND name = ? ORDER BY seq", [.text(recordType), .text(recordName)]
            ).map { row in
                RecordReport.Change(
                    sequence: row.integer(0), kind: "\(ChangeKind(rawValue: Int(row.integer(1))) ?? .save)", author: row.text(2),
                    at: row.isNull(3) ? nil : Date(timeIntervalSince1970: row.real(3)))
            }
            let versions = try store.serverRecordIDs(recordType: recordType, recordName: recordName).compactMap { id in
                try store.serverRecord(id).map { version in
                    RecordReport.ServerVersion(
                        zone: "\(id.zoneID)", changeTag: version.changeTag, modifiedAt: version.modificationDate, createdBy: version.creatorUserRecordName,
                        modifiedBy: version.lastModifiedUserRecordName, shareRecordName: version.shareRecordName)
                }
            }
            return RecordReport(
                recordType: recordType, recordName: recordName,
                isStored: try store.isStored(RecordKey(recordType, recordName)),
                changes: changes, serverVersions: versions,
                setAside: try store.failedChange(recordType: recordType, recordName: recordName).map(\.description),
                conflicts: try store.conflicts(recordType: recordType, recordName: recordName).map(\.description),
                asset: try Self.assets(store.assetEntries(recordType: recordType, recordName: recordName)))
        }
    }

    private static func assets(_ entries: [AssetCacheEntry]) -> String? {
        entries.isEmpty ? nil : entries.map { "\($0.key.field): \($0.state), \($0.byteSize) bytes" }.joined(separator: "; ")
    }
}
