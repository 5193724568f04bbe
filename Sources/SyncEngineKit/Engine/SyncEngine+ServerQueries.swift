import SyncCore
import SyncPorts

/// Where a server query's page ended: hand it to the next call for the page after it. Opaque;
/// CloudKit may expire it (the call then fails, and the query starts again from its first page).
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

extension SyncEngine {
    /// One page of a query the cloud answers over a `[public]` model (`ServerQuery`), from its
    /// first page or after `cursor`: the device holds the page, never the rest, and nothing is
    /// written to the store. A page fetches every field but asset contents.
    ///
    /// Throws `SyncError.cloud` when the cloud fails the request: a lost network or a busy cloud
    /// (`isRetryable`: ask again, after `retryAfter` when it says), a cursor the cloud no longer
    /// takes or a query its deployed schema cannot answer (`invalidArguments`: start again from the
    /// first page, or deploy the schema's indexes).
    public nonisolated func query<Model: ServerQueryable>(_ query: ServerQuery<Model>, after cursor: ServerQueryCursor? = nil) async throws(SyncError) -> ServerQueryPage<Model> {
        if let cursor, cursor.recordType != Model.recordType {
            throw .cloud(CloudError(.invalidArguments, "a cursor of \(cursor.recordType) continues no query of \(Model.recordType)"))
        }
        let request = RecordQuery(
            recordType: Model.recordType, conditions: query.conditions, sorts: query.sorts, desiredKeys: Model.serverQueryKeys,
            resultsLimit: query.pageSize, cursor: cursor?.cursor)
        let page = try await context.cloud.query(request, in: .public, bounded: false)
        var models: [Model] = []
        var unreadable = page.unreadableRecords.reduce(into: [String: String]()) { $0[$1.key.recordName] = "\($1.value)" }
        for record in page.records {
            do {
                models.append(try Model(record: record))
            } catch {
                unreadable[record.id.recordName] = "\(error)"
            }
        }
        return ServerQueryPage(models: models, next: page.cursor.map { ServerQueryCursor(recordType: Model.recordType, cursor: $0) }, unreadable: unreadable)
    }
}
