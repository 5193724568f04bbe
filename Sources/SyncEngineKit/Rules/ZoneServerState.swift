import SyncCore
import SyncPorts

/// What the server told of a zone, forgotten when the zone goes (deleted, reset, a share left or
/// ended): its change token, its unreadable records, its records' server versions and its
/// shares. The zone's models are another matter, each caller's own.
enum ZoneServerState {
    /// The store topics forgetting a zone writes.
    typealias Topics = EngineState & KnownShares & ServerVersions & StoreHistory

    static func forget(_ zone: ZoneID, scope: DatabaseScope, in store: any Topics) throws {
        try store.setState(SyncStateKeys.zoneToken(zone, scope), nil)
        try store.setState(SyncStateKeys.zonePulled(zone, scope), nil)
        try store.setState(SyncStateKeys.zoneUnfetched(zone, scope), nil)
        try ZoneRefetch.forget(zone, scope: scope, in: store)
        try UnreadableRecords.forget(zone: zone, in: store)
        for id in try store.serverRecordIDs(inZone: zone) { try store.removeServerRecord(id) }
        try store.forgetShares(inZone: zone)
    }
}
