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

    public override init() {}

    public func encode(with coder: NSCoder) {
        coder.encode(shouldSendContentAvailable, forKey: "contentAvailable")
    }

    public init?(coder: NSCoder) {
        shouldSendContentAvailable = coder.decodeBool(forKey: "contentAvailable")
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

/// Changes to records of one type (Apple, `CKQuerySubscription`).
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

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate, subscriptionID: CKSubscription.ID, options querySubscriptionOptions: CKQuerySubscription.Options) {
        queriedType = recordType
        self.predicate = predicate
        self.querySubscriptionOptions = querySubscriptionOptions
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
        let ports = subscriptionsToSave.map { subscription -> CloudSubscription in
            if let query = subscription as? CKQuerySubscription {
                return .query(id: query.subscriptionID, recordType: query.queriedType, scope: scope)
            }
            return .database(id: subscription.subscriptionID, scope: scope)
        }
        let outcomes: [String: Result<Void, CloudError>]
        do {
            outcomes = try await device.saveSubscriptions(ports)
        } catch {
            throw StandInErrors.ckError(error)
        }
        var saved: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        for subscription in subscriptionsToSave {
            saved[subscription.subscriptionID] = outcomes[subscription.subscriptionID].map { $0.map { subscription }.mapError { StandInErrors.ckError($0) } }
        }
        // LocalCloud keeps a subscription for good, and the gateway never deletes one.
        guard subscriptionIDsToDelete.isEmpty else {
            throw CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey: "the stand-in deletes no subscription"])
        }
        return (saved, [:])
    }
}
#endif
