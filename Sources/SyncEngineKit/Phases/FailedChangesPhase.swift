import Foundation
import SyncCore
import SyncPorts

/// The app's side of changes the cloud refused for good: list them, send one again, or give it
/// up for the cloud's version of the record.
struct FailedChangesPhase {
    let context: SyncContext

    func list() throws(SyncError) -> [FailedChange] {
        try context.transaction { try $0.failedChanges() }
    }

    func change(recordType: String, recordName: String) throws(SyncError) -> FailedChange? {
        try context.transaction { try $0.failedChange(recordType: recordType, recordName: recordName) }
    }

    /// Queues the change again, as the model now is (or its deletion): the next pass sends it.
    /// Nothing happens when no change of the record is set aside.
    func retry(recordType: String, recordName: String) throws(SyncError) {
        try context.transaction { store in
            guard let failed = try store.failedChange(recordType: recordType, recordName: recordName) else { return }
            try store.removeFailedChange(recordType: recordType, recordName: recordName)
            try store.requeue(recordType: recordType, recordName: recordName, ownerName: failed.ownerName)
        }
    }

    /// Drops the change and takes the record as the cloud has it: fetched again and written over
    /// the model, or the model removed when the cloud has no such record (a record it never
    /// accepted).
    func revert(_ type: any SyncModel.Type, recordName: String) async throws(SyncError) {
        guard let failed = try change(recordType: type.recordType, recordName: recordName) else { return }
        let id = RecordID(recordName: recordName, zoneID: context.zone(of: type, ownerName: failed.ownerName))
        let found = try await context.cloud.fetchRecords([id], desiredKeys: context.registry.keysWithoutAssetContents, in: id.scope)
        let cloudVersion: SyncRecord?
        switch RecoveryPolicy.answer(found[id], for: id) {
        case .done(let record): cloudVersion = record
        case .gone: cloudVersion = nil
        case let other: throw .cloud(other.failure!)
        }
        try context.transaction { try ChangeGivenUp(context: context).takeCloudState(cloudVersion, of: id, type: type, in: $0) }
    }
}
