import Foundation
import SyncCore
import SyncPorts

// The public catalogs: each due type by a full query, a page a transaction, then what no page
// brought and the cloud no longer has.
extension PullPhase {
    /// Each catalog type due by a full query of the desired keys (asset contents never among
    /// them), each page applied in one transaction with a note of the names it brought. Then the
    /// local copies no page brought and the cloud no longer has are deleted, a batch at a time,
    /// but only after the query reached its end: a failed query says nothing about what exists. The last batch's
    /// transaction also dates the refresh and settles the requests it answered
    /// (``CatalogRefresh``). A record already known at its version is not written again, so an
    /// unchanged catalog costs its pages of requests and no record writes.
    func pullCatalogs(state: inout PullState) async throws(SyncError) {
        let catalogs = context.registry.catalogTypes
        guard !catalogs.isEmpty else { return }
        let dueTypes = try context.transaction { store in
            try CatalogRefresh.due(context.registry.catalogRecordTypes, now: context.clock.now, maximumAge: context.configuration.catalogMaximumAge, in: store)
        }
        let due = catalogs.filter { dueTypes.contains($0.recordType) && options.catalogTypes?.contains($0.recordType) ?? true }
        guard !due.isEmpty else { return }
        context.events.publish(.pullStarted(.public))
        for type in due {
            let began = context.clock.now
            let requests = try context.transaction { store in
                try store.clearCatalogReceived(recordType: type.recordType)
                return try CatalogRefresh.requests(of: .catalog(type.recordType), in: store)
            }
            var query = RecordQuery(recordType: type.recordType, desiredKeys: type.catalogDesiredKeys)
            var count = 0
            repeat {
                let page = try await context.cloud.query(query, in: .public)
                try await account.verify()
                try applyingPulled(page.records, state: &state) { store, state, unreadable in
                    try state.localChanges.refresh(in: store)
                    for record in page.records where !unreadable.contains(record.id) {
                        try PulledPageLanding(context: context).apply(record, scope: .public, state: &state, in: store)
                    }
                    // A record the page could not deliver exists: its local copy stays.
                    try state.noteUnreadable(page.unreadableRecords, at: context.clock.now, in: store)
                    try store.noteCatalogReceived(
                        recordType: type.recordType, recordNames: page.records.map(\.id.recordName) + page.unreadableRecords.keys.map(\.recordName))
                }
                count += page.records.count
                query.cursor = page.cursor
            } while query.cursor != nil
            let deletions = try await removeUnreceived(type, state: &state) { store in
                try store.clearCatalogReceived(recordType: type.recordType)
                try CatalogRefresh.finish(.catalog(type.recordType), began: began, answering: requests, in: store)
            }
            context.events.publish(.pullProgress(scope: .public, zone: SyncConstants.publicZone, records: count, deletions: deletions))
        }
        context.events.publish(.pullCompleted(.public))
    }

    /// How many local copies of a catalog one transaction of its reconciliation reads.
    static let reconciliationBatch = 500

    /// Deletes the local copies of a catalog type its refresh did not receive and the cloud no
    /// longer has (a model the app changed here stays, to be pushed), a batch per transaction;
    /// `finish` runs in the last one. Returns how many were deleted.
    ///
    /// Not receiving a record does not prove it gone: a query's cursor is an offset (Apple,
    /// `CKQueryOperation.init(cursor:)`: "it stores a relative offset into the results list"),
    /// so a record removed before it between two pages makes the next page pass over one that
    /// exists. Each copy not received is asked for by name first: one the cloud still has is
    /// applied as received, and only one it answers `unknownItem` for goes.
    func removeUnreceived(_ type: any PublicCatalogModel.Type, state: inout PullState, finish: (any Topics) throws -> Void) async throws(SyncError) -> Int {
        var after: String?
        var deleted = 0
        var done = false
        while !done {
            let names = try context.transaction { store in
                try store.catalogRecordsNotReceived(type: type, after: after, limit: Self.reconciliationBatch)
            }
            after = names.last
            done = names.count < Self.reconciliationBatch
            deleted += try await readByName(names, of: type, state: &state) { store, _ in
                if done { try finish(store) }
            }
        }
        return deleted
    }

    /// Public records of `type` asked for by name, applied as pulled in one transaction: one the
    /// cloud answers `unknownItem` for is forgotten here, unless the app changed it (that change
    /// waits to go up); one whose read failed otherwise is left as it was. `then` runs in the same
    /// transaction, with each name's answer. Returns how many copies were forgotten.
    func readByName(
        _ names: [String], of type: any PublicCatalogModel.Type, state: inout PullState,
        then: (any Topics, [RecordID: Result<SyncRecord, CloudError>]) throws -> Void
    ) async throws(SyncError) -> Int {
        let ids = names.map { RecordID(recordName: $0, zoneID: SyncConstants.publicZone) }
        let found = ids.isEmpty ? [:] : try await context.cloud.fetchRecords(ids, desiredKeys: type.catalogDesiredKeys, in: .public)
        try await account.verify()
        let records = found.values.compactMap { try? $0.get() }
        var forgotten = 0
        try applyingPulled(records, state: &state) { store, state, unreadable in
            // Counted afresh when a transaction that met an unreadable record runs again.
            forgotten = 0
            try state.localChanges.refresh(in: store)
            for record in records where !unreadable.contains(record.id) {
                try PulledPageLanding(context: context).apply(record, scope: .public, state: &state, in: store)
            }
            for id in ids where !state.localChanges.contains(type.recordType, id.recordName) {
                // Gone only when the cloud says so: a read that failed otherwise keeps it.
                guard RecoveryPolicy.answer(found[id], for: id).isGone else { continue }
                try PublicCopies.forget(type: type, recordName: id.recordName, store: store)
                forgotten += 1
            }
            try then(store, found)
        }
        return forgotten
    }
}
