import Foundation

extension LocalCloudServer {
    func saveSubscription(_ subscription: CloudSubscription, caller: Caller) throws {
        let user = try signedIn(caller)
        switch subscription {
        case .database(let id, let scope):
            guard scope != .public else { throw CloudError(.invalidArguments, "the public database takes query subscriptions only") }
            try database.query("INSERT OR REPLACE INTO subscriptions (device, id, user, scope, record_type) VALUES (?, ?, ?, ?, NULL)",
                [.text(caller.device), .text(id), .text(user), .text(scope.rawValue)])
        case .query(let id, let recordType):
            try database.query("INSERT OR REPLACE INTO subscriptions (device, id, user, scope, record_type) VALUES (?, ?, ?, 'public', ?)",
                [.text(caller.device), .text(id), .text(user), .text(recordType)])
        }
    }

    /// Queues a notification for every device whose subscription the change fires (never the device
    /// that made it).
    func notify(changedZones: [StoredZone], recordTypes: Set<String>, scope: DatabaseScope, origin: Caller) throws {
        var queued: Set<String> = []
        func queue(device: String, subscription: String, scope: DatabaseScope) throws {
            guard device != origin.device, queued.insert("\(device)/\(subscription)").inserted else { return }
            try database.query("INSERT INTO notifications (device, subscription, scope) VALUES (?, ?, ?)", [.text(device), .text(subscription), .text(scope.rawValue)])
            try store.count("notifications.\(device)")
        }
        if scope == .public {
            for recordType in recordTypes.sorted() {
                for row in try database.query("SELECT device, id FROM subscriptions WHERE scope = 'public' AND record_type = ?", [.text(recordType)]) {
                    try queue(device: row.text(0), subscription: row.text(1), scope: .public)
                }
            }
            return
        }
        for zone in changedZones {
            for row in try database.query("SELECT device, id FROM subscriptions WHERE scope = 'private' AND user = ?", [.text(zone.owner)]) {
                try queue(device: row.text(0), subscription: row.text(1), scope: .private)
            }
            let participants = try database.query("SELECT DISTINCT user FROM memberships WHERE owner = ? AND zone = ?", [.text(zone.owner), .text(zone.name)])
            for participant in participants {
                for row in try database.query("SELECT device, id FROM subscriptions WHERE scope = 'shared' AND user = ?", [.text(participant.text(0))]) {
                    try queue(device: row.text(0), subscription: row.text(1), scope: .shared)
                }
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
