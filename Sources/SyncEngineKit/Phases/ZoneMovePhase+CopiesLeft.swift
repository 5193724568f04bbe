import Foundation
import SyncCore
import SyncPorts

// The copies a move leaves in the zone moved out of: moved, then removed, without taking another
// device's edit or deletion with them.
//
// CloudKit saves a new record and deletes one whatever the other zone holds, and deletes a record
// whatever its version: a copy another device edited or deleted after this one read it (a device
// whose pull came just before the move's markers and its push just after) would have the edit
// deleted with it, or the deletion undone by the moved copy. So a copy is sealed before it moves:
// saved again over the version known here, unchanged but for a seal among its upload versions
// (`ZoneMoves.sealID`), on the condition that the cloud still has that version.
//
// - A copy edited since fails the seal with its newer version, whose edit goes into the model and
//   up again; a copy deleted since is looked up in the zone it moved into (moved by another
//   device, or deleted).
// - A device that edits or deletes a sealed copy, or one already deleted, without knowing the
//   move, meets a conflict or a missing record: its push then reads the zone's marker
//   (`ZoneMoveLookup`) and sends the change where the record moved.
// - The seal is the removal's claim: only the device that sealed a copy deletes it, and no device
//   seals over another's seal. So a copy found gone after this device sealed it, and before it
//   sent the deletion, was deleted by someone who meant it (the user, on a device that knew no
//   move, or one that deleted every copy): the moved record is deleted too.
extension ZoneMovePhase {
    /// Before the push: each record this device holds of a zone it is moving, whose moved copy is
    /// not in the cloud and that waits for no change of its own, is sealed, then queued; its save
    /// goes to the target (the routing rule), with the copy it leaves as its merge's ancestor.
    func queueRecordsToMove(in zones: [ZoneID]) async throws(SyncError) {
        for zone in zones {
            let toMove = try context.transaction { store in
                try copiesLeft(in: zone, store: store).filter { try !$0.isMoved && !store.hasLocalChange(recordType: $0.type.recordType, recordName: $0.id.recordName) }
            }
            for chunk in Self.requests(of: Self.childrenFirst(toMove)) {
                let sealed = try await seal(chunk)
                try context.transaction { store in
                    for copy in chunk where sealed.contains(copy.id) {
                        try store.requeue(recordType: copy.type.recordType, recordName: copy.id.recordName, ownerName: copy.owner)
                    }
                }
            }
        }
    }

    /// After the push: the copies this device sealed in each of the user's zones that moved, whose
    /// moved copy is in the cloud, are deleted (a copy of a record moved otherwise is sealed
    /// first), by their zone, children before their parents, in requests within CloudKit's item
    /// limit; each is forgotten here when its deletion went through. A move this device began
    /// whose zone holds no copy any more is done.
    func removeCopiesLeft() async throws(SyncError) {
        let moved = context.routes.moves.keys.filter { $0.ownerName == SyncConstants.currentUserOwnerName }.sorted { $0.description < $1.description }
        for zone in moved {
            let doomed = try context.transaction { store in try copiesLeft(in: zone, store: store).filter(\.isMoved) }
            for chunk in Self.requests(of: Self.childrenFirst(doomed)) {
                let sealed = try await seal(chunk)
                let deletions = chunk.filter { sealed.contains($0.id) }
                guard !deletions.isEmpty else { continue }
                // Noted before the request: a copy found gone later, after a lost reply or a
                // kill, is this device's deletion.
                let sentBefore = try context.transaction { store -> Set<RecordID> in
                    var before: Set<RecordID> = []
                    for copy in deletions {
                        let key = SyncStateKeys.movedCopyDeletionSent(copy.id)
                        if try store.state(key) != nil { before.insert(copy.id) } else { try store.setState(key, "1") }
                    }
                    return before
                }
                let ids = deletions.map(\.id)
                let result: ModifyResult
                do {
                    result = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: ids, isAtomic: false), in: .private)
                } catch {
                    // Never sent: no deletion of this device's is in the cloud, so none may be
                    // assumed when the copies are found gone later.
                    if case .cloud(let failure) = error, RecoveryPolicy.modifyFailure(failure) == .neverSent {
                        try context.transaction { store in for id in ids { try store.setState(SyncStateKeys.movedCopyDeletionSent(id), nil) } }
                    }
                    throw error
                }
                try context.transaction { store in
                    for copy in deletions {
                        let answer = RecoveryPolicy.answer(result.deletedRecords[copy.id], for: copy.id)
                        if answer.isGone && !sentBefore.contains(copy.id) {
                            try ZoneMoves(context: context).deleteEverywhere(copy.id, type: copy.type, owner: copy.owner, in: store)
                        } else if answer.failure == nil || answer.isGone {
                            try CloudDeletionArrival(context: context).confirm(copy.id, in: store)
                            try store.setState(SyncStateKeys.movedCopyDeletionSent(copy.id), nil)
                        }
                    }
                }
            }
            try finishIfDone(zone)
        }
    }

    /// Seals each copy this device may (one request): returns the copies sealed here, now or at an
    /// earlier pass, ready for the next step. A copy another device sealed is that device's to
    /// move and remove. A copy edited since it was read here has the edit merged into its model,
    /// which goes up again (to the zone it moved into); one deleted since this device sealed it
    /// was deleted by someone who meant it (`ZoneMoves.deleteEverywhere`); one deleted otherwise is
    /// looked up in the zone it moved into by the next pull, unless its moved copy is known (then
    /// it is forgotten); one whose parent's copy is gone counts as sealed, as no other device's
    /// save of it can land either; any other failure leaves it for the next pass.
    private func seal(_ copies: [CopyLeft]) async throws(SyncError) -> Set<RecordID> {
        let (device, known) = try context.transaction { store in
            (try UploadDevice.id(in: store), try copies.reduce(into: [RecordID: SyncRecord]()) { known, copy in known[copy.id] = try store.serverRecord(copy.id) })
        }
        var sealed: Set<RecordID> = []
        var seals: [SyncRecord] = []
        for copy in copies {
            guard let version = known[copy.id] else { continue }
            let sealer = ZoneMoves.sealer(of: version)
            if sealer == nil {
                seals.append(Self.seal(of: version, device: device))
            } else if sealer == device[...] {
                sealed.insert(copy.id)
            }
        }
        guard !seals.isEmpty else { return sealed }
        let result = try await context.cloud.modify(ModifyRequest(recordsToSave: seals, savePolicy: .ifServerRecordUnchanged, isAtomic: false), in: .private)
        try context.transaction { store in
            let arrival = CloudVersionArrival(context: context)
            for copy in copies where seals.contains(where: { $0.id == copy.id }) {
                switch RecoveryPolicy.answer(result.savedRecords[copy.id], for: copy.id) {
                case .done(let version):
                    try store.setServerRecord(Self.copy(known[copy.id]!, sealedAs: version))
                    sealed.insert(copy.id)
                case .conflict(let error):
                    guard let newer = error.serverRecord else { continue }
                    // Another device's seal changes nothing of the record: it moves it.
                    guard ZoneMoves.sealer(of: newer) == nil else {
                        _ = try arrival.apply(newer, as: copy.type, in: store)
                        continue
                    }
                    _ = try arrival.apply(newer, as: copy.type, in: store, isLocalChange: true)
                    try store.requeue(recordType: copy.type.recordType, recordName: copy.id.recordName, ownerName: copy.owner)
                case .gone:
                    if try !ZoneMoves(context: context).deferDeletion(of: copy.id, type: copy.type, in: store) {
                        try CloudDeletionArrival(context: context).confirm(copy.id, in: store)
                    }
                case let answer:
                    if answer.isParentMissing { sealed.insert(copy.id) }
                }
            }
        }
        return sealed
    }

    /// A copy's seal: the version known here saved again as it is, sending only its upload
    /// versions with this device's seal first (a key every record the engine saved has, so no
    /// type's schema grows), conditional on the cloud still having that version.
    static func seal(of copy: SyncRecord, device: String) -> SyncRecord {
        var seal = SyncRecord(recordType: copy.recordType, id: copy.id, parentRecordName: copy.parentRecordName)
        seal.base(onServerVersionOf: copy)
        seal.stampUpload(ZoneMoves.sealID(device: device), over: copy)
        return seal
    }

    /// The copy as the cloud has it once sealed: the values known here (the seal changed none,
    /// and its answer carries only the key it sent), under the seal's version: what a merge of
    /// the record's first version in the target starts from.
    static func copy(_ copy: SyncRecord, sealedAs answer: SyncRecord) -> SyncRecord {
        var kept = copy
        kept.base(onServerVersionOf: answer)
        kept.takeServerMetadata(of: answer)
        kept.fields[RecordFieldNames.uploadVersions] = answer.fields[RecordFieldNames.uploadVersions]
        return kept
    }

    /// The copies in requests within CloudKit's item limit.
    private static func requests(of copies: [CopyLeft]) -> [[CopyLeft]] {
        stride(from: 0, to: copies.count, by: CloudKitLimits.maxItemsPerRequest).map { Array(copies[$0..<min($0 + CloudKitLimits.maxItemsPerRequest, copies.count)]) }
    }

    /// The copies ordered so a record's copy goes before its parent's: in requests apart, the
    /// parent's copy is still there when its child's seal names it.
    private static func childrenFirst(_ copies: [CopyLeft]) -> [CopyLeft] {
        let parents = Dictionary(copies.compactMap { copy in copy.parent.map { (copy.id.recordName, $0) } }, uniquingKeysWith: { first, _ in first })
        func depth(_ name: String) -> Int {
            var (depth, current, seen) = (0, name, Set<String>())
            while let parent = parents[current], seen.insert(parent).inserted {
                depth += 1
                current = parent
            }
            return depth
        }
        return copies.map { ($0, depth($0.id.recordName)) }.sorted { $0.1 > $1.1 }.map(\.0)
    }
}
