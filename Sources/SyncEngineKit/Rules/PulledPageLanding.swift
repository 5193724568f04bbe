import Foundation
import SyncCore
import SyncPorts

/// A page of a zone's changes landing in the store, in the pull's transaction for that page: the
/// pull awaits the page, checks the account, opens the transaction and hands the page here. What
/// the page brings enters through the arrival rules (``CloudVersionArrival``,
/// ``CloudDeletionArrival``); what the pull must act on later (targets not stored, orphans,
/// records it could not read) is noted in its ``PullState``. The records a pull fetches by name
/// (references, unreadable records, catalogs) arrive through ``apply(_:scope:state:in:)`` too.
struct PulledPageLanding {
    /// The store topics a page's landing reads and writes: what a cloud version's arrival takes,
    /// the engine's state (tokens, listings, unreadable records) and the shares it keeps.
    typealias Topics = CloudVersionArrival.Topics & CloudDeletionArrival.Topics & EngineState & KnownShares

    let context: SyncContext

    /// One page of a zone's changes, applied in the caller's transaction: its records (merged
    /// into models the app changed), its shares, its deletions, what it could not deliver, the
    /// listing of a fetch from scratch, and the zone's new token, together. `known`: the listing
    /// a fetch from scratch began on an earlier page. Returns the listing.
    func land(
        _ page: ZoneChanges, of zone: ZoneID, scope: DatabaseScope, fromScratch: Bool, listing known: Int64?, skipping unreadable: Set<RecordID>,
        state: inout PullState, in store: any Topics
    ) throws -> Int64? {
        // A fetch from scratch is a listing, begun with its first page, in the
        // transaction that keeps the page's token.
        let listing = fromScratch && known == nil ? try ZoneRefetch.begin(zone, scope: scope, in: store) : known
        try state.localChanges.refresh(in: store)
        // Before the records: a zone's move is known before a record it moved, or a copy's
        // deletion, lands (``ZoneMoves``).
        try ZoneMoves(context: context).learn(page.changedRecords, scope: scope, in: store)
        // A record deleted and saved again within the page exists: its save is the later.
        let saved = Set(page.changedRecords.map { RecordKey($0.recordType, $0.id.recordName) })
        var reads = try PulledPageReads(page.changedRecords, registry: context.registry, in: store)
        for record in page.changedRecords where !unreadable.contains(record.id) {
            try apply(record, scope: scope, state: &state, reads: &reads, fromScratch: fromScratch, in: store)
        }
        // Kept as the cloud has them: who takes part, and what this user may do.
        for share in page.changedShares { try store.keepShare(share) }
        let deletedInPage = Set(page.deletedRecords.map { RecordKey($0.recordType, $0.id.recordName) })
        for deleted in page.deletedRecords {
            try state.forgetUnreadable(deleted.id, in: store)
            if deleted.recordType == ShareRecord.recordType {
                // A weak signal: the share may only have been replaced. Checked below.
                if !page.changedShares.contains(where: { $0.id == deleted.id }) { try store.forgetShare(deleted.id) }
                continue
            }
            if saved.contains(RecordKey(deleted.recordType, deleted.id.recordName)) { continue }
            try arriveDeleted(deleted.id, recordType: deleted.recordType, alongside: deletedInPage, in: store)
        }
        // The page holds without what it could not deliver: the token moves on, and
        // those records are fetched again by name.
        try state.noteUnreadable(page.unreadableRecords, at: context.clock.now, in: store)
        if let listing {
            try ZoneRefetch.noteListed(page, in: zone, listing: listing, in: store)
            if !page.moreComing {
                let gone = try ZoneRefetch.end(zone, scope: scope, listing: listing, in: store)
                let goneKeys = Set(gone.map { RecordKey($0.recordType, $0.id.recordName) })
                for (id, recordType) in gone {
                    try arriveDeleted(id, recordType: recordType, alongside: goneKeys, in: store)
                }
            }
        }
        try store.setState(SyncStateKeys.zoneToken(zone, scope), page.newToken.storedValue)
        try store.setState(SyncStateKeys.zoneKeys(zone, scope), context.registry.keysSignature)
        try store.setState(SyncStateKeys.zonePulled(zone, scope), String(context.clock.now.timeIntervalSince1970))
        if !page.moreComing { try store.setState(SyncStateKeys.zoneUnfetched(zone, scope), nil) }
        return listing
    }

    /// Applies a pulled record through ``CloudVersionArrival`` (merged into a model the app changed),
    /// unless this device already has that version.
    func apply(_ record: SyncRecord, scope: DatabaseScope, state: inout PullState, in store: any Topics) throws {
        var reads = PulledPageReads()
        try apply(record, scope: scope, state: &state, reads: &reads, in: store)
    }

    private func apply(
        _ record: SyncRecord, scope: DatabaseScope, state: inout PullState, reads: inout PulledPageReads, fromScratch: Bool = false, in store: any Topics
    ) throws {
        try state.forgetUnreadable(record.id, in: store)
        guard let type = context.registry.type(forRecordType: record.recordType) else { return }
        let moves = ZoneMoves(context: context)
        // A copy left in a zone that moved away, of a record whose moved copy is known here: the
        // moved copy is the record (an old app version may have saved into the old zone).
        if try moves.isLeftBehind(record, in: store) {
            try store.setServerRecord(record)
            return
        }
        try arrive(record, as: type, scope: scope, state: &state, reads: &reads, fromScratch: fromScratch, in: store)
        // In a zone that moved away, with no moved copy known: this device moves it (its own
        // push may have put it there just before it learned the move).
        try moves.moveIfSavedIntoMovedZone(record, type: type, scope: scope, in: store)
    }

    /// A pulled record's version arriving (``CloudVersionArrival``), unless this device already
    /// has it, and a record under a parent the user deleted here following it.
    private func arrive(
        _ record: SyncRecord, as type: any SyncModel.Type, scope: DatabaseScope, state: inout PullState, reads: inout PulledPageReads, fromScratch: Bool,
        in store: any Topics
    ) throws {
        // A version this device already has (it pushed it): nothing to apply. Fetched again from
        // scratch, a version held here may bring keys it was first fetched without (an update of
        // the app added them): those are learned.
        if try reads.holdsThisVersion(record) ?? CloudVersionArrival.holds(record, type: type, in: store) {
            guard fromScratch, try CloudVersionArrival.bringsKeysNotHeld(record, in: store) else { return }
        }
        let isLocalChange = state.localChanges.contains(record.recordType, record.id.recordName)
        let isStored = reads.isStored(record)
        reads.noteApplied(record)
        let applied = try CloudVersionArrival(context: context).apply(record, as: type, in: store, isLocalChange: isLocalChange, isStored: isStored)
        for target in applied.missingTargets {
            state.missing[RecordID(recordName: target.recordName, zoneID: record.id.zoneID)] = PullState.MissingTarget(scope: scope, recordType: target.recordType)
        }
        // Under a parent the user deleted here, in their own zone: it follows its parent.
        guard scope == .private, let parent = applied.record?.parentRecordName, let parentType = context.registry.parentType(of: type),
            applied.missingTargets.contains(RecordKey(parentType.recordType, parent))
        else { return }
        if state.localChanges.contains(parentType.recordType, parent) {
            try ParentChain(context: context).follow(deletedParent: parent, type: type, recordName: record.id.recordName, in: store)
        } else {
            state.orphans[RecordID(recordName: parent, zoneID: record.id.zoneID), default: []].append(RecordKey(type.recordType, record.id.recordName))
        }
    }

    /// A record the page deleted, or the listing no longer holds: its deletion arrives
    /// (``CloudDeletionArrival``), for a type this app syncs.
    private func arriveDeleted(_ id: RecordID, recordType: String, alongside: Set<RecordKey>, in store: any Topics) throws {
        guard let type = context.registry.type(forRecordType: recordType) else { return }
        let moves = ZoneMoves(context: context)
        // A copy this device sealed, deleted before its own removal: the user's deletion.
        if try moves.isDeletionOfSealedCopy(id, in: store) {
            return try moves.deleteEverywhere(id, type: type, owner: id.zoneID.ownerName, in: store)
        }
        // This device's own removal of a copy, met by the pull (its reply lost, or the app killed).
        try moves.forgetDeletionNote(of: id, in: store)
        // A copy in a zone that moved, whose moved copy is not known here yet: looked up first.
        if try moves.deferDeletion(of: id, type: type, in: store) { return }
        try CloudDeletionArrival(context: context).arrive(id, type: type, from: .pull(alongside: alongside), in: store)
    }
}
