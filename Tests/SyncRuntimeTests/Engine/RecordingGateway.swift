import Foundation
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// A gateway that records every modify request on its way to the real one, so tests can see
/// what the engine sent, in which order, in which database, and lets a test step in: run code
/// before a request goes out, or change what comes back (as CloudKit may answer where
/// LocalCloud never does).
final class RecordingGateway: CloudGateway, @unchecked Sendable {
    let wrapped: any CloudGateway
    private let log = Locked<[(scope: DatabaseScope, request: ModifyRequest)]>([])

    /// Test hooks; each is used as long as it is set.
    struct Hooks {
        /// Runs before every request of the kind goes out.
        var before: [CloudRequestKind: @Sendable () async -> Void] = [:]
        /// Runs after every request of the kind came back (or failed).
        var after: [CloudRequestKind: @Sendable () async -> Void] = [:]
        /// Rewrites a modify request's results.
        var modifyResult: (@Sendable (ModifyRequest, ModifyResult) -> ModifyResult)?
        /// Rewrites a page of zone changes.
        var zoneChanges: (@Sendable (ZoneChanges) -> ZoneChanges)?
        /// The error a read of a zone's changes fails with, if any: a failure of that zone alone.
        var zoneFailure: (@Sendable (ZoneID) -> CloudError?)?
    }

    let hooks = Locked(Hooks())

    init(_ wrapped: any CloudGateway) {
        self.wrapped = wrapped
    }

    var modifies: [(scope: DatabaseScope, request: ModifyRequest)] { log.withLock { $0 } }

    /// The queries sent, in order.
    var queries: [RecordQuery] { queryLog.withLock { $0 } }
    private let queryLog = Locked<[RecordQuery]>([])
    /// The pages the cloud answered the queries with, in order.
    var queryPages: [QueryPage] { pageLog.withLock { $0 } }
    private let pageLog = Locked<[QueryPage]>([])

    /// One request of `kind`, between its hooks.
    private func send<T>(_ kind: CloudRequestKind, _ body: () async throws(CloudError) -> T) async throws(CloudError) -> T {
        if let hook = hooks.withLock({ $0.before[kind] }) { await hook() }
        let result: Result<T, CloudError>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        if let hook = hooks.withLock({ $0.after[kind] }) { await hook() }
        return try result.get()
    }

    func accountStatus() async throws(CloudError) -> AccountStatus {
        try await send(.accountStatus) { () async throws(CloudError) in try await wrapped.accountStatus() }
    }

    func userRecordName() async throws(CloudError) -> String {
        try await send(.userRecordID) { () async throws(CloudError) in try await wrapped.userRecordName() }
    }

    func saveZones(_ zones: [ZoneID]) async throws(CloudError) {
        try await send(.saveZones) { () async throws(CloudError) in try await wrapped.saveZones(zones) }
    }

    func deleteZones(_ zones: [ZoneID]) async throws(CloudError) { try await wrapped.deleteZones(zones) }

    func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(CloudError) -> ModifyResult {
        try await send(.modify) { () async throws(CloudError) in
            log.withLock { $0.append((scope, request)) }
            let result = try await wrapped.modify(request, in: scope)
            return hooks.withLock { $0.modifyResult }.map { $0(request, result) } ?? result
        }
    }

    func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<SyncRecord, CloudError>] {
        try await send(.fetchRecords) { () async throws(CloudError) in try await wrapped.fetchRecords(ids, desiredKeys: desiredKeys, in: scope) }
    }

    func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(CloudError) -> DatabaseChanges {
        try await send(.fetchDatabaseChanges) { () async throws(CloudError) in try await wrapped.fetchDatabaseChanges(in: scope, since: token) }
    }

    func fetchZoneChanges(
        in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?
    ) async throws(CloudError) -> ZoneChanges {
        try await send(.fetchZoneChanges) { () async throws(CloudError) in
            if let error = hooks.withLock({ $0.zoneFailure }).flatMap({ $0(zone) }) { throw error }
            let page = try await wrapped.fetchZoneChanges(in: zone, scope: scope, since: token, resultsLimit: resultsLimit, desiredKeys: desiredKeys)
            return hooks.withLock { $0.zoneChanges }.map { $0(page) } ?? page
        }
    }

    func query(_ query: RecordQuery, in scope: DatabaseScope) async throws(CloudError) -> QueryPage {
        queryLog.withLock { $0.append(query) }
        let page = try await send(.query) { () async throws(CloudError) in try await wrapped.query(query, in: scope) }
        pageLog.withLock { $0.append(page) }
        return page
    }

    func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<ShareRecord, CloudError>] {
        try await wrapped.fetchShares(ids, in: scope)
    }

    func shareMetadata(for url: URL) async throws(CloudError) -> ShareMetadata {
        try await send(.fetchShareMetadata) { () async throws(CloudError) in try await wrapped.shareMetadata(for: url) }
    }

    func acceptShare(_ metadata: ShareMetadata) async throws(CloudError) {
        try await send(.acceptShare) { () async throws(CloudError) in try await wrapped.acceptShare(metadata) }
    }
    func participants(for lookups: [ParticipantLookup]) async throws(CloudError) -> [ParticipantLookup: Result<ShareParticipant, CloudError>] {
        try await wrapped.participants(for: lookups)
    }
    func saveSubscription(_ subscription: CloudSubscription) async throws(CloudError) { try await wrapped.saveSubscription(subscription) }
    func subscriptions(in scope: DatabaseScope) async throws(CloudError) -> [SavedSubscription] { try await wrapped.subscriptions(in: scope) }
    func deleteSubscription(id: String, in scope: DatabaseScope) async throws(CloudError) { try await wrapped.deleteSubscription(id: id, in: scope) }
    func notifications() -> AsyncStream<CloudNotification> { wrapped.notifications() }
    func notification(fromRemotePayload payload: RemoteNotificationPayload) -> CloudNotification? { wrapped.notification(fromRemotePayload: payload) }
    func accountChanges() -> AsyncStream<Void> { wrapped.accountChanges() }
}
