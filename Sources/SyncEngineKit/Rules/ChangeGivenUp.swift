import SyncCore
import SyncPorts

/// A change of this device given up for the cloud's state of its record: the app reverted a
/// change set aside (`SyncEngine.revertFailedChange`) or one still waiting
/// (`SyncEngine.dropWaitingChange`), or the cloud refused it as not this user's to make (a
/// participant of a read-only share). Both paths take the same state: the cloud's
/// version written over the model, or, when the cloud has no record, the record's deletion
/// arriving (``CloudDeletionArrival``, its subtree settled). Telling the app is the caller's: a
/// refused change is named, a change the app reverted is not.
struct ChangeGivenUp {
    /// The store topics giving up a change reads and writes.
    typealias Topics = CloudVersionArrival.Topics & CloudDeletionArrival.Topics

    let context: SyncContext

    /// Takes back the app's change of a record that waits to be pushed: its history entries go,
    /// and the record takes the version the cloud last returned here (the one the change was made
    /// over), or goes when the cloud never had it. A save of the record whose answer was never
    /// read may be in the cloud: it is kept as sent, and nothing is taken back (`.inFlight`). The
    /// caller makes sure no push runs.
    func dropWaiting(_ type: any SyncModel.Type, recordName: String, in store: any Topics) throws -> WaitingChangeDrop {
        let known = try store.serverRecordIDs(recordType: type.recordType, recordName: recordName)
        let home = try store.parentAndOwner(type: type, recordName: recordName).map {
            RecordID(recordName: recordName, zoneID: context.zone(of: type, ownerName: $0.owner))
        }
        if try (known + [home].compactMap { $0 }).contains(where: { try !store.sentVersions($0).isEmpty }) { return .inFlight }
        guard try store.dropUnpushedChanges(recordType: type.recordType, recordName: recordName) else { return .nothingWaiting }
        let id = known.first { $0.zoneID == home?.zoneID } ?? known.first
            ?? home ?? RecordID(recordName: recordName, zoneID: context.zone(of: type, ownerName: SyncConstants.currentUserOwnerName))
        try takeCloudState(try store.serverRecord(id), of: id, type: type, in: store)
        return .dropped
    }

    /// A read-only engine's store (`SyncConfiguration.readOnly`): every change the app made waits
    /// for nothing, since nothing is sent. Each record changed takes the cloud's version known
    /// here back, or goes when the cloud has none, and the history moves past the changes.
    /// Returns how many records were changed.
    func letGoOfEveryChange(in store: any Topics) throws -> Int {
        let waiting = try store.unpushedChanges(limit: nil)
        try store.commitHistoryToken(waiting.readThrough)
        var records: Set<RecordKey> = []
        for change in waiting.changes where records.insert(RecordKey(change.recordType, change.recordName)).inserted {
            guard let type = context.registry.type(forRecordType: change.recordType) else { continue }
            let id = RecordID(recordName: change.recordName, zoneID: context.zone(of: type, ownerName: SyncConstants.currentUserOwnerName))
            try takeCloudState(try store.serverRecord(id), of: id, type: type, in: store)
        }
        return records.count
    }

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
