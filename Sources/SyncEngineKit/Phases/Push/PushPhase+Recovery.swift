import Foundation
import SyncCore
import SyncPorts

/// Recovering a push's items: what one record's error means for it, carried out inside the
/// results' transaction, every `RecoveryAction` by name.
extension PushPhase {
    /// What an item's error means for it, decided inside the results' transaction: an item to send
    /// again, or nil (done, set aside, left to a follow-up, or a failure now in the outcome).
    func recover(
        _ item: PushItem, from error: CloudError, scope: DatabaseScope, in store: any Topics,
        outcome: inout Outcome, followUps: inout [FollowUp]
    ) throws -> PushItem? {
        switch RecoveryPolicy.itemAction(for: error) {
        case .mergeAndRetry:
            return try merge(item, conflictingWith: error, in: store, outcome: &outcome)
        case .treatAsDone where try requeueWhereItMoved(item, in: store):
            return nil
        case .treatAsDone where item.record == nil:
            // A deletion of a record gone already: done, as though it landed.
            try CloudDeletionArrival(context: context).confirm(item.id, in: store)
            try store.removeFailedChange(recordType: item.type.recordType, recordName: item.id.recordName)
            return nil
        case .treatAsDone:
            // Deleted on the server while edited here: the deletion wins everywhere.
            try CloudDeletionArrival(context: context).arrive(item.id, type: item.type, from: .push, in: store)
            return nil
        case .retryWithBatch:
            return item
        case .skipItem where scope == .public:
            try revertPublic(item, error, in: store, outcome: &outcome)
            return nil
        case .skipItem where scope == .shared:
            if case .delete = item.operation, let share = try store.serverRecord(item.id)?.shareRecordName {
                // Deleting someone else's shared root means leaving their share.
                followUps.append(.leaveShare(item, shareID: RecordID(recordName: share, zoneID: item.id.zoneID)))
                return nil
            }
            try revert(item, error, in: store, outcome: &outcome)
            return nil
        case .uploadParentFirst:
            return try saveParentFirst(item, error, in: store, outcome: &outcome)
        case .skipItem, .setAside:
            try setAside(item, error, in: store, outcome: &outcome)
            return nil
        case .recreateZone where scope == .private:
            try queueTheZoneAgain(of: item, in: store, followUps: &followUps)
            return item
        case .recreateZone:
            // A shared zone that is gone: the share ended; the next pull removes its copy.
            try setAside(item, error, in: store, outcome: &outcome)
            return nil
        case .askBeforeReuploading:
            // The user deleted the zone in Settings: nothing of it goes up until the app decides.
            try store.setState(SyncStateKeys.userDeletedZone(item.id.zoneID), "1")
            context.events.publish(.userDeletedZone(item.id.zoneID))
            return nil
        case .retry, .waitForNetwork, .splitBatch, .resetToken, .stopForAccount, .tellUserQuotaExceeded, .tellUserStorageFull, .report:
            // Not the item's to settle: its change keeps waiting in the history, and the error
            // is the pass's, whose action says when it runs again (a request too large was split
            // before its items' results were read).
            outcome.failures[item.id] = error
            return nil
        }
    }

    /// Another user's public record: not ours to change. The record goes back to the cloud's state
    /// (``PublicCopies/restore(_:recordName:in:)``), and the app hears its change was reverted.
    private func revertPublic(_ item: PushItem, _ error: CloudError, in store: any Topics, outcome: inout Outcome) throws {
        try PublicCopies(context: context).restore(item.type, recordName: item.id.recordName, in: store)
        outcome.reverted.insert(item.id)
        try LostChanges(context: context).announce(.changeReverted(failedChange(item, error)), in: store)
    }

    /// The item's private zone is gone with every record in it: all of them go up again, queued
    /// now (once per zone), and the item is sent again as soon as the zone exists (without the
    /// void change tag).
    private func queueTheZoneAgain(of item: PushItem, in store: any Topics, followUps: inout [FollowUp]) throws {
        guard !followUps.contains(where: { if case .recreateZone(item.id.zoneID) = $0 { true } else { false } }) else { return }
        try ZoneRebuild.queueEverything(of: item.id.zoneID, types: context.zonedTypes(in: item.id.zoneID), in: store)
        followUps.append(.recreateZone(item.id.zoneID))
    }

    /// A conflict: the server's version merged into the store as it is now (an edit the app made
    /// since this push read the model is part of the merge, never written over), and the merged
    /// record sent again. Nil when the change waits instead: for a version the conflict did not
    /// bring, one the model cannot read, or a survivor.
    private func merge(_ item: PushItem, conflictingWith error: CloudError, in store: any Topics, outcome: inout Outcome) throws -> PushItem? {
        guard let server = error.serverRecord else {
            // A conflict that came without the server's version: nothing to merge onto, so
            // the change waits for the pull that brings it.
            outcome.failures[item.id] = error
            return nil
        }
        // A version this app's model cannot read (another client wrote a value of another
        // type) cannot be merged with: the change waits, set aside where the app sees it,
        // rather than fail every pass at this conflict.
        if let unreadable = UnreadableRecords.problem(reading: server, as: item.type) {
            try setAside(item, unreadable, in: store, outcome: &outcome)
            return nil
        }
        // The server's version may bring an asset this device has not heard of: the cache
        // learns of it, as from a pull.
        _ = try CloudVersionArrival(context: context).apply(server, as: item.type, in: store, isLocalChange: true)
        if try requeueWhereItMoved(item, in: store) { return nil }
        if let waiting = Self.waitsForSurvivor(item, over: server) {
            try setAside(item, waiting, in: store, outcome: &outcome)
            return nil
        }
        guard let current = try store.uploadRecord(type: item.type, recordName: item.id.recordName, routes: context.routes) else {
            return PushItem(id: item.id, type: item.type, operation: .delete)
        }
        var record = current
        record.id = item.id
        var again = item
        again.operation = .save(record)
        return again
    }

    /// A change sent to a zone whose move this device learned from the zone's marker as the
    /// change failed (`ZoneMoveLookup.learnMoves(behind:scope:)`): it met the move's seal of the
    /// record's copy, or found the copy deleted. The change goes up again, routed where the record
    /// moved (the next round of this push), and this item is done. False for a zone that did not
    /// move.
    private func requeueWhereItMoved(_ item: PushItem, in store: any Topics) throws -> Bool {
        guard context.routes.resolve(item.id.zoneID) != item.id.zoneID else { return false }
        let name = item.id.recordName
        switch item.operation {
        case .save:
            guard let stored = try store.parentAndOwner(type: item.type, recordName: name) else { return false }
            try store.requeue(recordType: item.type.recordType, recordName: name, ownerName: stored.owner)
        case .delete:
            try CloudDeletionArrival(context: context).confirm(item.id, in: store)
            try store.queueDeletion(recordType: item.type.recordType, recordName: name, ownerName: item.id.zoneID.ownerName)
        }
        return true
    }

    /// A moved record's save landed: the model takes its new owner, and the copies left in other
    /// zones go.
    func landMove(_ item: PushItem, in store: any StoredModels & StoreHistory) throws {
        if item.isMove { try store.setOwner(item.id.zoneID.ownerName, type: item.type, recordName: item.id.recordName) }
        for copy in item.leaves {
            try store.queueDeletion(recordType: item.type.recordType, recordName: item.id.recordName, ownerName: copy.zoneID.ownerName)
        }
    }

    /// A save whose parent the cloud does not have. A parent stored here goes up again first (the
    /// cloud lost it, or never had it) and the child waits; a parent that is gone takes the child
    /// with it (`ParentChain.follow`): the recovery ends either way.
    func saveParentFirst(_ item: PushItem, _ error: CloudError, in store: any Topics, outcome: inout Outcome) throws -> PushItem? {
        guard let parent = item.record?.parentRecordName, let parentType = context.registry.parentType(of: item.type) else {
            try setAside(item, error, in: store, outcome: &outcome)
            return nil
        }
        if let stored = try store.parentAndOwner(type: parentType, recordName: parent) {
            try store.requeue(recordType: parentType.recordType, recordName: parent, ownerName: stored.owner)
            outcome.failures[item.id] = error
            return nil
        }
        try ParentChain(context: context).follow(deletedParent: parent, type: item.type, recordName: item.id.recordName, in: store)
        return nil
    }

    /// A change the cloud refused because this user may not make it (a participant of a
    /// read-only share): the record goes back to the cloud's last version known here (the copy
    /// a refused move left, for a move), or goes when the cloud never had it. A refused deletion
    /// of the copy a move left undoes the move: the record comes back, its new copy goes.
    func revert(_ item: PushItem, _ error: CloudError, in store: any Topics, outcome: inout Outcome) throws {
        let name = item.id.recordName
        if case .delete = item.operation, let stored = try store.parentAndOwner(type: item.type, recordName: name),
            context.zone(of: item.type, ownerName: stored.owner) != item.id.zoneID
        {
            try store.queueDeletion(recordType: item.type.recordType, recordName: name, ownerName: stored.owner)
        }
        let known = try store.serverRecord(item.id) ?? item.leaves.first.flatMap { try store.serverRecord($0) }
        try ChangeGivenUp(context: context).takeCloudState(known, of: item.id, type: item.type, in: store)
        outcome.reverted.insert(item.id)
        try LostChanges(context: context).announce(.changeReverted(failedChange(item, error)), in: store)
    }

    /// Sets a change aside with the cloud's error: out of the queue until it changes again or the
    /// app retries it.
    func setAside(_ item: PushItem, _ error: CloudError, in store: any SetAsideChanges, outcome: inout Outcome) throws {
        let change = failedChange(item, error)
        try store.setAside(change)
        outcome.setAside.append(change)
        outcome.answered.insert(item.id)
    }

    func failedChange(_ item: PushItem, _ error: CloudError) -> FailedChange {
        FailedChange(
            recordType: item.type.recordType, recordName: item.id.recordName, ownerName: item.id.zoneID.ownerName,
            kind: item.kind, error: error, failedAt: context.clock.now)
    }
}
