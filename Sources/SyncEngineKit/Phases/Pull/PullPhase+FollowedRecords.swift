import Foundation
import SyncCore
import SyncPorts

// The public records the app follows by name (`SyncConfiguration.followedRecords`): read by name
// when due, without mirroring their types.
extension PullPhase {
    /// Each followed record due (``CatalogRefresh/isDue(_:now:maximumAge:in:)``) is read by name
    /// (`readByName`), one request per type with the fields a catalog query fetches, and applied
    /// as a pulled version in one transaction with its read dated. One the cloud has not is
    /// forgotten here (unless the app changed it: that change waits to go up); one whose read
    /// failed otherwise stays as it was, and due, for the next pass.
    func pullFollowedRecords(state: inout PullState) async throws(SyncError) {
        let followed = context.registry.followedRecords.filter { options.catalogTypes?.contains($0.recordType) ?? true }
        guard !followed.isEmpty else { return }
        let began = context.clock.now
        let due = try context.transaction { store in
            try followed.filter { try CatalogRefresh.isDue($0.refresh, now: began, maximumAge: $0.maximumAge, in: store) }
                .map { (record: $0, requests: try CatalogRefresh.requests(of: $0.refresh, in: store)) }
        }
        for group in Dictionary(grouping: due, by: \.record.recordType).values {
            _ = try await readByName(group.map(\.record.recordName), of: group[0].record.type, state: &state) { store, found in
                for (followed, requests) in group {
                    let id = RecordID(recordName: followed.recordName, zoneID: SyncConstants.publicZone)
                    switch RecoveryPolicy.answer(found[id], for: id) {
                    case .done, .gone: try CatalogRefresh.finish(followed.refresh, began: began, answering: requests, in: store)
                    case .conflict, .notAllowed, .zoneGone, .failed: continue
                    }
                }
            }
        }
    }
}
