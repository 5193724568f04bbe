import Foundation
import SyncCore
import SyncStorage

/// Where each record stands with the cloud, read from the bookkeeping the engine keeps anyway:
/// the history after the pushed token, the changes set aside, the conflicts sync resolved.
extension SQLiteStoreTransaction {
    func noteConflictResolution(recordType: String, recordName: String) throws {
        try database.query(
            "INSERT OR REPLACE INTO conflict_resolutions (type, name, resolved_at) VALUES (?, ?, ?)",
            [.text(recordType), .text(recordName), .real(now.timeIntervalSince1970)])
    }

    /// The record's status, or nil for a record the store neither holds nor has a change of.
    func syncStatus(recordType: String, recordName: String) throws -> RecordSyncStatus? {
        let record: [SQLiteValue] = [.text(recordType), .text(recordName)]
        let resolved = try database.query("SELECT resolved_at FROM conflict_resolutions WHERE type = ? AND name = ?", record)
            .first.map { Date(timeIntervalSince1970: $0.real(0)) }
        let conflict = try conflicts(recordType: recordType, recordName: recordName, limit: 1).first
        if let failed = try failedChange(recordType: recordType, recordName: recordName) {
            return RecordSyncStatus(state: .failed(failed), lastConflictResolution: resolved, lastConflict: conflict)
        }
        let modified = try changes.tables.row(recordType: recordType, recordName: recordName)?.modified
        let waiting = try database.query(
            "SELECT COUNT(*), MIN(at) FROM history WHERE seq > ? AND type = ? AND name = ? AND \(Self.appChangesOnly)",
            [.integer(try historyToken())] + record)[0]
        if waiting.integer(0) > 0 {
            // An entry of a store older than the entries' times: the model's last save, or now.
            let since = waiting.isNull(1) ? modified ?? now : Date(timeIntervalSince1970: waiting.real(1))
            return RecordSyncStatus(state: .waitingToUpload(since: since), lastConflictResolution: resolved, lastConflict: conflict)
        }
        return modified == nil ? nil : RecordSyncStatus(state: .synced, lastConflictResolution: resolved, lastConflict: conflict)
    }
}
