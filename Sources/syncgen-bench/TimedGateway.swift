import Foundation
import Synchronization
import SyncRuntime

/// A gateway that forwards every request and adds up the time spent inside them: the engine's
/// own cost of a pass is the pass's time less the cloud's. Against CloudKit the server's work is
/// not the device's; against LocalCloud it would otherwise hide what the engine costs.
final class TimedGateway: CloudGateway {
    private let base: any CloudGateway
    private let spent = Mutex<Double>(0)

    init(_ base: any CloudGateway) {
        self.base = base
    }

    /// The time spent in requests so far, in seconds.
    var seconds: Double { spent.withLock { $0 } }

    /// A page every query answers, the cloud not asked: the engine's own cost of a page, with no
    /// server work in the same process beside it (LocalCloud's answer over many records leaves
    /// the caches cold for the engine's work after it, which a device's server never does).
    let replayedPage = Mutex<QueryPage?>(nil)

    private func timed<T>(_ request: () async throws(CloudError) -> T) async throws(CloudError) -> T {
        let start = Measurement.now()
        defer { spent.withLock { $0 += Measurement.since(start) } }
        return try await request()
    }

    func accountStatus() async throws(CloudError) -> AccountStatus {
        try await timed { () async throws(CloudError) in try await base.accountStatus() }
    }

    func userRecordName() async throws(CloudError) -> String {
        try await timed { () async throws(CloudError) in try await base.userRecordName() }
    }

    func saveZones(_ zones: [ZoneID]) async throws(CloudError) {
        try await timed { () async throws(CloudError) in try await base.saveZones(zones) }
    }

    func deleteZones(_ zones: [ZoneID]) async throws(CloudError) {
        try await timed { () async throws(CloudError) in try await base.deleteZones(zones) }
    }

    func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(CloudError) -> ModifyResult {
        try await timed { () async throws(CloudError) in try await base.modify(request, in: scope) }
    }

    func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<SyncRecord, CloudError>] {
        try await timed { () async throws(CloudError) in try await base.fetchRecords(ids, desiredKeys: desiredKeys, in: scope) }
    }

    func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(CloudError) -> DatabaseChanges {
        try await timed { () async throws(CloudError) in try await base.fetchDatabaseChanges(in: scope, since: token) }
    }

    func fetchZoneChanges(in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?) async throws(CloudError) -> ZoneChanges {
        try await timed { () async throws(CloudError) in
            try await base.fetchZoneChanges(in: zone, scope: scope, since: token, resultsLimit: resultsLimit, desiredKeys: desiredKeys)
        }
    }

    func query(_ query: RecordQuery, in scope: DatabaseScope) async throws(CloudError) -> QueryPage {
        if let page = replayedPage.withLock({ $0 }) { return page }
        return try await timed { () async throws(CloudError) in try await base.query(query, in: scope) }
    }

    func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<ShareRecord, CloudError>] {
        try await timed { () async throws(CloudError) in try await base.fetchShares(ids, in: scope) }
    }

    func shareMetadata(for url: URL) async throws(CloudError) -> ShareMetadata {
        try await timed { () async throws(CloudError) in try await base.shareMetadata(for: url) }
    }

    func acceptShare(_ metadata: ShareMetadata) async throws(CloudError) {
        try await timed { () async throws(CloudError) in try await base.acceptShare(metadata) }
    }

    func participants(for lookups: [ParticipantLookup]) async throws(CloudError) -> [ParticipantLookup: Result<ShareParticipant, CloudError>] {
        try await timed { () async throws(CloudError) in try await base.participants(for: lookups) }
    }

    func saveSubscription(_ subscription: CloudSubscription) async throws(CloudError) {
        try await timed { () async throws(CloudError) in try await base.saveSubscription(subscription) }
    }

    func subscriptions(in scope: DatabaseScope) async throws(CloudError) -> [SavedSubscription] {
        try await timed { () async throws(CloudError) in try await base.subscriptions(in: scope) }
    }

    func deleteSubscription(id: String, in scope: DatabaseScope) async throws(CloudError) {
        try await timed { () async throws(CloudError) in try await base.deleteSubscription(id: id, in: scope) }
    }

    func notifications() -> AsyncStream<CloudNotification> {
        base.notifications()
    }

    func notification(fromRemotePayload payload: RemoteNotificationPayload) -> CloudNotification? {
        base.notification(fromRemotePayload: payload)
    }

    func accountChanges() -> AsyncStream<Void> {
        base.accountChanges()
    }
}
