import SyncCore
import SyncPorts

/// A record the cloud no longer has: the one way that news enters the store, whichever path brings
/// it. A pull's page deletes it, a zone fetched from scratch no longer lists it, a push is told it
/// is gone, or a change is given up for the cloud's state and the cloud has no record
/// (``ChangeGivenUp``). Each path used to spell it with its own consequences; here they are one.
///
/// - A duplicate another device merged away (same natural key): what this device changed of it
///   and the cloud never saw goes to the survivor, and nothing is lost.
/// - The known server version is forgotten.
/// - A record deleted from a zone it has moved out of here stays: its copy is in the zone it
///   moved to. (A change given up is a move given up too: the record goes.)
/// - Otherwise the model goes with its subtree, a change set aside for it is void, and the copies
///   a move of it made here left in other zones go too (their deletion is queued).
/// - A change of the app's that the deletion dropped is named (`changeLostToDeletion`), once, and
///   so is each change of the subtree (`removedWithParent`). A deletion made here too loses
///   nothing. A shared root the owner deleted ends the share here, and its event lists them all.
struct CloudDeletionArrival {
    /// The store topics a deletion's arrival reads and writes.
    typealias Topics = NaturalKeyMerge.Topics & ParentChain.Topics

    let context: SyncContext

    /// Which path heard that the record is gone, and so what it knows.
    enum Source: Equatable {
        /// A pull: its page deleted the record, or a fetch from scratch no longer listed it.
        /// `alongside` holds the records gone in the same page or listing: their copies are the
        /// cloud's to delete, not this device's.
        case pull(alongside: Set<RecordKey>)
        /// A push was told the record is gone, and knows no more: a save of a record with a
        /// natural key may have lost to a duplicate this device has not heard of, and waits for
        /// the pull that brings the deletion to say.
        case push
        /// The app's own change is given up for the cloud's state: nothing of it is lost.
        case givenUp
    }

    /// Applies the deletion of `id`. Returns false when it waits for a pull (``Source/push``).
    @discardableResult
    func arrive(_ id: RecordID, type: any SyncModel.Type, from source: Source, in store: any Topics) throws -> Bool {
        let name = id.recordName
        let key = RecordKey(type.recordType, name)
        let stored = try store.parentAndOwner(type: type, recordName: name)
        let folded = try stored != nil && !type.uniqueKeys.isEmpty
            && NaturalKeyMerge(context: context).foldDeletedDuplicate(id, type: type, ancestor: try store.serverRecord(id), store: store)
        if source == .push && stored != nil && !type.uniqueKeys.isEmpty && !folded { return false }
        try store.removeServerRecord(id)
        if let stored, source != .givenUp, context.zone(of: type, ownerName: stored.owner) != id.zoneID { return true }
        // Only a model still stored holds a change the deletion can drop: a deletion made here
        // is no change lost to the cloud's.
        let changedHere = try stored != nil && source != .givenUp && store.hasLocalChange(recordType: type.recordType, recordName: name)
        // Where the record belongs by its parent chain: a copy in any other zone is one a move of
        // it left.
        let home = try stored.map { try ParentChain(context: context).owner(under: $0.parent, type: type, in: store) ?? $0.owner }
        try store.removeFailedChange(recordType: type.recordType, recordName: name)
        let removed = try store.deletePulled(type: type, recordName: name)
        if let home, changedHere {
            try ParentChain(context: context).deleteCopiesLeftByMove(of: key, outside: home, in: store)
        }
        let endsShare = stored != nil && id.scope == .shared && type is any ShareableModel.Type
        let alongside: Set<RecordKey> = if case .pull(let records) = source { records } else { [] }
        let changed = try ParentChain(context: context).settle(
            subtree: removed.filter { $0 != key }, under: name, in: id.zoneID, deletedAlready: alongside, announcing: !endsShare, in: store)
        if endsShare {
            try LostChanges(context: context).announce(.shareEnded(id.zoneID, rootRecordName: name, lostChanges: (changedHere ? [key] : []) + changed), in: store)
        } else if changedHere && !folded {
            try LostChanges(context: context).announce(.changeLostToDeletion(key), in: store)
        }
        return true
    }

    /// A deletion this device sent, which the cloud confirmed (or had made already), or need not
    /// send (a shared root this device deleted takes it with it): the server's version is
    /// forgotten, and the model, deleted here first, has nothing left to settle.
    func confirm(_ id: RecordID, in store: any ServerVersions) throws {
        try store.removeServerRecord(id)
    }
}
