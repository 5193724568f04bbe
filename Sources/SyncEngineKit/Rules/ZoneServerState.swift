import SyncCore
import SyncPorts

/// What the server told of a zone, forgotten when the zone goes (deleted, reset, a share left or
/// ended): its change token, its unreadable records, its records' server versions and its
/// shares. The zone's models are another matter, each caller's own.
enum ZoneServerState {
    /// The store topics forgetting a zone writes.
    typealias Topics = EngineState & KnownShares & ServerVersions & StoreHistory

    static func forget(_ zone: ZoneID, scope: DatabaseScope, in store: any Topics) throws {
        try stopFollowing(zone, scope: scope, in: store)
        for id in try store.serverRecordIDs(inZone: zone) { try store.removeServerRecord(id) }
        try store.forgetShares(inZone: zone)
    }

    /// Forgets where this device stood in the zone's changes: its token and the keys it was
    /// fetched with, its pull marks, a
    /// refetch under way and its unreadable records. The zone's records' server versions stay.
    static func stopFollowing(_ zone: ZoneID, scope: DatabaseScope, in store: any EngineState & ServerVersions & StoreHistory) throws {
        try store.setState(SyncStateKeys.zoneToken(zone, scope), nil)
        try store.setState(SyncStateKeys.zonePulled(zone, scope), nil)
        try store.setState(SyncStateKeys.zoneKeys(zone, scope), nil)
        try store.setState(SyncStateKeys.zoneUnfetched(zone, scope), nil)
        try ZoneRefetch.forget(zone, scope: scope, in: store)
        try UnreadableRecords.forget(zone: zone, in: store)
    }
}
