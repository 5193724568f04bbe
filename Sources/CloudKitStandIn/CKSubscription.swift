// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncLocalCloud
import SyncPorts

/// What a push of a subscription carries (Apple, `CKSubscription.NotificationInfo`).
public final class CKNotificationInfo: NSObject, NSSecureCoding {
    public static var supportsSecureCoding: Bool { true }

    /// A silent push that wakes the app to sync.
    public var shouldSendContentAvailable = false
    /// The alert's title.
    public var title: String?
    /// The alert's text.
    public var alertBody: String?
    /// The sound the push plays.
    public var soundName: String?
    /// Whether the push raises the app icon's badge.
    public var shouldBadge = false

    public override init() {}

    public func encode(with coder: NSCoder) {
        coder.encode(shouldSendContentAvailable, forKey: "contentAvailable")
        coder.encode(shouldBadge, forKey: "badge")
        for (key, value) in [("title", title), ("alertBody", alertBody), ("soundName", soundName)] {
            if let value { coder.encode(value as NSString, forKey: key) }
        }
    }

    public init?(coder: NSCoder) {
        shouldSendContentAvailable = coder.decodeBool(forKey: "contentAvailable")
        shouldBadge = coder.decodeBool(forKey: "badge")
        title = coder.decodeObject(of: NSString.self, forKey: "title") as String?
        alertBody = coder.decodeObject(of: NSString.self, forKey: "alertBody") as String?
        soundName = coder.decodeObject(of: NSString.self, forKey: "soundName") as String?
    }
}

/// A subscription (Apple, `CKSubscription`): the server pushes when it fires.
public class CKSubscription: NSObject {
    public typealias ID = String
    public typealias NotificationInfo = CKNotificationInfo

    public let subscriptionID: CKSubscription.ID
    public var notificationInfo: CKSubscription.NotificationInfo?

    init(subscriptionID: CKSubscription.ID) {
        self.subscriptionID = subscriptionID
    }
}

/// Any change in a private or shared database (Apple, `CKDatabaseSubscription`).
public final class CKDatabaseSubscription: CKSubscription {
    public override init(subscriptionID: CKSubscription.ID) {
        super.init(subscriptionID: subscriptionID)
    }
}

/// Changes to records of one type that match a predicate (Apple, `CKQuerySubscription`).
/// CloudKit reads its predicate; Foundation on Linux cannot build a format predicate, so the
/// stand-in's subscription also carries the conditions as values (`conditions`), set by the
/// gateway's one platform file, as its `CKQuery` does.
public final class CKQuerySubscription: CKSubscription {
    /// When it fires (Apple, `CKQuerySubscription.Options`).
    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let firesOnRecordCreation = Options(rawValue: 1 << 0)
        public static let firesOnRecordUpdate = Options(rawValue: 1 << 1)
        public static let firesOnRecordDeletion = Options(rawValue: 1 << 2)
        public static let firesOnce = Options(rawValue: 1 << 3)
    }

    /// Optional as Apple declares it (a subscription of another kind has none); a query
    /// subscription made here always has one.
    public var recordType: CKRecord.RecordType? { queriedType }
    let queriedType: CKRecord.RecordType
    public let predicate: NSPredicate
    public let querySubscriptionOptions: CKQuerySubscription.Options
    /// The zone it watches; nil: the whole database.
    public var zoneID: CKRecordZone.ID?
    /// The conditions a record meets, all of them: what the predicate says here.
    package let conditions: [FieldCondition]

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate, subscriptionID: CKSubscription.ID, options querySubscriptionOptions: CKQuerySubscription.Options) {
        queriedType = recordType
        self.predicate = predicate
        self.querySubscriptionOptions = querySubscriptionOptions
        conditions = []
        super.init(subscriptionID: subscriptionID)
    }

    /// The stand-in's subscription: its conditions as values.
    package init(recordType: CKRecord.RecordType, conditions: [FieldCondition], subscriptionID: CKSubscription.ID, options querySubscriptionOptions: CKQuerySubscription.Options) {
        queriedType = recordType
        predicate = NSPredicate(value: true)
        self.querySubscriptionOptions = querySubscriptionOptions
        self.conditions = conditions
        super.init(subscriptionID: subscriptionID)
    }
}

/// A push of a subscription, as the app receives it (Apple, `CKNotification`).
public class CKNotification: NSObject {
    public let subscriptionID: CKSubscription.ID?
    /// The database the subscription watches: what `CKDatabaseNotification` and
    /// `CKQueryNotification` tell. The stand-in's notification carries it itself (a Swift
    /// initialiser cannot return a subclass, as CloudKit's factory does).
    package let scope: CKDatabase.Scope?

    /// The notification a push's payload holds; nil for a push that is not CloudKit's. The
    /// stand-in reads the payloads `LocalCloud.remotePayload(for:)` writes.
    public init?(fromRemoteNotificationDictionary notificationDictionary: [AnyHashable: Any]) {
        guard let ck = notificationDictionary["ck"] as? [String: Any], let id = ck["sid"] as? String else { return nil }
        subscriptionID = id
        scope = switch ck["dbs"] as? String {
        case DatabaseScope.private.rawValue: .private
        case DatabaseScope.shared.rawValue: .shared
        case DatabaseScope.public.rawValue: .public
        default: nil
        }
    }
}

extension CKDatabase {
    public func modifySubscriptions(
        saving subscriptionsToSave: [CKSubscription], deleting subscriptionIDsToDelete: [CKSubscription.ID]
    ) async throws -> (saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>], deleteResults: [CKSubscription.ID: Result<Void, any Error>]) {
        // Apple's async answer: each subscription's result; a request that fails as a whole throws.
        let outcomes: [String: Result<Void, CloudError>]
        do {
            outcomes = try await device.saveSubscriptions(subscriptionsToSave.map(port))
        } catch {
            throw StandInErrors.ckError(error)
        }
        var saved: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        for subscription in subscriptionsToSave {
            saved[subscription.subscriptionID] = outcomes[subscription.subscriptionID].map { $0.map { subscription }.mapError { StandInErrors.ckError($0) } }
        }
        var deleted: [CKSubscription.ID: Result<Void, any Error>] = [:]
        for id in subscriptionIDsToDelete {
            do {
                try await device.deleteSubscription(id: id, in: scope)
                deleted[id] = .success(())
            } catch {
                deleted[id] = .failure(StandInErrors.ckError(error))
            }
        }
        return (saved, deleted)
    }

    /// Every subscription of the user in this database (Apple, `allSubscriptions()`).
    public func allSubscriptions() async throws -> [CKSubscription] {
        let saved: [SavedSubscription]
        do {
            saved = try await device.subscriptions(in: scope)
        } catch {
            throw StandInErrors.ckError(error)
        }
        return saved.map { subscription -> CKSubscription in
            guard let recordType = subscription.recordType else { return CKDatabaseSubscription(subscriptionID: subscription.id) }
            let query = CKQuerySubscription(recordType: recordType, conditions: [], subscriptionID: subscription.id, options: [])
            query.zoneID = subscription.zone.map(StandInRecords.zoneID)
            return query
        }
    }

    /// The subscription as LocalCloud takes it.
    private func port(_ subscription: CKSubscription) -> CloudSubscription {
        guard let query = subscription as? CKQuerySubscription else { return .database(id: subscription.subscriptionID, scope: scope) }
        let options = query.querySubscriptionOptions
        var firesOn: Set<RecordChangeKind> = []
        if options.contains(.firesOnRecordCreation) { firesOn.insert(.creation) }
        if options.contains(.firesOnRecordUpdate) { firesOn.insert(.update) }
        if options.contains(.firesOnRecordDeletion) { firesOn.insert(.deletion) }
        let info = query.notificationInfo
        let alert = info?.alertBody.map { SubscriptionAlert(title: info?.title, body: $0, sound: info?.soundName, badge: info?.shouldBadge ?? false) }
        return .query(QuerySubscription(
            id: query.subscriptionID, recordType: query.queriedType, scope: scope, zone: query.zoneID.map(StandInRecords.zoneID),
            conditions: query.conditions, firesOn: firesOn, firesOnce: options.contains(.firesOnce), alert: alert))
    }
}
#endif
