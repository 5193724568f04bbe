import SyncCore
import SyncPorts

/// A change of this device given up for the cloud's state of its record: the app reverted a
/// change set aside (`SyncEngine.revertFailedChange`), or the cloud refused it as not this user's
/// to make (a participant of a read-only share). Both paths take the same state: the cloud's
/// version written over the model, or, when the cloud has no record, the record's deletion
/// arriving (``CloudDeletionArrival``, its subtree settled). Telling the app is the caller's: a
/// refused change is named, a change the app reverted is not.
struct ChangeGivenUp {
    /// The store topics giving up a change reads and writes.
    typealias Topics = CloudVersionArrival.Topics & CloudDeletionArrival.Topics

    let context: SyncContext

    /// `cloudVersion`: the record as the cloud has it, or nil when the cloud has none.
    func takeCloudState(_ cloudVersion: SyncRecord?, of id: RecordID, type: any SyncModel.Type, in store: any Topics) throws {
        try store.removeFailedChange(recordType: type.recordType, recordName: id.recordName)
        if let cloudVersion {
            try CloudVersionArrival(context: context).replace(cloudVersion, as: type, in: store)
        } else {
            try CloudDeletionArrival(context: context).arrive(id, type: type, from: .givenUp, in: store)
        }
    }
}
