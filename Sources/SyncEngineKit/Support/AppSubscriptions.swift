import SyncCore
import SyncPorts

/// Which subscriptions are the engine's and which the app's. The engine names its own
/// `"<prefix>-…"` (`SyncConfiguration.subscriptionPrefix`: a database's, a catalog's), so an app's
/// subscription may not take a name of that form: saving or deleting one is refused, and the
/// app's list leaves the engine's out. A pass never removes one, and an app cannot by mistake.
enum AppSubscriptions {
    /// The ID of one of the engine's own subscriptions.
    static func engineID(_ name: String, prefix: String) -> String {
        "\(prefix)-\(name)"
    }

    /// Whether `id` names one of the engine's subscriptions.
    static func isEngines(_ id: String, prefix: String) -> Bool {
        id.hasPrefix(engineID("", prefix: prefix))
    }

    /// Refuses an ID the app may not use: empty, or one of the engine's.
    static func checkAppID(_ id: String, prefix: String) throws(SyncError) {
        if id.isEmpty { throw .cloud(CloudError(.invalidArguments, "a subscription needs a name")) }
        if isEngines(id, prefix: prefix) {
            throw .cloud(CloudError(.invalidArguments, "subscription \(id) is named as the engine's own are (\(engineID("…", prefix: prefix))): choose another name"))
        }
    }

    /// The databases an app's subscriptions live in: CloudKit takes query subscriptions in the
    /// public and private ones only.
    static let databases: [DatabaseScope] = [.private, .public]

    /// The query subscription an app asks for over `Model`: in the public database for a
    /// `[public]` model; in the zone the user's records of the model live in otherwise.
    static func subscription<Model: ServerQueryable>(
        _ id: String, to type: Model.Type, conditions: [FieldCondition], firesOn: Set<RecordChangeKind>, once: Bool, alert: SubscriptionAlert?, context: SyncContext
    ) -> QuerySubscription {
        let zone = context.ownZone(of: Model.self)
        return QuerySubscription(
            id: id, recordType: Model.recordType, scope: zone.scope, zone: zone.scope == .public ? nil : zone,
            conditions: conditions, firesOn: firesOn, firesOnce: once, alert: alert)
    }
}
