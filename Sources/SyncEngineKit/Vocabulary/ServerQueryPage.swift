import SyncCore
import SyncPorts

/// Where a server query's page ended: hand it to the next call for the page after it. Opaque,
/// and short-lived: CloudKit may stop taking it (the call then fails with
/// `ServerQueryError.Recovery.startOver`: run the query again from its first page).
public struct ServerQueryCursor: Sendable, Hashable {
    let recordType: String
    let cursor: QueryCursor
}

/// One page of a server query: its models, in the query's order, and where the next page starts.
public struct ServerQueryPage<Model: ServerQueryable>: Sendable {
    /// The page's records, as models.
    public let models: [Model]
    /// The cursor of the page after this one; nil when this page is the last.
    public let next: ServerQueryCursor?
    /// Records of the page that could not be read as models (an unknown value, a record the
    /// cloud could not deliver), by record name: the page goes on without them.
    public let unreadable: [String: String]
}
