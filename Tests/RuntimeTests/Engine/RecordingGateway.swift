import Foundation
@testable import SyncRuntime

/// A gateway that records every modify request on its way to the real one, so tests can see
/// what the engine sent, in which order, in which database.
final class RecordingGateway: CloudGateway, @unchecked Sendable {
    let wrapped: LocalCloudDevice
    private let log = Locked<[(scope: DatabaseScope, request: ModifyRequest)]>([])

    init(_ wrapped: LocalCloudDevice) {
        self.wrapped = wrapped
    }

    var modifies: [(scope: DatabaseScope, request: ModifyRequest)] { log.withLock { $0 } }

    func accountStatus() async throws(CloudError) -> AccountStatus { try await wrapped.accountStatus() }
    func userRecordName() async throws(CloudError) -> String { try await wrapped.userRecordName() }
    func saveZones(_ zones: [ZoneID]) async throws(CloudError) { try await wrapped.saveZones(zones) }
    func deleteZones(_ zones: [ZoneID]) async throws(CloudError) { try await wrapped.deleteZones(zones) }

    func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(CloudError) -> ModifyResult {
        log.withLock { $0.append((scope, request)) }
        return try await wrapped.modify(request, in: scope)
    }

    func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<SyncRecord, CloudError>] {
        try await wrapped.fetchRecords(ids, desiredKeys: desiredKeys, in: scope)
    }

    func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(CloudError) -> DatabaseChanges {
        try await wrapped.fetchDatabaseChanges(in: scope, since: token)
    }

    func fetchZoneChanges(
        in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?
    ) async throws(CloudError) -> ZoneChanges {
        try await wrapped.fetchZoneChanges(in: zone, scope: scope, since: token, resultsLimit: resultsLimit, desiredKeys: desiredKeys)
    }

    func query(_ query: RecordQuery, in scope: DatabaseScope) async throws(CloudError) -> QueryPage { try await wrapped.query(query, in: scope) }

    func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<ShareRecord, CloudError>] {
        try await wrapped.fetchShares(ids, in: scope)
    }

    func acceptShare(_ metadata: ShareMetadata) async throws(CloudError) { try await wrapped.acceptShare(metadata) }
    func saveSubscription(_ subscription: CloudSubscription) async throws(CloudError) { try await wrapped.saveSubscription(subscription) }
    func notifications() -> AsyncStream<CloudNotification> { wrapped.notifications() }
}
