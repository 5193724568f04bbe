import Foundation
import SyncCore
import SyncPorts

// Records a page could not deliver or decode: set aside, told, and fetched again.
extension PullPhase {
    /// Runs `body`, which applies pulled `records`, in one transaction. When that fails and
    /// some of the records do not decode as their models (another client wrote a value of another
    /// type: text in an int field, a string that is no URL in a url field), `body` runs again in
    /// a new transaction, the pass's state as it was, told to leave those out; they are set aside
    /// as unreadable in that same transaction (`recordUnreadable` tells the app, and a later
    /// version of one ends it): the zone goes on, and nothing is made up in their place. A
    /// failure of any other cause is thrown as it was. The usual transaction pays nothing for it:
    /// the records are decoded again only after a failure.
    func applyingPulled<T>(
        _ records: [SyncRecord], state: inout PullState, _ body: (any Topics, inout PullState, _ unreadable: Set<RecordID>) throws -> T
    ) throws(SyncError) -> T {
        let before = state
        do {
            return try context.transaction { store in try body(store, &state, []) }
        } catch {
            let unreadable = undecodable(records)
            guard !unreadable.isEmpty else { throw error }
            state = before
            var setAside: [UnreadableRecord] = []
            let result = try context.transaction { store in
                let result = try body(store, &state, Set(unreadable.keys))
                for (id, error) in unreadable.sorted(by: { $0.key.recordName < $1.key.recordName }) {
                    setAside.append(try UnreadableRecords.setAside(id, error, at: context.clock.now, in: store))
                    state.unreadable.insert(id)
                }
                return result
            }
            for record in setAside { context.events.publish(.recordUnreadable(record)) }
            return result
        }
    }

    /// The records whose fields do not decode as their models, each with why.
    func undecodable(_ records: [SyncRecord]) -> [RecordID: CloudError] {
        var found: [RecordID: CloudError] = [:]
        for record in records {
            guard let type = context.registry.type(forRecordType: record.recordType) else { continue }
            found[record.id] = UnreadableRecords.problem(reading: record, as: type)
        }
        return found
    }

    /// Fetches by name the records pages could not deliver and are not set aside, in one request
    /// per database (chunked under the item limit): each that arrives is applied as a pulled
    /// record, one that is gone is forgotten, one that fails again is counted, and set aside once
    /// it failed `UnreadableRecord.fetchesBeforeSetAside` times (`recordUnreadable` tells the
    /// app). A failed request leaves them for the next pass: no zone waits on them.
    func fetchUnreadableAgain(state: inout PullState) async throws(SyncError) {
        let due = try context.transaction { try UnreadableRecords.all(in: $0).filter { !$0.isSetAside } }
        guard !due.isEmpty else { return }
        var setAside: [UnreadableRecord] = []
        for (scope, records) in Dictionary(grouping: due, by: \.id.scope).sorted(by: { $0.key < $1.key }) {
            guard scope == .public || account.isSignedIn else { continue }
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.cloud.fetchRecords(records.map(\.id), desiredKeys: context.registry.keysWithoutAssetContents, in: scope)
            } catch {
                continue
            }
            try await account.verify()
            let versions = records.compactMap { try? found[$0.id]?.get() }
            try applyingPulled(versions, state: &state) { store, state, unreadable in
                try state.localChanges.refresh(in: store)
                for record in records where !unreadable.contains(record.id) {
                    switch RecoveryPolicy.answer(found[record.id], for: record.id) {
                    case .done(let version):
                        try PulledPageLanding(context: context).apply(version, scope: scope, state: &state, in: store)
                    case .gone:
                        try state.forgetUnreadable(record.id, in: store)
                    case .conflict(let error), .notAllowed(let error), .zoneGone(let error), .failed(let error):
                        let failed = try UnreadableRecords.fetchFailed(record, error, in: store)
                        if failed.isSetAside { setAside.append(failed) }
                    }
                }
            }
        }
        for record in setAside { context.events.publish(.recordUnreadable(record)) }
    }
}
