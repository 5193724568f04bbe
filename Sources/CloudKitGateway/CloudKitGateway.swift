#if canImport(CloudKit)
import CloudKit
#else
import CloudKitStandIn
#endif
import Foundation
import SyncCore
import SyncPorts

/// The cloud gateway over CloudKit: the port's calls on CloudKit's async `CKContainer` and
/// `CKDatabase` API, for the private, shared and public databases. Not CKSyncEngine: the engine
/// keeps its own scheduling, tokens, waves and recovery. CloudKit's objects never leave the call
/// that made them; what crosses is the port's values (system fields, tokens, cursors,
/// participants and share metadata as CloudKit's archives).
public final class CloudKitGateway: CloudGateway {
    private let container: CKContainer
    private let notificationCenter: NotificationCenter
    /// The signed-in user's record name, kept for the account: the engine checks it before every
    /// page, chunk and download, and CloudKit is asked again only once the account may have
    /// changed: the system posted `CKAccountChanged`, or the account's status was asked (each
    /// pass begins with it, so a notification the system never posted costs no more than a pass).
    private let user = Locked(KnownUser())
    private let accountObserver: ObserverToken

    private struct KnownUser {
        /// Counts the account changes heard: a name asked for before one is not kept after it.
        var generation = 0
        var recordName: String?
    }

    /// A gateway over an app's container (`CKContainer(identifier:)` on Apple platforms).
    /// `notificationCenter` is where the system posts `CKAccountChanged`: the default one.
    public init(container: CKContainer, notificationCenter: NotificationCenter = .default) {
        self.container = container
        self.notificationCenter = notificationCenter
        let user = user
        let observer = notificationCenter.addObserver(forName: .CKAccountChanged, object: nil, queue: nil) { _ in
            Self.forgetUser(user)
        }
        accountObserver = ObserverToken(observer, center: notificationCenter)
    }

    deinit {
        accountObserver.center.removeObserver(accountObserver.observer)
    }

    private static func forgetUser(_ user: Locked<KnownUser>) {
        user.withLock { $0 = KnownUser(generation: $0.generation + 1) }
    }

    private func database(_ scope: DatabaseScope) -> CKDatabase {
        switch scope {
        case .private: container.privateCloudDatabase
        case .shared: container.sharedCloudDatabase
        case .public: container.publicCloudDatabase
        }
    }

    /// A CloudKit call, its error as the port's.
    private func call<T>(_ body: () async throws -> T) async throws(CloudError) -> T {
        do {
            return try await body()
        } catch {
            throw CloudKitErrors.cloudError(error)
        }
    }

    // MARK: Account and zones

    public func accountStatus() async throws(CloudError) -> AccountStatus {
        Self.forgetUser(user)
        let status = try await call { try await container.accountStatus() }
        if status == .available { return .available }
        if status == .noAccount { return .noAccount }
        if status == .restricted { return .restricted }
        // Temporarily unavailable, or CloudKit could not tell: the engine tries again later.
        return .temporarilyUnavailable
    }

    public func userRecordName() async throws(CloudError) -> String {
        let (generation, known) = user.withLock { ($0.generation, $0.recordName) }
        if let known { return known }
        let name = try await call { try await container.userRecordID().recordName }
        user.withLock { if $0.generation == generation { $0.recordName = name } }
        return name
    }

    public func saveZones(_ zones: [ZoneID]) async throws(CloudError) {
        let results = try await call {
            try await container.privateCloudDatabase.modifyRecordZones(saving: zones.map { CKRecordZone(zoneID: CloudKitRecords.zoneID($0)) }, deleting: [])
        }
        for (_, outcome) in results.saveResults {
            if case .failure(let error) = outcome { throw CloudKitErrors.cloudError(error) }
        }
    }

    public func deleteZones(_ zones: [ZoneID]) async throws(CloudError) {
        let results = try await call {
            try await container.privateCloudDatabase.modifyRecordZones(saving: [], deleting: zones.map(CloudKitRecords.zoneID))
        }
        for (_, outcome) in results.deleteResults {
            if case .failure(let error) = outcome { throw CloudKitErrors.cloudError(error) }
        }
    }

    // MARK: Records

    /// Saves and deletes, one CloudKit request per zone (CloudKit commits atomically zone by zone,
    /// and an atomic request that fails throws, saying nothing of another zone's items that went
    /// through). A request the engine makes is of one zone; a part that fails as a whole fails
    /// the call.
    public func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(CloudError) -> ModifyResult {
        var result = ModifyResult()
        for part in request.zoneParts {
            result.add(try await modifyZone(part, in: database(scope)))
        }
        return result
    }

    /// One zone's saves and deletions, every item with its outcome.
    ///
    /// - Atomic only in a custom zone: a default zone does not commit atomically (Apple,
    ///   `isAtomic`: "setting this property has no effect"), and an atomic call with a failing
    ///   item throws, so its saved items would go unreported.
    /// - The thrown error is unpacked item by item, whatever its code (Apple, `modifyRecords`: it
    ///   "throws an error ... when atomically is true and one or more of the specified changes
    ///   fail", a `partialFailure` or another code):
    ///   each failed item gets its own error, with a conflict's records; an item it does not
    ///   name was not written (`batchRequestFailed`) in an atomic request, and may have been in
    ///   another (`serverResponseLost`: sent again, it meets its own version and merges).
    /// - A share CloudKit has is saved as CloudKit holds it now, changed as the port says, and
    ///   only when that is the version the port's share was read from: one changed since (a
    ///   person who joined by its link) fails with `serverRecordChanged`, and the caller reads it
    ///   again, so nobody is removed who was not asked to be. A new share is made of its root.
    /// - A record the mapping refuses never reaches CloudKit: in an atomic request, the zone's
    ///   other items then fail with `batchRequestFailed`, as CloudKit would fail them.
    private func modifyZone(_ request: ModifyRequest, in database: CKDatabase) async throws(CloudError) -> ModifyResult {
        let atomic = request.isAtomic && request.itemIDs.allSatisfy(\.zoneID.isCustom)
        var result = ModifyResult()
        let (toSave, refused) = try await mapped(request, in: database)
        if !refused.isEmpty && atomic {
            for id in request.itemIDs {
                result.fail(id, of: request, refused[id] ?? CloudError(.batchRequestFailed, "another item of the atomic request was refused"))
            }
            return result
        }
        for (id, error) in refused { result.fail(id, of: request, error) }
        let toDelete = request.recordIDsToDelete.map(CloudKitRecords.recordID)
        guard !toSave.isEmpty || !toDelete.isEmpty else { return result }
        let outcome: (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>])
        do {
            outcome = try await database.modifyRecords(
                saving: toSave, deleting: toDelete, savePolicy: Self.savePolicy(request.savePolicy), atomically: atomic)
        } catch {
            // Whatever its code: Apple's async page does not name the code an atomic failure
            // throws, and `CKError.h` says `partialFailure` is not returned from the newer result
            // blocks. An error that names items' errors is read item by item (trap T21.28).
            let failure = CloudKitErrors.cloudError(error)
            guard !failure.itemErrors.isEmpty else { throw failure }
            for id in request.itemIDs where refused[id] == nil {
                result.fail(id, of: request, failure.itemErrors[id] ?? (atomic
                    ? CloudError(.batchRequestFailed, "another item of the atomic request failed; nothing of it was saved")
                    : CloudError(.serverResponseLost, "the request failed in part without saying how this item went")))
            }
            return result
        }
        result.read(saved: outcome.saveResults, deleted: outcome.deleteResults, of: request)
        return result
    }

    /// The request's records and shares as CloudKit's, and the items the mapping refused, each
    /// with why. A share CloudKit has is read first: it is saved as CloudKit holds it now,
    /// changed as the port says (`CloudKitShares.currentShare`); a new one is made of its root.
    private func mapped(_ request: ModifyRequest, in database: CKDatabase) async throws(CloudError) -> (toSave: [CKRecord], refused: [RecordID: CloudError]) {
        var toSave: [CKRecord] = []
        var roots: [String: CKRecord] = [:]
        var refused: [RecordID: CloudError] = [:]
        for record in request.recordsToSave {
            do {
                let ck = try CloudKitRecords.ckRecord(record)
                toSave.append(ck)
                roots[record.id.recordName] = ck
            } catch {
                refused[record.id] = error
            }
        }
        let known = request.sharesToSave.filter { $0.systemFields != nil }.map { CloudKitRecords.recordID($0.id) }
        let current = known.isEmpty ? [:] : try await call { try await database.records(for: known, desiredKeys: nil) }
        for share in request.sharesToSave {
            do throws(CloudError) {
                var currentShare: CKShare?
                if share.systemFields != nil {
                    currentShare = try CloudKitShares.currentShare(share, fetched: current[CloudKitRecords.recordID(share.id)])
                }
                toSave.append(try CloudKitShares.ckShare(share, current: currentShare, root: share.rootRecordName.flatMap { roots[$0] }))
            } catch {
                refused[share.id] = error
            }
        }
        return (toSave, refused)
    }

    private static func savePolicy(_ policy: SavePolicy) -> CKModifyRecordsOperation.RecordSavePolicy {
        switch policy {
        case .ifServerRecordUnchanged: .ifServerRecordUnchanged
        case .changedKeys: .changedKeys
        case .allKeys: .allKeys
        }
    }

    public func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<SyncRecord, CloudError>] {
        let database = database(scope)
        let fetched = try await call { try await database.records(for: ids.map(CloudKitRecords.recordID), desiredKeys: desiredKeys) }
        var results: [RecordID: Result<SyncRecord, CloudError>] = [:]
        for (ckID, outcome) in fetched {
            results[CloudKitRecords.recordID(ckID)] = outcome.mapError(CloudKitErrors.cloudError).flatMap { record in
                Result { () throws(CloudError) in try CloudKitRecords.syncRecord(record) }
            }
        }
        return results
    }

    // MARK: The system's sharing UI

    /// The container the system's sharing UI is given with a share (UIKit's
    /// `UICloudSharingController(share:container:)`, SwiftUI's
    /// `CKShareTransferRepresentation`): the one this gateway was made with.
    public var cloudContainer: CKContainer { container }

    /// The `CKShare` the system's sharing UI shows for a share the engine returned
    /// (`SyncEngine.shareForSystemSharing(_:)`), fetched as the cloud has it now: from the private
    /// database for the user's own share, from the shared one for someone else's. The sheet
    /// saves its changes itself; the engine's next pass brings them to the store.
    public func systemShare(for share: ShareRecord) async throws(CloudError) -> sending CKShare {
        let id = CloudKitRecords.recordID(share.id)
        let database = database(share.id.zoneID.scope)
        let fetched = try await call { try await database.records(for: [id], desiredKeys: nil) }
        guard let outcome = fetched[id] else { throw CloudError(.unknownItem, "share \(share.id.recordName) was not returned") }
        return try Self.share(outcome, named: share.id.recordName).get()
    }

    /// A fetched record that must be a share: the share, or why not.
    private static func share(_ outcome: Result<CKRecord, any Error>, named name: String) -> Result<CKShare, CloudError> {
        switch outcome {
        case .success(let share as CKShare): .success(share)
        case .success: .failure(CloudError(.invalidArguments, "\(name) is a record, not a share"))
        case .failure(let error): .failure(CloudKitErrors.cloudError(error))
        }
    }

    public func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<ShareRecord, CloudError>] {
        let database = database(scope)
        let fetched = try await call { try await database.records(for: ids.map(CloudKitRecords.recordID), desiredKeys: nil) }
        var results: [RecordID: Result<ShareRecord, CloudError>] = [:]
        for (ckID, outcome) in fetched {
            let id = CloudKitRecords.recordID(ckID)
            results[id] = Self.share(outcome, named: id.recordName).flatMap { share in
                Result { () throws(CloudError) in try CloudKitShares.shareRecord(share, rootRecordName: nil) }
            }
        }
        return results
    }

    // MARK: Changes and queries

    public func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(CloudError) -> DatabaseChanges {
        let database = database(scope)
        let since = try token.map { (token) throws(CloudError) in try CloudKitArchives.serverChangeToken(token) }
        let changes = try await call { try await database.databaseChanges(since: since, resultsLimit: nil) }
        var deleted: [ZoneID: ZoneDeletionReason] = [:]
        for deletion in changes.deletions {
            deleted[CloudKitRecords.zoneID(deletion.zoneID)] =
                deletion.reason == .encryptedDataReset ? .encryptedDataReset : deletion.reason == .purged ? .purged : .deleted
        }
        return DatabaseChanges(
            changedZones: changes.modifications.map { CloudKitRecords.zoneID($0.zoneID) }, deletedZones: deleted,
            newToken: try CloudKitArchives.changeToken(changes.changeToken), moreComing: changes.moreComing)
    }

    /// A zone's changes. CloudKit's async API returns them by record ID, without their order:
    /// they come sorted by modification date (then name), so parents saved first come first.
    public func fetchZoneChanges(
        in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?
    ) async throws(CloudError) -> ZoneChanges {
        let database = database(scope)
        let since = try token.map { (token) throws(CloudError) in try CloudKitArchives.serverChangeToken(token) }
        let changes = try await call {
            try await database.recordZoneChanges(inZoneWith: CloudKitRecords.zoneID(zone), since: since, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
        }
        var records: [SyncRecord] = []
        var shares: [ShareRecord] = []
        var unreadable: [RecordID: CloudError] = [:]
        for (ckID, outcome) in changes.modificationResultsByID {
            // One record CloudKit could not serve, or this version cannot read, never fails the
            // page: it is left out, named, and fetched again by name.
            do throws(CloudError) {
                let modification = try outcome.mapError(CloudKitErrors.cloudError).get()
                if let share = modification.record as? CKShare {
                    shares.append(try CloudKitShares.shareRecord(share, rootRecordName: nil))
                } else {
                    records.append(try CloudKitRecords.syncRecord(modification.record))
                }
            } catch {
                unreadable[CloudKitRecords.recordID(ckID)] = error
            }
        }
        records.sort { ($0.modificationDate ?? .distantPast, $0.id.recordName) < ($1.modificationDate ?? .distantPast, $1.id.recordName) }
        shares.sort { $0.id.recordName < $1.id.recordName }
        return ZoneChanges(
            changedRecords: records, changedShares: shares,
            deletedRecords: changes.deletions.map { DeletedRecord(id: CloudKitRecords.recordID($0.recordID), recordType: $0.recordType) },
            newToken: try CloudKitArchives.changeToken(changes.changeToken), moreComing: changes.moreComing, unreadableRecords: unreadable)
    }

    public func query(_ query: RecordQuery, in scope: DatabaseScope) async throws(CloudError) -> QueryPage {
        if let reason = query.inexpressibleCondition { throw CloudError(.invalidArguments, reason) }
        let database = database(scope)
        let limit = query.resultsLimit ?? CKQueryOperation.maximumResults
        let page: (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?)
        if let cursor = query.cursor {
            let resumed = try CloudKitArchives.queryCursor(cursor)
            page = try await call { try await database.records(continuingMatchFrom: resumed, desiredKeys: query.desiredKeys, resultsLimit: limit) }
        } else {
            let ckQuery = try CloudKitPlatform.query(recordType: query.recordType, conditions: query.conditions, sorts: query.sorts, in: query.zoneID)
            page = try await call {
                try await database.records(matching: ckQuery, inZoneWith: query.zoneID.map(CloudKitRecords.zoneID), desiredKeys: query.desiredKeys, resultsLimit: limit)
            }
        }
        var records: [SyncRecord] = []
        var unreadable: [RecordID: CloudError] = [:]
        for (ckID, outcome) in page.matchResults {
            do throws(CloudError) {
                records.append(try CloudKitRecords.syncRecord(try outcome.mapError(CloudKitErrors.cloudError).get()))
            } catch {
                unreadable[CloudKitRecords.recordID(ckID)] = error
            }
        }
        return QueryPage(
            records: records, cursor: try page.queryCursor.map { (cursor) throws(CloudError) in try CloudKitArchives.queryCursor(cursor) },
            unreadableRecords: unreadable)
    }

    // MARK: Sharing

    /// The metadata the system hands an app when the user taps a share's link (a scene or app
    /// delegate's `userDidAcceptCloudKitShareWith`), for `SyncEngine.acceptShare(_:)`.
    public static func shareMetadata(_ metadata: CKShare.Metadata) throws(CloudError) -> ShareMetadata {
        try CloudKitShares.shareMetadata(metadata)
    }

    public func shareMetadata(for url: URL) async throws(CloudError) -> ShareMetadata {
        let metadata = try await call { try await container.shareMetadata(for: url) }
        return try CloudKitShares.shareMetadata(metadata)
    }

    /// Accepts from the system's metadata (its archive); metadata known only by its link is
    /// looked up again.
    public func acceptShare(_ metadata: ShareMetadata) async throws(CloudError) {
        let ckMetadata: CKShare.Metadata
        if let archived = CloudKitShares.ckMetadata(metadata) {
            ckMetadata = archived
        } else if let url = metadata.url {
            ckMetadata = try await call { try await container.shareMetadata(for: url) }
        } else {
            throw CloudError(.invalidArguments, "the share's metadata has neither CloudKit's archive nor a link")
        }
        _ = try await call { try await container.accept(ckMetadata) }
    }

    /// People looked up in one request per kind of lookup (CloudKit's
    /// `shareParticipants(forEmailAddresses:)` and its siblings), each with their own outcome.
    public func participants(for lookups: [ParticipantLookup]) async throws(CloudError) -> [ParticipantLookup: Result<ShareParticipant, CloudError>] {
        var addresses: [String] = [], numbers: [String] = [], users: [CKRecord.ID] = []
        for lookup in Set(lookups) {
            switch lookup {
            case .emailAddress(let address): addresses.append(address)
            case .phoneNumber(let number): numbers.append(number)
            case .userRecordName(let name): users.append(CKRecord.ID(recordName: name, zoneID: CKRecordZone.ID.default))
            }
        }
        var found: [ParticipantLookup: Result<ShareParticipant, CloudError>] = [:]
        if !addresses.isEmpty {
            let answers = try await call { try await container.shareParticipants(forEmailAddresses: addresses) }
            for address in addresses { found[.emailAddress(address)] = Self.participant(answers[address]) }
        }
        if !numbers.isEmpty {
            let answers = try await call { try await container.shareParticipants(forPhoneNumbers: numbers) }
            for number in numbers { found[.phoneNumber(number)] = Self.participant(answers[number]) }
        }
        if !users.isEmpty {
            let answers = try await call { try await container.shareParticipants(forUserRecordIDs: users) }
            for user in users { found[.userRecordName(user.recordName)] = Self.participant(answers[user]) }
        }
        return found
    }

    /// One lookup's outcome as the port says it; a lookup CloudKit did not answer failed.
    private static func participant(_ answer: Result<CKShare.Participant, any Error>?) -> Result<ShareParticipant, CloudError> {
        switch answer {
        case .success(let participant):
            do throws(CloudError) {
                return .success(try CloudKitShares.participant(participant))
            } catch {
                return .failure(error)
            }
        case .failure(let error): return .failure(CloudKitErrors.cloudError(error))
        case nil: return .failure(CloudError(.internalError, "CloudKit did not answer this lookup"))
        }
    }

    // MARK: Subscriptions and pushes

    public func saveSubscription(_ subscription: CloudSubscription) async throws(CloudError) {
        let ck: CKSubscription
        // Every push wakes the app to sync; an app's own subscription may show an alert too.
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        switch subscription {
        case .database(let id, _):
            ck = CKDatabaseSubscription(subscriptionID: id)
        case .query(let query):
            var options: CKQuerySubscription.Options = []
            if query.firesOn.contains(.creation) { options.insert(.firesOnRecordCreation) }
            if query.firesOn.contains(.update) { options.insert(.firesOnRecordUpdate) }
            if query.firesOn.contains(.deletion) { options.insert(.firesOnRecordDeletion) }
            if query.firesOnce { options.insert(.firesOnce) }
            let querySubscription = try CloudKitPlatform.querySubscription(
                id: query.id, recordType: query.recordType, conditions: query.conditions, in: query.zone, options: options)
            querySubscription.zoneID = query.zone.map(CloudKitRecords.zoneID)
            if let alert = query.alert {
                info.title = alert.title
                info.alertBody = alert.body
                info.soundName = alert.sound
                info.shouldBadge = alert.badge
            }
            ck = querySubscription
        }
        ck.notificationInfo = info
        let database = database(subscription.scope)
        let results = try await call { try await database.modifySubscriptions(saving: [ck], deleting: []) }
        if case .failure(let error) = results.saveResults[ck.subscriptionID] { throw CloudKitErrors.cloudError(error) }
    }

    public func subscriptions(in scope: DatabaseScope) async throws(CloudError) -> [SavedSubscription] {
        let database = database(scope)
        return try await call { try await database.allSubscriptions() }.map { subscription in
            guard let query = subscription as? CKQuerySubscription else { return SavedSubscription(id: subscription.subscriptionID, scope: scope) }
            return SavedSubscription(id: query.subscriptionID, scope: scope, recordType: query.recordType, zone: query.zoneID.map(CloudKitRecords.zoneID))
        }
    }

    public func deleteSubscription(id: String, in scope: DatabaseScope) async throws(CloudError) {
        let database = database(scope)
        let results = try await call { try await database.modifySubscriptions(saving: [], deleting: [id]) }
        if case .failure(let error) = results.deleteResults[id] { throw CloudKitErrors.cloudError(error) }
    }

    /// Pushes reach the app, not the gateway: the app hands them to
    /// `SyncEngine.handleRemoteNotification`. This stream ends at once.
    public func notifications() -> AsyncStream<CloudNotification> {
        AsyncStream { $0.finish() }
    }

    public func notification(fromRemotePayload payload: RemoteNotificationPayload) -> CloudNotification? {
        guard let notification = CKNotification(fromRemoteNotificationDictionary: payload.dictionary),
            let id = notification.subscriptionID, let ckScope = CloudKitPlatform.scope(of: notification)
        else { return nil }
        let scope: DatabaseScope = ckScope == .shared ? .shared : ckScope == .public ? .public : .private
        return CloudNotification(subscriptionID: id, scope: scope, alert: SubscriptionAlert(apnsPayload: payload.dictionary))
    }

    /// The system's `CKAccountChanged` notifications.
    public func accountChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let observer = notificationCenter.addObserver(forName: .CKAccountChanged, object: nil, queue: nil) { _ in
            continuation.yield()
        }
        let token = ObserverToken(observer, center: notificationCenter)
        continuation.onTermination = { _ in token.center.removeObserver(token.observer) }
        return stream
    }
}

/// A notification center observer, held to be removed when its stream ends (an observer token
/// is not `Sendable`; it is only ever handed back to its center).
private final class ObserverToken: @unchecked Sendable {
    let observer: any NSObjectProtocol
    let center: NotificationCenter

    init(_ observer: any NSObjectProtocol, center: NotificationCenter) {
        self.observer = observer
        self.center = center
    }
}

extension ModifyResult {
    /// An item of `request` failed: its error goes where the item's kind is answered (a deletion,
    /// a share, a record).
    fileprivate mutating func fail(_ id: RecordID, of request: ModifyRequest, _ error: CloudError) {
        if request.recordIDsToDelete.contains(id) {
            deletedRecords[id] = .failure(error)
        } else if request.sharesToSave.contains(where: { $0.id == id }) {
            savedShares[id] = .failure(error)
        } else {
            savedRecords[id] = .failure(error)
        }
    }

    /// CloudKit's per-item results, as the port's: a saved share or record read back, a failure
    /// filed under its item, a deletion as it went.
    fileprivate mutating func read(
        saved: [CKRecord.ID: Result<CKRecord, any Error>], deleted: [CKRecord.ID: Result<Void, any Error>], of request: ModifyRequest
    ) {
        let shareRoots = Dictionary(request.sharesToSave.map { ($0.id, $0.rootRecordName) }, uniquingKeysWith: { first, _ in first })
        for (ckID, outcome) in saved {
            let id = CloudKitRecords.recordID(ckID)
            switch outcome {
            case .success(let share as CKShare):
                savedShares[id] = Result { () throws(CloudError) in try CloudKitShares.shareRecord(share, rootRecordName: shareRoots[id] ?? nil) }
            case .success(let record):
                savedRecords[id] = Result { () throws(CloudError) in try CloudKitRecords.syncRecord(record) }
            case .failure(let error):
                fail(id, of: request, CloudKitErrors.cloudError(error))
            }
        }
        for (ckID, outcome) in deleted {
            deletedRecords[CloudKitRecords.recordID(ckID)] = outcome.mapError(CloudKitErrors.cloudError)
        }
    }
}
