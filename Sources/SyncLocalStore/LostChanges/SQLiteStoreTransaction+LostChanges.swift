import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: LostChangeNotices {
    func keepLostChange(_ event: SyncEvent, droppedAt: Date) throws {
        guard let kept = KeptEvent(event) else { return }
        let json = String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)
        try database.query("INSERT INTO lost_changes (event, dropped_at) VALUES (?, ?)", [.text(json), .real(droppedAt.timeIntervalSince1970)])
    }

    func lostChanges() throws -> [LostChange] {
        try database.query("SELECT id, event, dropped_at FROM lost_changes ORDER BY id").compactMap { row in
            guard let kept = try? JSONDecoder().decode(KeptEvent.self, from: Data(row.text(1).utf8)), let event = kept.event else { return nil }
            return LostChange(id: row.integer(0), event: event, droppedAt: Date(timeIntervalSince1970: row.real(2)))
        }
    }

    func forgetLostChanges(through id: Int64) throws {
        try database.query("DELETE FROM lost_changes WHERE id <= ?", [.integer(id)])
    }
}

/// What the table keeps of an event that names a dropped change: its values, by name.
private struct KeptEvent: Codable {
    struct Key: Codable {
        var type: String
        var name: String
    }

    enum Kind: String, Codable {
        case removedWithParent, changeLostToDeletion, changeReverted, shareEnded
    }

    var kind: Kind
    var keys: [Key] = []
    /// The parent whose deletion took the record, or the ended share's root.
    var parent: String?
    var zone: ZoneID?
    /// A reverted change: the owner, the kind, CloudKit's error and when it failed.
    var owner: String?
    var changeKind: Int?
    var code: Int?
    var message: String?
    var failedAt: Date?

    init?(_ event: SyncEvent) {
        switch event {
        case .removedWithParent(let key, let parent):
            (kind, keys, self.parent) = (.removedWithParent, [Key(key)], parent)
        case .changeLostToDeletion(let key):
            (kind, keys) = (.changeLostToDeletion, [Key(key)])
        case .changeReverted(let change):
            (kind, keys) = (.changeReverted, [Key(RecordKey(change.recordType, change.recordName))])
            (owner, changeKind, code, message, failedAt) = (change.ownerName, change.kind.rawValue, change.error.cloudKitCode, change.error.message, change.failedAt)
        case .shareEnded(let zone, let root, let lost):
            (kind, keys, parent, self.zone) = (.shareEnded, lost.map(Key.init), root, zone)
        default:
            return nil
        }
    }

    /// The event again; nil for a row that names no record where its kind needs one.
    var event: SyncEvent? {
        let records = keys.map { RecordKey($0.type, $0.name) }
        if kind == .shareEnded { return .shareEnded(zone ?? ZoneID(zoneName: ""), rootRecordName: parent, lostChanges: records) }
        guard let record = records.first else { return nil }
        switch kind {
        case .removedWithParent: return .removedWithParent(record, parentRecordName: parent ?? "")
        case .changeLostToDeletion: return .changeLostToDeletion(record)
        case .shareEnded: return nil
        case .changeReverted:
            return .changeReverted(FailedChange(
                recordType: record.recordType, recordName: record.recordName, ownerName: owner ?? "",
                kind: changeKind.flatMap(ChangeKind.init(rawValue:)) ?? .save,
                error: CloudError(cloudKitCode: code ?? 0, message ?? ""), failedAt: failedAt ?? Date(timeIntervalSince1970: 0)))
        }
    }
}

extension KeptEvent.Key {
    init(_ key: RecordKey) {
        self.init(type: key.recordType, name: key.recordName)
    }
}
