import Foundation
import SyncCore
import SyncPorts

/// One device's view of a LocalCloud: the CloudGateway the engine talks to.
public struct LocalCloudDevice: CloudGateway {
    /// The cloud the device talks to.
    public let cloud: LocalCloud
    /// The device's name: which notifications are its own, and its counters.
    public let name: String

    public func accountStatus() async throws(CloudError) -> AccountStatus {
        try cloud.perform(.accountStatus, device: name, checksAccount: false) { server, caller in
            try server.accountStatus(caller.account)
        }
    }

    public func userRecordName() async throws(CloudError) -> String {
        try cloud.perform(.userRecordID, device: name) { server, caller in try server.signedIn(caller) }
    }

    public func saveZones(_ zones: [ZoneID]) async throws(CloudError) {
        try Self.firstFailure(of: zones, in: try await modifyZones(saving: zones, deleting: []).saved)
    }

    public func deleteZones(_ zones: [ZoneID]) async throws(CloudError) {
        try Self.firstFailure(of: zones, in: try await modifyZones(saving: [], deleting: zones).deleted)
    }

    /// Creates and deletes zones in one request, each zone with its own outcome, as CloudKit's
    /// `modifyRecordZones(saving:deleting:)` answers; throws only for the request as a whole (the
    /// network, the account, a fault). A request that saves is a `saveZones` one.
    package func modifyZones(
        saving toSave: [ZoneID], deleting toDelete: [ZoneID]
    ) async throws(CloudError) -> (saved: [ZoneID: Result<Void, CloudError>], deleted: [ZoneID: Result<Void, CloudError>]) {
        try cloud.perform(toSave.isEmpty ? .deleteZones : .saveZones, device: name) { server, caller in
            let user = try server.signedIn(caller)
            var saved: [ZoneID: Result<Void, CloudError>] = [:]
            for zone in toSave {
                // Another user's zone would be created in the shared database. Apple,
                // `CKError.badDatabase`: "Make sure you aren't submitting ... a record zone create
                // operation to the shared database."
                guard zone.ownerName == SyncConstants.currentUserOwnerName || zone.ownerName == user else {
                    saved[zone] = .failure(CloudError(.badDatabase, "zones are created in their owner's private database only, never in the shared database"))
                    continue
                }
                // Apple, `CKRecordZone.init(zoneName:)`: zone names "consist of up to 255 ASCII
                // characters, and don't start with an underscore". Apple names no error for a
                // name that breaks this (the empty one throws an exception before any request);
                // the harsher answer is the default: the zone is refused.
                if let problem = CloudKitNaming.zoneNameProblem(with: zone.zoneName) {
                    saved[zone] = .failure(CloudError(.invalidArguments, "zone name '\(zone.zoneName)' is not one CloudKit accepts: \(problem)"))
                    continue
                }
                try server.createZoneIfNeeded(StoredZone(owner: user, name: zone.zoneName))
                saved[zone] = .success(())
            }
            var deleted: [ZoneID: Result<Void, CloudError>] = [:]
            for zone in toDelete {
                let stored = StoredZone(owner: user, name: zone.zoneName)
                guard try server.zoneState(stored) == 0 else {
                    deleted[zone] = .failure(CloudError(.zoneNotFound, "zone \(zone.zoneName) does not exist"))
                    continue
                }
                let start = try server.store.currentSequence()
                try server.removeZone(stored, reason: .deleted)
                try server.notify(changedZones: [stored], changes: [], scope: .private, origin: caller, requestStart: start)
                deleted[zone] = .success(())
            }
            return (saved, deleted)
        }
    }

    /// The first failure among `items`, in their order, thrown.
    private static func firstFailure<Item: Hashable>(of items: [Item], in outcomes: [Item: Result<Void, CloudError>]) throws(CloudError) {
        for item in items {
            if case .failure(let error) = outcomes[item] { throw error }
        }
    }

    public func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(CloudError) -> ModifyResult {
        try cloud.perform(.modify, device: name) { server, caller in
            let start = try server.store.currentSequence()
            let (result, zones, changes) = try server.modify(request, scope: scope, caller: caller)
            try server.notify(changedZones: zones, changes: changes, scope: scope, origin: caller, requestStart: start)
            return result
        }
    }

    public func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<SyncRecord, CloudError>] {
        try cloud.perform(.fetchRecords, device: name, checksAccount: scope != .public) { server, caller in
            try server.fetchRecords(ids, desiredKeys: desiredKeys, scope: scope, caller: caller)
        }
    }

    public func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(CloudError) -> DatabaseChanges {
        let pageSize = cloud.configuration.databaseChangesPageSize
        return try cloud.perform(.fetchDatabaseChanges, device: name) { server, caller in
            try server.databaseChanges(scope: scope, since: token, caller: caller, pageSize: pageSize)
        }
    }

    public func fetchZoneChanges(
        in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?
    ) async throws(CloudError) -> ZoneChanges {
        let limit = LocalCloud.pageSize(asked: resultsLimit, default: cloud.configuration.zoneChangesPageSize)
        return try cloud.perform(.fetchZoneChanges, device: name) { server, caller in
            try server.zoneChanges(zone, scope: scope, since: token, resultsLimit: limit, desiredKeys: desiredKeys, caller: caller)
        }
    }

    public func query(_ query: RecordQuery, in scope: DatabaseScope) async throws(CloudError) -> QueryPage {
        let limit = LocalCloud.pageSize(asked: query.resultsLimit, default: cloud.configuration.queryPageSize)
        return try cloud.perform(.query, device: name, checksAccount: scope != .public) { server, caller in
            try server.query(
                query, scope: scope, caller: caller, limit: limit, indexes: cloud.configuration.deployedIndexes,
                locationResolution: cloud.configuration.locationResolution)
        }
    }

    public func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<ShareRecord, CloudError>] {
        try cloud.perform(.fetchShares, device: name) { server, caller in
            try server.fetchShares(ids, scope: scope, caller: caller)
        }
    }

    public func shareMetadata(for url: URL) async throws(CloudError) -> ShareMetadata {
        try cloud.perform(.fetchShareMetadata, device: name) { server, caller in
            try server.shareMetadata(for: url, caller: caller)
        }
    }

    public func participants(for lookups: [ParticipantLookup]) async throws(CloudError) -> [ParticipantLookup: Result<ShareParticipant, CloudError>] {
        try cloud.perform(.fetchParticipants, device: name) { server, caller in
            try server.participants(for: lookups, caller: caller)
        }
    }

    public func acceptShare(_ metadata: ShareMetadata) async throws(CloudError) {
        try cloud.perform(.acceptShare, device: name) { server, caller in
            let start = try server.store.currentSequence()
            let zone = try server.acceptShare(metadata, caller: caller)
            try server.notify(changedZones: [zone], changes: [], scope: .shared, origin: caller, requestStart: start)
        }
    }

    public func saveSubscription(_ subscription: CloudSubscription) async throws(CloudError) {
        try Self.firstFailure(of: [subscription.id], in: try await saveSubscriptions([subscription]))
    }

    /// Saves subscriptions in one request, each with its own outcome by ID, as CloudKit's
    /// `modifySubscriptions(saving:deleting:)` answers; throws only for the request as a whole.
    package func saveSubscriptions(_ subscriptions: [CloudSubscription]) async throws(CloudError) -> [String: Result<Void, CloudError>] {
        try cloud.perform(.saveSubscription, device: name) { server, caller in
            _ = try server.signedIn(caller)
            var outcomes: [String: Result<Void, CloudError>] = [:]
            for subscription in subscriptions {
                do {
                    try server.saveSubscription(subscription, caller: caller)
                    outcomes[subscription.id] = .success(())
                } catch let error as CloudError {
                    outcomes[subscription.id] = .failure(error)
                }
            }
            return outcomes
        }
    }

    public func subscriptions(in scope: DatabaseScope) async throws(CloudError) -> [SavedSubscription] {
        try cloud.perform(.saveSubscription, device: name) { server, caller in try server.subscriptions(of: caller, in: scope) }
    }

    public func deleteSubscription(id: String, in scope: DatabaseScope) async throws(CloudError) {
        try cloud.perform(.saveSubscription, device: name) { server, caller in try server.deleteSubscription(id: id, in: scope, caller: caller) }
    }

    public func notifications() -> AsyncStream<CloudNotification> {
        let (stream, continuation) = AsyncStream<CloudNotification>.makeStream()
        let id = cloud.addStream(continuation, device: name)
        continuation.onTermination = { [cloud, name] _ in cloud.removeStream(id, device: name) }
        return stream
    }

    /// Reads a payload `LocalCloud.remotePayload(for:)` made; nil for any other push.
    public func notification(fromRemotePayload payload: RemoteNotificationPayload) -> CloudNotification? {
        guard let ck = payload.dictionary["ck"] as? [String: Any], let id = ck["sid"] as? String,
            let scope = (ck["dbs"] as? String).flatMap(DatabaseScope.init(rawValue:))
        else { return nil }
        return CloudNotification(subscriptionID: id, scope: scope, alert: SubscriptionAlert(apnsPayload: payload.dictionary))
    }

    /// Calls `observer` at once, on the changing thread, whenever this device's account changes:
    /// what the system's notification center does for `CKAccountChanged` (the CloudKit
    /// stand-in posts it from here). Returns the key to stop observing with.
    package func observeAccountChanges(_ observer: @escaping @Sendable () -> Void) -> UUID {
        cloud.addAccountObserver(observer, device: name)
    }

    /// Stops an observer `observeAccountChanges` added.
    package func stopObservingAccountChanges(_ key: UUID) {
        cloud.removeAccountObserver(key, device: name)
    }

    public func accountChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let id = cloud.addAccountStream(continuation, device: name)
        continuation.onTermination = { [cloud, name] _ in cloud.removeAccountStream(id, device: name) }
        return stream
    }
}
