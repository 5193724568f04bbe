import SyncCore

/// The zone moves this device has learned (``ZoneMoves``), held in memory for the routing rule
/// (`SyncContext.routes`), which every push and pull reads many times a transaction. The store's
/// state is their durable copy: loaded when the engine starts, written in the transaction that
/// learns a move. A move is learned in memory inside that transaction, before it commits: a
/// rolled-back page leaves memory ahead of the store, which is harmless, because the marker it
/// came from is in the cloud and the next pull learns it again.
final class KnownZoneMoves: Sendable {
    private let moves = Locked<[ZoneID: String]>([:])

    var current: [ZoneID: String] { moves.withLock { $0 } }

    func learn(_ zone: ZoneID, movedInto target: String) {
        moves.withLock { $0[zone] = target }
    }

    func replace(with learned: [ZoneID: String]) {
        moves.withLock { $0 = learned }
    }
}
