import Foundation
import SyncCore
import SyncPorts

/// The cloud gateway as the use cases call it: each request's `CloudError` comes out as a
/// `SyncError.cloud`, so one function can make requests and write the store, and every failure
/// keeps what it is (`SyncError`). Each request is logged at `debug`, with its counts, how it
/// ended and how long it took.
struct CloudRequests: Sendable {
    let gateway: any CloudGateway
    let log: EngineLog
    /// The running pass's bound: no request goes out past it.
    let limits: PassLimits
    /// The requests each database took within the budget's interval (`RequestBudget`).
    let spending: RequestSpending
    /// A reader of a container's public data (`SyncConfiguration.readOnly`): no request that
    /// writes goes out.
    let readOnly: Bool
    let clock: any SyncClock

    /// What a request writes.
    private enum Write {
        /// Records (saves, deletions, shares) to a database, whose `RequestBudget` it spends.
        case records(DatabaseScope)
        /// Anything else: a zone, a subscription, a share accepted.
        case other
    }

    /// `bounded`: the request starts new work, so none goes out past the pass's bound; checking
    /// the account (before a fetched page is applied) is not new work, and always goes.
    /// `writes`: what a request that writes writes; a read-only engine sends none.
    private func request<T>(
        _ what: @autoclosure () -> SyncLogMessage, bounded: Bool = true, writes: Write? = nil, outcome: (T) -> SyncLogMessage = { _ in "done" },
        _ body: () async throws(CloudError) -> T
    ) async throws(SyncError) -> T {
        if bounded { try limits.check(now: clock.now) }
        if let writes {
            guard !readOnly else { throw .cloud(CloudError(.permissionFailure, "this engine only reads (SyncConfiguration.readOnly): nothing is written to its container")) }
            if case .records(let scope) = writes { try spending.spend(scope, now: clock.now) }
        }
        let started = ContinuousClock.now
        do {
            let value = try await body()
            log(.debug, .request, "\(what()): \(outcome(value)) in \(EngineLog.duration(since: started))")
            return value
        } catch {
            log(.debug, .request, "\(what()): failed in \(EngineLog.duration(since: started)): \(SyncError.cloud(error).logMessage)")
            throw .cloud(error)
        }
    }

    func accountStatus() async throws(SyncError) -> AccountStatus {
        try await request("account status", bounded: false, outcome: { "\($0)" }) { () async throws(CloudError) in try await gateway.accountStatus() }
    }

    func userRecordName() async throws(SyncError) -> String {
        try await request("the user record", bounded: false) { () async throws(CloudError) in try await gateway.userRecordName() }
    }

    func saveZones(_ zones: [ZoneID]) async throws(SyncError) {
        try await request("save \(SyncEvent.count(zones.count, "zone"))", writes: .other) { () async throws(CloudError) in try await gateway.saveZones(zones) }
    }

    func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(SyncError) -> ModifyResult {
        try await self.request(
            "modify in \(scope): \(SyncEvent.count(request.recordsToSave.count, "save")), \(SyncEvent.count(request.recordIDsToDelete.count, "deletion")), \(SyncEvent.count(request.sharesToSave.count, "share"))",
            writes: .records(scope), outcome: { "\(SyncEvent.count($0.itemErrors.count, "item")) failed" }
        ) { () async throws(CloudError) in try await gateway.modify(request, in: scope) }
    }

    /// Records by name, in requests of at most `CloudKitLimits.maxItemsPerRequest` IDs; a request
    /// the cloud finds too large (`limitExceeded`) goes again as two halves, and a single record
    /// it refuses so gets that error as its own outcome: no name is ever dropped.
    func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(SyncError) -> [RecordID: Result<SyncRecord, CloudError>] {
        var results: [RecordID: Result<SyncRecord, CloudError>] = [:]
        for start in stride(from: 0, to: ids.count, by: CloudKitLimits.maxItemsPerRequest) {
            let chunk = Array(ids[start..<min(start + CloudKitLimits.maxItemsPerRequest, ids.count)])
            results.merge(try await fetchHalving(chunk, desiredKeys: desiredKeys, in: scope)) { _, later in later }
        }
        return results
    }

    private func fetchHalving(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(SyncError) -> [RecordID: Result<SyncRecord, CloudError>] {
        do {
            return try await request("fetch \(SyncEvent.count(ids.count, "record")) in \(scope)") { () async throws(CloudError) in try await gateway.fetchRecords(ids, desiredKeys: desiredKeys, in: scope) }
        } catch .cloud(let error) where RecoveryPolicy.action(for: error) == .splitBatch {
            guard ids.count > 1 else { return [ids[0]: .failure(error)] }
            let half = ids.count / 2
            var results = try await fetchHalving(Array(ids[..<half]), desiredKeys: desiredKeys, in: scope)
            results.merge(try await fetchHalving(Array(ids[half...]), desiredKeys: desiredKeys, in: scope)) { _, later in later }
            return results
        }
    }

    func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(SyncError) -> DatabaseChanges {
        try await request("database changes of \(scope)", outcome: { "\(SyncEvent.count($0.changedZones.count, "zone")) changed" }) { () async throws(CloudError) in
            try await gateway.fetchDatabaseChanges(in: scope, since: token)
        }
    }

    func fetchZoneChanges(
        in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?
    ) async throws(SyncError) -> ZoneChanges {
        try await request(
            "changes of \(name: zone) in \(scope)",
            outcome: { "\(SyncEvent.count($0.changedRecords.count, "record")), \(SyncEvent.count($0.deletedRecords.count, "deletion"))\($0.moreComing ? ", more to come" : "")" }
        ) { () async throws(CloudError) in
            try await gateway.fetchZoneChanges(in: zone, scope: scope, since: token, resultsLimit: resultsLimit, desiredKeys: desiredKeys)
        }
    }

    /// `bounded` false: the app's own query, outside any pass.
    func query(_ query: RecordQuery, in scope: DatabaseScope, bounded: Bool = true) async throws(SyncError) -> QueryPage {
        try await request("query \(query.recordType) in \(scope)", bounded: bounded, outcome: { "\(SyncEvent.count($0.records.count, "record"))" }) { () async throws(CloudError) in try await gateway.query(query, in: scope) }
    }

    func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(SyncError) -> [RecordID: Result<ShareRecord, CloudError>] {
        try await request("fetch \(SyncEvent.count(ids.count, "share")) in \(scope)") { () async throws(CloudError) in try await gateway.fetchShares(ids, in: scope) }
    }

    func shareMetadata(for url: URL) async throws(SyncError) -> ShareMetadata {
        try await request("the metadata of a share link") { () async throws(CloudError) in try await gateway.shareMetadata(for: url) }
    }

    func acceptShare(_ metadata: ShareMetadata) async throws(SyncError) {
        try await request("accept \(metadata.logMessage)", writes: .other) { () async throws(CloudError) in try await gateway.acceptShare(metadata) }
    }

    func participants(for lookups: [ParticipantLookup]) async throws(SyncError) -> [ParticipantLookup: Result<ShareParticipant, CloudError>] {
        try await request("run \(SyncEvent.count(lookups.count, "lookup")) of people") { () async throws(CloudError) in try await gateway.participants(for: lookups) }
    }

    func saveSubscription(_ subscription: CloudSubscription) async throws(SyncError) {
        try await request("save a subscription", writes: .other) { () async throws(CloudError) in try await gateway.saveSubscription(subscription) }
    }

    func subscriptions(in scope: DatabaseScope) async throws(SyncError) -> [SavedSubscription] {
        try await request("list the subscriptions") { () async throws(CloudError) in try await gateway.subscriptions(in: scope) }
    }

    func deleteSubscription(id: String, in scope: DatabaseScope) async throws(SyncError) {
        try await request("delete a subscription", writes: .other) { () async throws(CloudError) in try await gateway.deleteSubscription(id: id, in: scope) }
    }

    func notifications() -> AsyncStream<CloudNotification> {
        gateway.notifications()
    }

    func notification(fromRemotePayload payload: RemoteNotificationPayload) -> CloudNotification? {
        gateway.notification(fromRemotePayload: payload)
    }

    func accountChanges() -> AsyncStream<Void> {
        gateway.accountChanges()
    }
}

extension Result where Failure == CloudError {
    /// One item's result of a request: its value, or its error as a `SyncError`.
    func value() throws(SyncError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw .cloud(error)
        }
    }
}

extension ModifyResult {
    /// What the reply says of the saves of `request`, for what was kept of them as sent
    /// (`ServerVersions.noteSent`): `settled`, the records whose version it gives (landed, or a
    /// conflict's server version, merged against what was sent): nothing kept of them is needed
    /// any more; `refused`, the saves the cloud did not apply: that upload is no record's
    /// ancestor (an earlier one whose reply was never read may be). A save whose reply was lost
    /// (`serverResponseLost`), or that no result names, is in neither: it may be in the cloud.
    func sentSaves(of request: ModifyRequest) -> (settled: [RecordID], refused: [SyncRecord]) {
        var settled: [RecordID] = []
        var refused: [SyncRecord] = []
        for save in request.recordsToSave {
            switch savedRecords[save.id] {
            case .success?: settled.append(save.id)
            case .failure(let error)? where RecoveryPolicy.answer(to: error).isConflict: settled.append(save.id)
            case .failure(let error)? where !RecoveryPolicy.mayHaveLanded(error): refused.append(save)
            case .failure?, nil: continue
            }
        }
        return (settled, refused)
    }
}

extension ServerVersions {
    /// Forgets what was kept as sent of `request`'s saves, as its reply says (`sentSaves`).
    func forgetSent(answeredBy result: ModifyResult, of request: ModifyRequest, in zone: ZoneID) throws {
        let (settled, refused) = result.sentSaves(of: request)
        try forgetSent(settled.map(\.recordName), in: zone)
        try forgetSent(uploads: refused)
    }
}

extension CloudError {
    /// A reply that says nothing of one of the request's items (`item`: a record, an asset, a
    /// person looked up): the answer is incomplete, so the item is taken as not done, and asked
    /// again as after a server that was unavailable. The one spelling every phase uses.
    static func noResult(for item: some CustomStringConvertible) -> CloudError {
        CloudError(.serviceUnavailable, "no result for \(item)")
    }

    /// The same error, its message led by what it meant to the caller (the person an invitation
    /// names could not be found): what the app shows says which one.
    func explained(_ meaning: String) -> CloudError {
        var error = self
        error.message = message.isEmpty ? meaning : "\(meaning): \(message)"
        return error
    }
}
