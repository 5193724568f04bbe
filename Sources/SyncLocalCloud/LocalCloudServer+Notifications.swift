import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension LocalCloudServer {
    /// Saves a subscription of the caller's user, for every device of theirs (Apple,
    /// `CKDatabaseSubscription`: "A subscription applies only to the user that creates it. When a
    /// subscription registers a change ... it sends push notifications to the user's devices").
    func saveSubscription(_ subscription: CloudSubscription, caller: Caller) throws {
        let user = try signedIn(caller)
        // Apple's SDK header (CKSubscription.h): "CKDatabaseSubscription is only supported in the
        // Private and Shared databases"; "CKQuerySubscriptions are not supported in a
        // sharedCloudDatabase". The header names no code: `badDatabase` is CloudKit's for an
        // operation sent to a database that does not serve it.
        switch subscription {
        case .database(let id, let scope):
            guard scope != .public else { throw CloudError(.badDatabase, "the public database takes query subscriptions only") }
            try database.query("INSERT OR REPLACE INTO user_subscriptions (user, scope, id, record_type) VALUES (?, ?, ?, NULL)",
                [.text(user), .text(scope.rawValue), .text(id)])
        case .query(let id, let recordType, let scope):
            guard scope != .shared else { throw CloudError(.badDatabase, "the shared database takes database subscriptions only") }
            try database.query("INSERT OR REPLACE INTO user_subscriptions (user, scope, id, record_type) VALUES (?, ?, ?, ?)",
                [.text(user), .text(scope.rawValue), .text(id), .text(recordType)])
        }
    }

    /// What the push service knows of a device: the user it is signed in to (none: it gets
    /// nothing). Notifications queued for the user it leaves are dropped.
    func registerDevice(_ device: String, user: String?) throws {
        let before = try database.query("SELECT user FROM push_devices WHERE device = ?", [.text(device)]).first?.text(0)
        guard before != user else { return }
        try database.query("DELETE FROM notifications WHERE device = ?", [.text(device)])
        if let user {
            try database.query("INSERT INTO push_devices (device, user) VALUES (?, ?) ON CONFLICT(device) DO UPDATE SET user = excluded.user", [.text(device), .text(user)])
        } else {
            try database.query("DELETE FROM push_devices WHERE device = ?", [.text(device)])
        }
    }

    /// Queues a notification on every device of every user whose subscription the change fires,
    /// except the device that made it ("the server excludes the device where the change
    /// originates"). A shared zone's participants are those with access, and those whose access
    /// the request ended (the change sequence after `requestStart`): the zone left their shared
    /// database. Someone who left before hears nothing of the zone any more.
    func notify(changedZones: [StoredZone], recordTypes: Set<String>, scope: DatabaseScope, origin: Caller, requestStart: Int64) throws {
        var queued: Set<String> = []
        func queue(subscriptionsOf user: String, in scope: DatabaseScope, recordType: String? = nil) throws {
            let subscriptions = try database.query(
                "SELECT id FROM user_subscriptions WHERE user = ? AND scope = ? AND record_type IS ?",
                [.text(user), .text(scope.rawValue), recordType.map(SQLiteValue.text) ?? .null])
            guard !subscriptions.isEmpty else { return }
            for device in try database.query("SELECT device FROM push_devices WHERE user = ?", [.text(user)]).map({ $0.text(0) }) where device != origin.device {
                for subscription in subscriptions.map({ $0.text(0) }) where queued.insert("\(device)/\(scope.rawValue)/\(subscription)").inserted {
                    try database.query("INSERT INTO notifications (device, subscription, scope) VALUES (?, ?, ?)", [.text(device), .text(subscription), .text(scope.rawValue)])
                    try store.count("notifications.\(device)")
                }
            }
        }
        if scope == .public {
            for recordType in recordTypes.sorted() {
                for user in try database.query("SELECT DISTINCT user FROM user_subscriptions WHERE scope = 'public' AND record_type = ?", [.text(recordType)]) {
                    try queue(subscriptionsOf: user.text(0), in: .public, recordType: recordType)
                }
            }
            return
        }
        for zone in changedZones {
            // The owner's query subscriptions watch their private database, whoever writes in it.
            for recordType in recordTypes.sorted() {
                try queue(subscriptionsOf: zone.owner, in: .private, recordType: recordType)
            }
            // Database subscriptions follow change tracking, which the private default zone has not.
            guard zone.isCustom else { continue }
            try queue(subscriptionsOf: zone.owner, in: .private)
            for participant in try database.query(
                "SELECT DISTINCT user FROM memberships WHERE owner = ? AND zone = ? AND (active = 1 OR seq > ?)",
                [.text(zone.owner), .text(zone.name), .integer(requestStart)]
            ) {
                try queue(subscriptionsOf: participant.text(0), in: .shared)
            }
        }
    }

    /// Takes a device's queued notifications off the queue.
    func takeNotifications(for device: String) throws -> [CloudNotification] {
        let rows = try database.query("DELETE FROM notifications WHERE device = ? RETURNING subscription, scope, seq", [.text(device)])
        return rows.sorted { $0.integer(2) < $1.integer(2) }.map {
            CloudNotification(subscriptionID: $0.text(0), scope: DatabaseScope(rawValue: $0.text(1)) ?? .private)
        }
    }
}
