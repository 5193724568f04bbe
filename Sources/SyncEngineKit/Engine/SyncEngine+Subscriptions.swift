import SyncCore
import SyncPorts

// MARK: - Subscriptions the app defines

extension SyncEngine {
    /// Saves a query subscription of the app's own, for every device of the user: when a record
    /// of `Model` that meets `predicate` is created, changed or deleted (as `on` says), the cloud
    /// pushes to the user's devices, showing `alert` ("A chore was assigned to you"), or silently
    /// without one. A `[public]` model's subscription watches the public database; any other
    /// watches the user's zone its records live in. With `once`, it deletes itself after it
    /// fires. Saving under a name the app used already replaces that subscription.
    ///
    /// The name is the app's: one the engine's own take (`"<subscriptionPrefix>-…"`) is refused
    /// (`invalidArguments`), so the engine's subscriptions cannot be replaced by mistake. A
    /// predicate needs fields the schema marks `queryable`, as a `ServerQuery`'s.
    public func subscribe<Model: ServerQueryable>(
        _ name: String, to type: Model.Type, where predicate: ServerPredicate<Model>? = nil,
        on changes: Set<RecordChangeKind> = Set(RecordChangeKind.allCases), once: Bool = false, alert: SubscriptionAlert? = nil
    ) async throws(SyncError) {
        try AppSubscriptions.checkAppID(name, prefix: context.configuration.subscriptionPrefix)
        let subscription = AppSubscriptions.subscription(
            name, to: type, conditions: predicate?.conditions ?? [], firesOn: changes, once: once, alert: alert, context: context)
        try await context.cloud.saveSubscription(.query(subscription))
    }

    /// The app's own subscriptions, in the private and public databases; the engine's are left
    /// out. Each says what it watches (its type and zone), not its predicate: CloudKit does not
    /// return it in a form a program reads.
    public func appSubscriptions() async throws(SyncError) -> [SavedSubscription] {
        var saved: [SavedSubscription] = []
        for scope in AppSubscriptions.databases {
            saved += try await context.cloud.subscriptions(in: scope)
                .filter { !AppSubscriptions.isEngines($0.id, prefix: context.configuration.subscriptionPrefix) }
        }
        return saved
    }

    /// Deletes the app's subscription of this name, wherever it is; one that is not there
    /// changes nothing. The engine's own cannot be deleted (`invalidArguments`).
    public func unsubscribe(_ name: String) async throws(SyncError) {
        try AppSubscriptions.checkAppID(name, prefix: context.configuration.subscriptionPrefix)
        for scope in AppSubscriptions.databases {
            do throws(SyncError) {
                try await context.cloud.deleteSubscription(id: name, in: scope)
            } catch .cloud(let error) {
                // Not in this database: the app's name is in the other, or in neither.
                guard case .gone = RecoveryPolicy.answer(to: error) else { throw .cloud(error) }
            }
        }
    }
}
