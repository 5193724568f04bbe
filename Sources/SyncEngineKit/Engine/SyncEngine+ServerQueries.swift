import SyncCore
import SyncPorts

extension SyncEngine {
    /// One page of a query the cloud answers (`ServerQuery`), from its first page or after
    /// `cursor`: the device holds the page, never the rest. A `[public]` model is asked of the
    /// public database; any other of the user's zone its records live in. A page fetches
    /// every field but asset contents. A page may hold fewer models than the query's limit, and
    /// still have a next: the cloud chooses a page's size, and the records it answers beyond a
    /// distance condition's radius (CloudKit's location index is coarser than 10 km) are left out.
    /// A governed catalog's query answers its listed records only.
    ///
    /// With `keeping`, the page's models are written to the store in one transaction, as the
    /// cloud's versions (a record this device changed is merged, as a pull merges it), where the
    /// app reads and observes them like any other: a screen shows its last answer offline. The
    /// type's kept records beyond `keeping`'s count or age are then evicted, but never one this
    /// page brought or one with a change still to go up. A catalog or zone this device mirrors
    /// (`SyncConfiguration.mirroredCatalogs`, `mirroredZones`) is in the store whole already: its
    /// pages keep nothing more. Without `keeping`, nothing is written.
    ///
    /// Throws a `ServerQueryError` whose `recovery` says what to do: ask for the same page again
    /// (after a wait, or when the network is back), start the query over (the cloud no longer
    /// takes the cursor), or report it (a query the deployed schema cannot answer). A page that
    /// failed kept nothing.
    public nonisolated func query<Model: ServerQueryable>(
        _ query: ServerQuery<Model>, after cursor: ServerQueryCursor? = nil, keeping retention: ResultRetention? = nil
    ) async throws(ServerQueryError) -> ServerQueryPage<Model> {
        do {
            return try await ServerQueryPhase(context: context).page(of: query, after: cursor, keeping: retention)
        } catch {
            throw ServerQueryError(error, recovery: RecoveryPolicy.queryRecovery(for: error, continuing: cursor != nil))
        }
    }
}

extension SyncEngine {
    /// The record of `Model` named `recordName`, read from the cloud (a `[public]` model's from
    /// the public database, any other's from the user's zone it lives in), or nil when the cloud
    /// has none: how a device reads a record of a zone it does not mirror
    /// (`SyncConfiguration.mirroredZones`), or of a catalog it does not. With `keeping`, the
    /// record is written to the store as a server query's page is, under the same rule; a record
    /// of a zone or catalog this device mirrors is in the store already, and nothing more is kept.
    /// A record this version of the app cannot read throws `incompatibleVersion`.
    public nonisolated func record<Model: ServerQueryable>(
        _ type: Model.Type, named recordName: String, keeping retention: ResultRetention? = nil
    ) async throws(SyncError) -> Model? {
        try await ServerQueryPhase(context: context).record(type, named: recordName, keeping: retention)
    }
}
