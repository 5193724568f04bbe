import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: SetAsideChanges {
    func setAside(_ change: FailedChange) throws {
        try database.query(
            "INSERT OR REPLACE INTO failed_changes (type, name, owner, kind, code, message, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(change.recordType), .text(change.recordName), .text(change.ownerName), .integer(Int64(change.kind.rawValue)),
             .integer(Int64(change.error.cloudKitCode)), .text(change.error.message), .real(change.failedAt.timeIntervalSince1970)])
    }

    func failedChanges() throws -> [FailedChange] {
        try database.query("SELECT type, name, owner, kind, code, message, failed_at FROM failed_changes ORDER BY type, name").map(Self.failedChange)
    }

    func failedChange(recordType: String, recordName: String) throws -> FailedChange? {
        try database.query("SELECT type, name, owner, kind, code, message, failed_at FROM failed_changes WHERE type = ? AND name = ?", [.text(recordType), .text(recordName)]).first.map(Self.failedChange)
    }

    func removeFailedChange(recordType: String, recordName: String) throws {
        try database.query("DELETE FROM failed_changes WHERE type = ? AND name = ?", [.text(recordType), .text(recordName)])
    }

    private static func failedChange(_ row: SQLiteRow) -> FailedChange {
        FailedChange(
            recordType: row.text(0), recordName: row.text(1), ownerName: row.text(2),
            kind: ChangeKind(rawValue: Int(row.integer(3))) ?? .save,
            error: CloudError(cloudKitCode: Int(row.integer(4)), row.text(5)),
            failedAt: Date(timeIntervalSince1970: row.real(6)))
    }
}
