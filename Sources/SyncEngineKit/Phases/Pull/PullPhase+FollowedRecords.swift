import Foundation
import SyncCore
import SyncPorts

// The public records the app follows by name (`SyncConfiguration.followedRecords`): read by name
// when due, without mirroring their types.
extension PullPhase {
    /// Each followed record due (``CatalogRefresh/isDue(_:now:maximumAge:in:)``) is read by name,
    /// one request per type with the fields a catalog query fetches, and applied as a pulled
    /// version in one transaction with its read dated. One the cloud has not is forgotten here
    /// (unless the app changed it: that change waits to go up); one whose read failed otherwise
    /// stays as it was, and due, for the next pass.
    func pullFollowedRecords(state: inout PullState) async throws(SyncError) {
        let followed = context.registry.followedRecords.filter { options.catalogTypes?.contains($0.recordType) ?? true }
        guard !followed.isEmpty else { return }
        let began = context.clock.now
        let due = try context.transaction { store in
            try followed.filter { try CatalogRefresh.isDue($0.refresh, now: began, maximumAge: $0.maximumAge, in: store) }
                .map { (record: $0, requests: try CatalogRefresh.requests(of: $0.refresh, in: store)) }
        }
        for group in Dictionary(grouping: due, by: \.record.recordType).values {
            let type = group[0].record.type
            let ids = group.map { RecordID(recordName: $0.record.recordName, zoneID: SyncConstants.publicZone) }
            let found = try await context.cloud.fetchRecords(ids, desiredKeys: type.catalogDesiredKeys, in: .public)
            try await account.verify()
            let records = found.values.compactMap { try? $0.get() }
            try applyingPulled(records, state: &state) { store, state, unreadable in
                try state.localChanges.refresh(in: store)
                for record in records where !unreadable.contains(record.id) {
                    try PulledPageLanding(context: context).apply(record, scope: .public, state: &state, in: store)
                }
                for (followed, requests) in group {
                    let id = RecordID(recordName: followed.recordName, zoneID: SyncConstants.publicZone)
                    switch RecoveryPolicy.answer(found[id], for: id) {
                    case .done: break
                    case .gone:
                        if !state.localChanges.contains(followed.recordType, followed.recordName) {
                            try PublicCopies.forget(type: type, recordName: followed.recordName, store: store)
                        }
                    case .conflict, .notAllowed, .zoneGone, .failed: continue
                    }
                    try CatalogRefresh.finish(followed.refresh, began: began, answering: requests, in: store)
                }
            }
        }
    }
}
