import SyncCore
import SyncPorts

/// One page of a server query (`SyncEngine.query(_:after:keeping:)`): asked of the cloud, read
/// into models, and, when the app keeps results of a `[public]` model, written to the store as the
/// cloud's versions in one transaction (``PublicCopies``). A private model's query asks the
/// user's zone its records live in, which this device mirrors whole: nothing more is kept.
/// Outside any pass: the app asks for a page when a screen needs it.
struct ServerQueryPhase {
    let context: SyncContext

    /// The page of `query` after `cursor` (its first without), kept by `retention` when given
    /// (nothing is kept for a catalog this device mirrors whole).
    func page<Model: ServerQueryable>(
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
        let isPublic = Model.syncScopes.contains(.public)
        let request = RecordQuery(
            recordType: Model.recordType, in: isPublic ? nil : context.zone(of: Model.self, ownerName: SyncConstants.currentUserOwnerName),
            conditions: conditions, sorts: query.sorts, desiredKeys: Model.serverQueryKeys, resultsLimit: query.pageSize, cursor: cursor?.cursor)
        let page = try await context.cloud.query(request, in: isPublic ? .public : .private, bounded: false)
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
        if let retention, isPublic, !context.registry.isMirrored(Model.self) {
            let copies = PublicCopies(context: context)
            try context.transaction { store in
                try copies.keep(readable, as: Model.self, retention: retention, now: context.clock.now, in: store)
            }
        }
        return ServerQueryPage(models: models, next: page.cursor.map { ServerQueryCursor(recordType: Model.recordType, cursor: $0) }, unreadable: unreadable)
    }
}
