import Foundation
import SyncCore

/// What a user subscribes to, for every device of theirs.
public enum CloudSubscription: Sendable, Hashable {
    /// Any change in the user's private or shared database (CloudKit has none for the public one).
    case database(id: String, scope: DatabaseScope)
    /// Changes to records of one type that meet conditions, in the public database or the user's
    /// private one (CloudKit has none for the shared one).
    case query(QuerySubscription)

    /// The subscription's ID: one per subscription and user, the same on every device.
    public var id: String {
        switch self {
        case .database(let id, _): id
        case .query(let query): query.id
        }
    }

    /// The database it watches.
    public var scope: DatabaseScope {
        switch self {
        case .database(_, let scope): scope
        case .query(let query): query.scope
        }
    }
}

/// A query subscription (Apple, `CKQuerySubscription`): the records of one type that meet every
/// condition, in one zone or the whole database, fire it when they are created, changed or
/// deleted, as `firesOn` says.
public struct QuerySubscription: Sendable, Hashable {
    /// The subscription's ID.
    public var id: String
    /// The type of the records it watches.
    public var recordType: String
    /// The database it watches: public or private.
    public var scope: DatabaseScope
    /// The zone it watches (`CKQuerySubscription.zoneID`); nil: every zone of the database.
    public var zone: ZoneID?
    /// What a record meets to fire it, all of them (none: every record of the type).
    public var conditions: [FieldCondition]
    /// The changes that fire it.
    public var firesOn: Set<RecordChangeKind>
    /// Whether it deletes itself once it fired (`firesOnce`).
    public var firesOnce: Bool
    /// What the device shows when it fires; nil: a silent push that wakes the app.
    public var alert: SubscriptionAlert?

    /// A query subscription; by default every change to every record of the type, silently.
    public init(
        id: String, recordType: String, scope: DatabaseScope = .public, zone: ZoneID? = nil, conditions: [FieldCondition] = [],
        firesOn: Set<RecordChangeKind> = Set(RecordChangeKind.allCases), firesOnce: Bool = false, alert: SubscriptionAlert? = nil
    ) {
        self.id = id
        self.recordType = recordType
        self.scope = scope
        self.zone = zone
        self.conditions = conditions
        self.firesOn = firesOn
        self.firesOnce = firesOnce
        self.alert = alert
    }
}

/// A subscription as the cloud lists it: what it watches, not its conditions (CloudKit returns
/// a query subscription's predicate as an `NSPredicate`, which says nothing a program can read
/// back).
public struct SavedSubscription: Sendable, Hashable {
    /// The subscription's ID.
    public var id: String
    /// The database it watches.
    public var scope: DatabaseScope
    /// The type a query subscription watches; nil for a database subscription.
    public var recordType: String?
    /// The zone a query subscription watches; nil: every zone.
    public var zone: ZoneID?

    /// A subscription as listed.
    public init(id: String, scope: DatabaseScope, recordType: String? = nil, zone: ZoneID? = nil) {
        self.id = id
        self.scope = scope
        self.recordType = recordType
        self.zone = zone
    }
}

/// A subscription fired.
public struct CloudNotification: Sendable, Hashable {
    /// The ID of the subscription that fired.
    public var subscriptionID: String
    /// The database it watches.
    public var scope: DatabaseScope
    /// What the device shows; nil for a silent push.
    public var alert: SubscriptionAlert?

    /// A notification of a subscription in a database.
    public init(subscriptionID: String, scope: DatabaseScope, alert: SubscriptionAlert? = nil) {
        self.subscriptionID = subscriptionID
        self.scope = scope
        self.alert = alert
    }
}

/// A change to a record that a query subscription can fire on (Apple,
/// `CKQuerySubscription.Options`: `firesOnRecordCreation`, `firesOnRecordUpdate`,
/// `firesOnRecordDeletion`).
public enum RecordChangeKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A record that meets the conditions is created.
    case creation
    /// A record that meets the conditions once changed is changed.
    case update
    /// A record that met the conditions is deleted.
    case deletion
}

/// What a subscription's push shows on the user's devices (Apple,
/// `CKSubscription.NotificationInfo`: `title`, `alertBody`, `soundName`, `shouldBadge`). The push
/// also wakes the app, as the engine's own do.
public struct SubscriptionAlert: Sendable, Hashable, Codable {
    /// The alert's title, if any.
    public var title: String?
    /// The alert's text: "A chore was assigned to you".
    public var body: String
    /// The name of a sound file in the app's bundle; nil: no sound.
    public var sound: String?
    /// Whether the push raises the app icon's badge.
    public var badge: Bool

    /// An alert.
    public init(title: String? = nil, body: String, sound: String? = nil, badge: Bool = false) {
        self.title = title
        self.body = body
        self.sound = sound
        self.badge = badge
    }
}

extension SubscriptionAlert {
    /// The alert an APNs payload shows (`aps.alert`, with its `title` and `body`, `aps.sound`,
    /// `aps.badge`); nil for a silent push. CloudKit's own accessors of a notification's alert
    /// are deprecated (iOS 17: "via UserNotifications.framework"), so the payload is read.
    package init?(apnsPayload payload: [AnyHashable: Any]) {
        guard let aps = payload["aps"] as? [String: Any], let alert = aps["alert"] as? [String: Any], let body = alert["body"] as? String else { return nil }
        self.init(title: alert["title"] as? String, body: body, sound: aps["sound"] as? String, badge: aps["badge"] != nil)
    }

    /// The alert as APNs' `aps` entries: what `init(apnsPayload:)` reads.
    package var apnsEntries: [String: Any] {
        var alert: [String: Any] = ["body": body]
        if let title { alert["title"] = title }
        var entries: [String: Any] = ["alert": alert]
        if let sound { entries["sound"] = sound }
        if badge { entries["badge"] = 1 }
        return entries
    }
}
