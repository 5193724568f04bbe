/// Where records are routed: the app's sync zone, and the zones whose records moved into another
/// zone of the same owner at run time (`SyncEngine.moveZone(_:into:)`). A model's schema names the
/// zone its records start in; once that zone moved, they live in the zone it moved into, on every
/// device that learned the move.
///
/// A zone moves once: a zone moved away is never a target again, so the moves never form a cycle
/// and a device may learn them in any order.
package struct ZoneRoutes: Sendable, Hashable {
    /// The zone a model without a zone of its own starts in (`SyncConfiguration.syncZoneName`).
    package var syncZoneName: String
    /// Each zone moved away, with the name of the zone of the same owner it moved into.
    package var moves: [ZoneID: String]

    package init(syncZoneName: String = SyncConstants.defaultSyncZoneName, moves: [ZoneID: String] = [:]) {
        self.syncZoneName = syncZoneName
        self.moves = moves
    }

    /// The zone a record that would live in `zone` lives in now: the last zone of its moves.
    package func resolve(_ zone: ZoneID) -> ZoneID {
        // No zone moved, the common case: every record's routing passes here.
        guard !moves.isEmpty else { return zone }
        var current = zone
        // Bounded by the number of moves: a chain longer than that would be a cycle.
        for _ in 0...moves.count {
            guard let next = moves[current] else { return current }
            current = ZoneID(zoneName: next, ownerName: current.ownerName)
        }
        return current
    }

    /// The zone a record of a model with these scopes and zone, owned by `ownerName`, lives in:
    /// the one routing rule (`ZoneID.routing`), then the moves.
    package func zone(scopes: Set<DatabaseScope>, zoneName: String?, ownerName: String) -> ZoneID {
        resolve(ZoneID.routing(scopes: scopes, zoneName: zoneName, ownerName: ownerName, syncZoneName: syncZoneName))
    }

    /// Whether `zone` moved away: its records live in another zone now.
    package func hasMoved(_ zone: ZoneID) -> Bool {
        !moves.isEmpty && moves[zone] != nil
    }
}
