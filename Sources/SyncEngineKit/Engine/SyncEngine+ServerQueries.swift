import SyncCore
import SyncPorts

extension SyncEngine {
    /// One page of a query the cloud answers over a `[public]` model (`ServerQuery`), from its
    /// first page or after `cursor`: the device holds the page, never the rest. A page fetches
    /// every field but asset contents. A page may hold fewer models than the query's limit, and
    /// still have a next: the cloud chooses a page's size, and the records it answers beyond a
    /// distance condition's radius (CloudKit's location index is coarser than 10 km) are left out.
    /// A governed catalog's query answers its listed records only.
    ///
    /// With `keeping`, the page's models are written to the store in one transaction, as the
    /// cloud's versions (a record this device changed is merged, as a pull merges it), where the
    /// app reads and observes them like any other: a screen shows its last answer offline. The
    /// type's kept records beyond `keeping`'s count or age are then evicted, but never one this
    /// page brought or one with a change still to go up. A catalog this device mirrors
    /// (`SyncConfiguration.mirroredCatalogs`) is in the store whole already: its pages keep
    /// nothing more. Without `keeping`, nothing is written.
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
