import Foundation
import SyncCore
import SyncPorts

/// A zone's move read from its marker in the cloud, for a push whose change met a sign of a move
/// this device has not heard of (`ZoneMovePhase+CopiesLeft.swift`): a copy another device sealed,
/// or deleted, before this device's pull came to the marker.
struct ZoneMoveLookup {
    let context: SyncContext

    /// Before a push's conflicts and missing records are settled: a save into one of the user's
    /// zones that met a newer version there, or a save or deletion that found the record gone, in
    /// a zone not known here to have moved, may have met a move's seal or its deletion. The
    /// zones' markers are read (one request), and a move found is learned, so the change goes
    /// where the record moved (the push's recovery) instead of over the sealed copy, which the
    /// move then deletes. A failed read leaves it to the next pull.
    func learnMoves(behind result: ModifyResult, scope: DatabaseScope) async throws(SyncError) {
        guard scope == .private else { return }
        let routes = context.routes
        var zones: Set<ZoneID> = []
        for (id, error) in result.itemErrors where id.zoneID.ownerName == SyncConstants.currentUserOwnerName && !routes.hasMoved(id.zoneID) {
            let answer = RecoveryPolicy.answer(to: error)
            if answer.isConflict || answer.isGone { zones.insert(id.zoneID) }
        }
        guard !zones.isEmpty else { return }
        let markers = zones.sorted { $0.description < $1.description }.map { RecordID(recordName: ZoneMoves.markerName, zoneID: $0) }
        guard let found = try? await context.cloud.fetchRecords(markers, desiredKeys: nil, in: .private) else { return }
        let moves = markers.compactMap { try? found[$0]?.get() }
        guard !moves.isEmpty else { return }
        try context.transaction { store in try ZoneMoves(context: context).learn(moves, scope: .private, in: store) }
    }
}
