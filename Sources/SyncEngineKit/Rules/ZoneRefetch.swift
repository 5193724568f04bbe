import SyncCore
import SyncPorts

/// A zone fetched from scratch lists what the cloud has, not what it deleted: the server that
/// answers `changeTokenExpired` no longer keeps the zone's history (the SDK header: "the client
/// must re-sync from scratch"). So such a fetch is a listing: each page's records are noted listed
/// (`ServerVersions.markListed`), and when its last page comes, a record the cloud had here before
/// and no page listed is gone from the cloud. Kept in the store, a listing outlives a pass cut
/// off half way: the fetch goes on from its last page's token, and reconciles only at its end.
enum ZoneRefetch {
    /// The store's topics a listing reads and writes.
    typealias Topics = ServerVersions & EngineState & StoreHistory

    /// The listing under way for the zone, if any.
    static func listing(of zone: ZoneID, scope: DatabaseScope, in store: any Topics) throws -> Int64? {
        try store.state(SyncStateKeys.zoneRefetch(zone, scope)).flatMap { Int64($0) }
    }

    /// Starts a listing of the zone, fetched from scratch; nil when nothing of it is known here
    /// (a first fetch: there is nothing to reconcile, and nothing is noted). Called in the
    /// transaction that keeps the listing's first page and token, never before: a listing kept
    /// beside a token of an earlier fetch would end with that fetch's few changes and take
    /// everything else for gone.
    static func begin(_ zone: ZoneID, scope: DatabaseScope, in store: any Topics) throws -> Int64? {
        guard try !store.serverRecordIDs(inZone: zone).isEmpty else {
            try forget(zone, scope: scope, in: store)
            return nil
        }
        let listing = try store.newListing(inZone: zone)
        try store.setState(SyncStateKeys.zoneRefetch(zone, scope), String(listing))
        return listing
    }

    /// Notes the records a page listed: those it brought, and those it could not deliver.
    static func noteListed(_ page: ZoneChanges, in zone: ZoneID, listing: Int64, in store: any Topics) throws {
        let names = page.changedRecords.map(\.id.recordName) + page.unreadableRecords.keys.map(\.recordName)
        try store.markListed(names, in: zone, listing: listing)
    }

    /// Ends the listing, with its last page: returns the records it did not list and that the app
    /// has no change of, gone from the cloud, for the pull to remove as deletions. One the app
    /// changed goes up again instead, as a new record (its server version is forgotten), never
    /// dropped: nothing says the cloud deleted it rather than lost it, and the app's change is
    /// the newest word on it.
    static func end(_ zone: ZoneID, scope: DatabaseScope, listing: Int64, in store: any Topics) throws -> [(id: RecordID, recordType: String)] {
        try store.setState(SyncStateKeys.zoneRefetch(zone, scope), nil)
        var gone: [(id: RecordID, recordType: String)] = []
        for (id, recordType) in try store.serverRecordsNotListed(inZone: zone, listing: listing) {
            if try store.hasLocalChange(recordType: recordType, recordName: id.recordName) {
                try store.removeServerRecord(id)
            } else {
                gone.append((id, recordType))
            }
        }
        return gone
    }

    /// Forgets a listing under way: the zone's server state is forgotten with it.
    static func forget(_ zone: ZoneID, scope: DatabaseScope, in store: any Topics) throws {
        try store.setState(SyncStateKeys.zoneRefetch(zone, scope), nil)
    }
}
