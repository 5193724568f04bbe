import SyncCore
import SyncPorts

/// One page of a server query (`SyncEngine.query(_:after:keeping:)`), or one record read by name
/// (`SyncEngine.record(_:named:keeping:)`): asked of the cloud, read into models, and, when the
/// app keeps results, written to the store as the cloud's versions in one transaction
/// (``PublicCopies``). A `[public]` model is read in the public database; any other in the user's
/// zone its records live in. What this device mirrors whole (a catalog, a zone) is in the store
/// already: nothing more is kept. Outside any pass: the app asks when a screen needs it.
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
        let zone = context.ownZone(of: Model.self)
        let request = RecordQuery(
            recordType: Model.recordType, in: zone.scope == .public ? nil : zone,
            conditions: conditions, sorts: query.sorts, desiredKeys: Model.serverQueryKeys, resultsLimit: query.pageSize, cursor: cursor?.cursor)
        let page = try await context.cloud.query(request, in: zone.scope, bounded: false)
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
        try keep(readable, as: Model.self, retention: retention)
        return ServerQueryPage(models: models, next: page.cursor.map { ServerQueryCursor(recordType: Model.recordType, cursor: $0) }, unreadable: unreadable)
    }

    /// The record of `Model` named `recordName` as the cloud has it, or nil when it has none; kept
    /// by `retention` when given.
    func record<Model: ServerQueryable>(_ type: Model.Type, named recordName: String, keeping retention: ResultRetention?) async throws(SyncError) -> Model? {
        let id = RecordID(recordName: recordName, zoneID: context.ownZone(of: type))
        let found = try await context.cloud.fetchRecords([id], desiredKeys: Model.serverQueryKeys, in: id.scope)
        switch RecoveryPolicy.answer(found[id], for: id) {
        case .done(let record):
            let model: Model
            do {
                model = try Model(record: record)
            } catch {
                // What a pull sets aside as unreadable: most likely written by a newer version.
                throw .cloud(CloudError(.incompatibleVersion, "record \(recordName) cannot be read as \(Model.recordType): \(error)"))
            }
            try keep([record], as: type, retention: retention)
            return model
        case .gone:
            return nil
        case .conflict(let error), .notAllowed(let error), .zoneGone(let error), .failed(let error):
            throw .cloud(error)
        }
    }

    /// Writes `records` to the store as the app asked (`retention`), unless this device mirrors
    /// them whole already: a catalog it mirrors, a zone of the user's it mirrors.
    private func keep(_ records: [SyncRecord], as type: any SyncModel.Type, retention: ResultRetention?) throws(SyncError) {
        let zone = context.ownZone(of: type)
        let mirrored = zone.scope == .public ? context.registry.isMirrored(type) : context.mirrors(zone, in: .private)
        guard let retention, !mirrored else { return }
        let copies = PublicCopies(context: context)
        try context.transaction { store in
            try copies.keep(records, as: type, from: zone, retention: retention, now: context.clock.now, in: store)
        }
    }
}
