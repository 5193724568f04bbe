import Foundation
import SyncCore
import SyncPorts

/// Moving every record of one of the user's zones into another (``ZoneMoves``): the device that
/// began the move marks it, then seals and queues each record it holds of the zone, whose save
/// the push sends to the target; the device that sealed a copy removes it once the moved copy is
/// in the cloud (`ZoneMovePhase+CopiesLeft.swift`).
///
/// Each step is read from the store's state, never kept in memory only, so a move cut off at any
/// write goes on at the next pass: the move begun (`zoneMoveBegun`), the markers saved
/// (`zoneMoveMarked`), the records queued as ordinary changes, and the copies left behind known
/// as the server versions of the zone moved out of. A record is in the cloud twice only between
/// its save in the target and its copy's removal, and a pull that meets both takes the moved one.
struct ZoneMovePhase {
    let context: SyncContext

    /// Begins moving `zone` into `target` (`SyncEngine.moveZone(_:into:)`): checked, noted as
    /// begun, and marked. A call for a move already learned (begun on another device that was
    /// never seen again) takes it up here.
    func begin(moving zone: ZoneID, into target: String) async throws(SyncError) {
        let moves = ZoneMoves(context: context)
        let problem = try context.transaction { store -> String? in
            if context.routes.moves[zone] == target {
                try store.setState(SyncStateKeys.zoneMoveBegun(zone), target)
                try store.setState(SyncStateKeys.zoneMoveMarked(zone), "1")
                return nil
            }
            if let problem = try moves.problem(moving: zone, into: target, in: store) { return problem }
            try store.setState(SyncStateKeys.zoneMoveBegun(zone), target)
            return nil
        }
        if let problem { throw .cloud(CloudError(.invalidArguments, problem)) }
        try await mark(try begunMoves())
    }

    /// The moves this device began, by zone: the target's name, and whether both markers are in
    /// the cloud.
    private func begunMoves() throws(SyncError) -> [(zone: ZoneID, target: String, marked: Bool)] {
        try context.transaction { store in
            try store.stateKeys(prefix: SyncStateKeys.zoneMoveBegunPrefix).sorted().compactMap { key in
                let zone = ZoneID(zoneName: String(key.dropFirst(SyncStateKeys.zoneMoveBegunPrefix.count)))
                guard let target = try store.state(key) else { return nil }
                return (zone, target, try store.state(SyncStateKeys.zoneMoveMarked(zone)) != nil)
            }
        }
    }

    /// Saves the markers of each move begun here and not marked yet: the target zone, the claim
    /// in the zone moved (saved only if no claim is there), the arrival in the target; then the
    /// move is learned. A claim another device made first with another target stands: this
    /// device's move ends, learning that one, and the call says so.
    private func mark(_ begun: [(zone: ZoneID, target: String, marked: Bool)]) async throws(SyncError) {
        for (zone, target, marked) in begun where !marked {
            let (claim, arrival) = ZoneMoves.markers(moving: zone, into: target)
            try await context.cloud.saveZones([arrival.id.zoneID])
            let claimed = try await context.cloud.modify(ModifyRequest(recordsToSave: [claim]), in: .private)
            switch RecoveryPolicy.answer(claimed.savedRecords[claim.id], for: claim.id) {
            case .done:
                break
            case .conflict(let error):
                // A claim is there: this device's, saved by a try whose reply was lost, or
                // another device's.
                guard let server = error.serverRecord, let (_, earlier) = ZoneMoves.move(in: server) else { throw .cloud(error) }
                if earlier != target {
                    try context.transaction { store in
                        try ZoneMoves(context: context).learn(zone, movedInto: earlier, scope: .private, in: store)
                        try store.setState(SyncStateKeys.zoneMoveBegun(zone), earlier)
                        try store.setState(SyncStateKeys.zoneMoveMarked(zone), "1")
                    }
                    throw .cloud(CloudError(.serverRecordChanged, "zone '\(zone.zoneName)' is moving into '\(earlier)' already, as another device began"))
                }
            case let answer:
                throw .cloud(answer.failure!)
            }
            // Saved over a marker an earlier try left: it says the same.
            let arrived = try await context.cloud.modify(ModifyRequest(recordsToSave: [arrival], savePolicy: .allKeys), in: .private)
            if let error = RecoveryPolicy.answer(arrived.savedRecords[arrival.id], for: arrival.id).failure { throw .cloud(error) }
            try context.transaction { store in
                try ZoneMoves(context: context).learn(zone, movedInto: target, scope: .private, in: store)
                try store.setState(SyncStateKeys.zoneMoveMarked(zone), "1")
            }
        }
    }

    /// Before the push: the markers of each move begun here and not marked yet, then the records
    /// each marked move has left to queue.
    func prepareForPush() async throws(SyncError) {
        // Read once: no move begun here, the common case, costs one read a pass.
        let begun = try begunMoves()
        guard !begun.isEmpty else { return }
        try await mark(begun)
        try await queueRecordsToMove(in: begun.map(\.zone))
    }

    /// Ends a move this device began once its zone holds no copy of a record this device holds.
    func finishIfDone(_ zone: ZoneID) throws(SyncError) {
        let finished = try context.transaction { store -> ZoneID? in
            guard try store.state(SyncStateKeys.zoneMoveMarked(zone)) != nil, try copiesLeft(in: zone, store: store).isEmpty else { return nil }
            try store.setState(SyncStateKeys.zoneMoveBegun(zone), nil)
            try store.setState(SyncStateKeys.zoneMoveMarked(zone), nil)
            return context.routes.resolve(zone)
        }
        if let finished { context.events.publish(.zoneMoved(zone, into: finished)) }
    }

    /// A copy a move left in the zone moved out of, of a model stored here.
    struct CopyLeft {
        var id: RecordID
        var type: any SyncModel.Type
        var owner: String
        /// The copy's parent record, if it has one.
        var parent: String?
        /// Whether the record's copy in the zone it moved into is in the cloud (known here).
        var isMoved: Bool
    }

    /// The copies this device knows in `zone`, of models it stores: what moving the zone has left
    /// to do here.
    func copiesLeft(in zone: ZoneID, store: any StoredModels & ServerVersions) throws -> [CopyLeft] {
        let home = context.routes.resolve(zone)
        return try store.serverRecordIDs(inZone: zone).sorted { $0.recordName < $1.recordName }.compactMap { id in
            guard let copy = try store.serverRecord(id), let type = context.registry.type(forRecordType: copy.recordType),
                let stored = try store.parentAndOwner(type: type, recordName: id.recordName)
            else { return nil }
            let moved = try store.serverRecord(RecordID(recordName: id.recordName, zoneID: home)) != nil
            return CopyLeft(id: id, type: type, owner: stored.owner, parent: copy.parentRecordName, isMoved: moved)
        }
    }
}
