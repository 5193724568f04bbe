import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension LocalCloudServer {
    /// Saves a subscription of the caller's user, for every device of theirs (Apple,
    /// `CKDatabaseSubscription`: "A subscription applies only to the user that creates it. When a
    /// subscription registers a change ... it sends push notifications to the user's devices").
    /// One saved under an ID the user has in that database replaces it.
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
        case .query(let query):
            guard query.scope != .shared else { throw CloudError(.badDatabase, "the shared database takes database subscriptions only") }
            try checkConditions(of: query)
            try database.query(
                "INSERT OR REPLACE INTO user_subscriptions (user, scope, id, record_type, zone, conditions, fires, once, alert) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(user), .text(query.scope.rawValue), .text(query.id), .text(query.recordType),
                 query.zone.map { .text($0.zoneName) } ?? .null,
                 .blob(SubscriptionConditions.encode(query.conditions)),
                 .text(query.firesOn.map(\.rawValue).sorted().joined(separator: ",")),
                 .integer(query.firesOnce ? 1 : 0),
                 try query.alert.map { .text(String(decoding: try JSONEncoder().encode($0), as: UTF8.self)) } ?? .null])
        }
    }

    /// A query subscription's conditions are a query's: what CloudKit cannot express, or a field
    /// it keeps encrypted (Apple, `CKRecord.encryptedValues`: "CloudKit doesn't support indexes on
    /// encrypted fields"), is refused when it is saved.
    private func checkConditions(of subscription: QuerySubscription) throws {
        let query = RecordQuery(recordType: subscription.recordType, conditions: subscription.conditions)
        if let reason = query.inexpressibleCondition { throw CloudError(.invalidArguments, reason) }
        for field in subscription.conditions.map(\.field) where try isEncryptedInSchema(field, of: subscription.recordType) {
            throw CloudError(.invalidArguments, "field '\(field)' of record type \(subscription.recordType) is encrypted; a subscription cannot filter on it")
        }
    }

    /// The user's subscriptions in a database (Apple, `CKDatabase.allSubscriptions()`).
    func subscriptions(of caller: Caller, in scope: DatabaseScope) throws -> [SavedSubscription] {
        let user = try signedIn(caller)
        return try database.query("SELECT id, record_type, zone FROM user_subscriptions WHERE user = ? AND scope = ? ORDER BY id", [.text(user), .text(scope.rawValue)]).map { row in
            let zone = row.optionalText(2).map { ZoneID(zoneName: $0) }
            return SavedSubscription(id: row.text(0), scope: scope, recordType: row.optionalText(1), zone: zone)
        }
    }

    /// Deletes one of the user's subscriptions. Apple's pages name no code for an ID the
    /// database does not hold; LocalCloud answers `unknownItem`, CloudKit's for an item that is
    /// not there.
    func deleteSubscription(id: String, in scope: DatabaseScope, caller: Caller) throws {
        let user = try signedIn(caller)
        let deleted = try database.query("DELETE FROM user_subscriptions WHERE user = ? AND scope = ? AND id = ? RETURNING id", [.text(user), .text(scope.rawValue), .text(id)])
        guard !deleted.isEmpty else { throw CloudError(.unknownItem, "no subscription \(id) in the \(scope.rawValue) database") }
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
    func notify(changedZones: [StoredZone], changes: [RecordChange], scope: DatabaseScope, origin: Caller, requestStart: Int64) throws {
        var queued: Set<String> = []
        func queue(_ subscription: String, of user: String, in scope: DatabaseScope, alert: String? = nil) throws {
            for device in try database.query("SELECT device FROM push_devices WHERE user = ?", [.text(user)]).map({ $0.text(0) }) where device != origin.device {
                guard queued.insert("\(device)/\(scope.rawValue)/\(subscription)").inserted else { continue }
                try database.query("INSERT INTO notifications (device, subscription, scope, alert) VALUES (?, ?, ?, ?)",
                    [.text(device), .text(subscription), .text(scope.rawValue), alert.map(SQLiteValue.text) ?? .null])
                try store.count("notifications.\(device)")
            }
        }
        // Query subscriptions: the public database's, anyone's; a private zone's, its owner's,
        // whoever writes in it.
        // Each type's subscriptions (and, in a private database, each owner's) are read once a
        // request, not once a record.
        let watched: DatabaseScope = scope == .public ? .public : .private
        var watching: [String: [QuerySubscriptionWatch]] = [:]
        for change in changes {
            let owner = watched == .private ? change.zone.owner : nil
            let key = "\(change.recordType)\n\(owner ?? "")"
            if watching[key] == nil { watching[key] = try querySubscriptions(of: change.recordType, owner: owner, in: watched) }
            for subscription in watching[key]! where subscription.isFired(by: change) {
                try queue(subscription.id, of: subscription.user, in: watched, alert: subscription.alert)
                if subscription.once {
                    try database.query("DELETE FROM user_subscriptions WHERE user = ? AND scope = ? AND id = ?", [.text(subscription.user), .text(watched.rawValue), .text(subscription.id)])
                }
            }
        }
        guard scope != .public else { return }
        for zone in changedZones where zone.isCustom {
            // Database subscriptions follow change tracking, which the private default zone has not.
            for id in try databaseSubscriptions(of: zone.owner, in: .private) { try queue(id, of: zone.owner, in: .private) }
            for participant in try database.query(
                "SELECT DISTINCT user FROM memberships WHERE owner = ? AND zone = ? AND (active = 1 OR seq > ?)",
                [.text(zone.owner), .text(zone.name), .integer(requestStart)]
            ) {
                let user = participant.text(0)
                for id in try databaseSubscriptions(of: user, in: .shared) { try queue(id, of: user, in: .shared) }
            }
        }
    }

    private func databaseSubscriptions(of user: String, in scope: DatabaseScope) throws -> [String] {
        try database.query("SELECT id FROM user_subscriptions WHERE user = ? AND scope = ? AND record_type IS NULL", [.text(user), .text(scope.rawValue)]).map { $0.text(0) }
    }

    /// The query subscriptions of a type in a database (in a private one, its owner's), each
    /// ready to test changes against.
    private func querySubscriptions(of recordType: String, owner: String?, in scope: DatabaseScope) throws -> [QuerySubscriptionWatch] {
        var sql = "SELECT user, id, zone, conditions, fires, once, alert FROM user_subscriptions WHERE scope = ? AND record_type = ?"
        var arguments: [SQLiteValue] = [.text(scope.rawValue), .text(recordType)]
        if let owner {
            sql += " AND user = ?"
            arguments.append(.text(owner))
        }
        return try database.query(sql, arguments).map { row in
            QuerySubscriptionWatch(
                user: row.text(0), id: row.text(1), zone: row.optionalText(2),
                firesOn: row.optionalText(4).map { Set($0.split(separator: ",").map(String.init)) },
                matcher: RecordMatcher(row.isNull(3) ? [] : try SubscriptionConditions.decode(row.blob(3)), deployed: nil, locationResolution: 0),
                once: row.integer(5) != 0, alert: row.optionalText(6))
        }
    }

    /// Takes a device's queued notifications off the queue.
    func takeNotifications(for device: String) throws -> [CloudNotification] {
        let rows = try database.query("DELETE FROM notifications WHERE device = ? RETURNING subscription, scope, seq, alert", [.text(device)])
        return rows.sorted { $0.integer(2) < $1.integer(2) }.map {
            let alert = $0.optionalText(3).flatMap { try? JSONDecoder().decode(SubscriptionAlert.self, from: Data($0.utf8)) }
            return CloudNotification(subscriptionID: $0.text(0), scope: DatabaseScope(rawValue: $0.text(1)) ?? .private, alert: alert)
        }
    }
}

/// A saved query subscription, as a request's changes are tested against it.
struct QuerySubscriptionWatch {
    var user: String
    var id: String
    /// The zone it watches; nil: the whole database.
    var zone: String?
    /// The kinds of change it fires on (`RecordChangeKind` raw values); nil: every kind.
    var firesOn: Set<String>?
    var matcher: RecordMatcher
    var once: Bool
    /// The alert it shows, as the LocalCloud file keeps it (JSON).
    var alert: String?

    /// Whether `change` fires it (Apple, `CKQuerySubscription.Options`): in its zone, of a kind
    /// it fires on, the record meeting its conditions (once changed, or before it was deleted).
    func isFired(by change: RecordChange) -> Bool {
        (zone.map { $0 == change.zone.name } ?? true)
            && (firesOn?.contains(change.kind.rawValue) ?? true)
            && matcher.matches(change.fields)
    }
}

/// A record a request created, changed or deleted: what query subscriptions fire on.
struct RecordChange {
    var zone: StoredZone
    var recordName: String
    var recordType: String
    var kind: RecordChangeKind
    /// Its fields once changed, or before it was deleted (encrypted fields are never compared).
    var fields: RecordFields
}

/// A query subscription's conditions as the LocalCloud file keeps them: each its field, its
/// comparison and its values, by position.
enum SubscriptionConditions {
    static func encode(_ conditions: [FieldCondition]) -> Data {
        var fields = RecordFields()
        for (index, condition) in conditions.enumerated() {
            fields.append(String(index), .list([.string(condition.field), .string(condition.comparison.rawValue), .list(condition.values)]))
        }
        return FieldsCodec.encode(fields)
    }

    static func decode(_ data: Data) throws -> [FieldCondition] {
        let fields = try FieldsCodec.decode(data)
        return (0..<fields.count).compactMap { index in
            guard case .list(let parts)? = fields[String(index)], parts.count == 3,
                case .string(let field) = parts[0], case .string(let raw) = parts[1], let comparison = FieldCondition.Comparison(rawValue: raw),
                case .list(let values) = parts[2]
            else { return nil }
            return FieldCondition(field, comparison, values)
        }
    }
}
