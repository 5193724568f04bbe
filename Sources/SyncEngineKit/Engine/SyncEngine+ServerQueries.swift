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
            return try await page(of: query, after: cursor, keeping: retention)
        } catch {
            throw ServerQueryError(error, recovery: RecoveryPolicy.queryRecovery(for: error, continuing: cursor != nil))
        }
    }

    private nonisolated func page<Model: ServerQueryable>(
        of query: ServerQuery<Model>, after cursor: ServerQueryCursor?, keeping retention: ResultRetention?
    ) async throws(SyncError) -> ServerQueryPage<Model> {
        if let cursor, cursor.recordType != Model.recordType {
            throw .cloud(CloudError(.invalidArguments, "a cursor of \(cursor.recordType) continues no query of \(Model.recordType)"))
        }
        var conditions = query.conditions
        if Model.self is any PublicationGovernedModel.Type {
            // A reader sees a governed catalog's listed records only: the cloud is asked for
            // those (the field is QUERYABLE in the `.ckdb` export), so a page never shrinks
            // by the delisted ones the app would otherwise filter out.
            conditions.append(FieldCondition(RecordFieldNames.publicationState, .equal, [.string(PublicationState.listed.rawValue)]))
        }
        let request = RecordQuery(
            recordType: Model.recordType, conditions: conditions, sorts: query.sorts, desiredKeys: Model.serverQueryKeys,
            resultsLimit: query.pageSize, cursor: cursor?.cursor)
        let page = try await context.cloud.query(request, in: .public, bounded: false)
        var models: [Model] = []
        var readable: [SyncRecord] = []
        var unreadable = page.unreadableRecords.reduce(into: [String: String]()) { $0[$1.key.recordName] = "\($1.value)" }
        for record in page.records where query.conditions.allSatisfy({ $0.holdsExactly(in: record.fields) }) {
            do {
                models.append(try Model(record: record))
                readable.append(record)
            } catch {
                unreadable[record.id.recordName] = "\(error)"
            }
        }
        if let retention, !context.registry.isMirrored(Model.self) {
            let copies = PublicCopies(context: context)
            try context.transaction { store in
                try copies.keep(readable, as: Model.self, retention: retention, now: context.clock.now, in: store)
            }
        }
        return ServerQueryPage(models: models, next: page.cursor.map { ServerQueryCursor(recordType: Model.recordType, cursor: $0) }, unreadable: unreadable)
    }
}
