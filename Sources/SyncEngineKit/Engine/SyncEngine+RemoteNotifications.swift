import Foundation
import SyncCore
import SyncPorts

// Pushes the app receives: a change in the cloud, a catalog to refresh.
extension SyncEngine {
    /// Handles a push the app received (on Apple platforms, the `userInfo` of
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`): when it is one of
    /// the engine's subscriptions, a pass runs, and the result says whether it brought changes
    /// in. Hand the result to the system (`.newData` or `.noData`; `.notForSync` is the app's own
    /// push to handle). It never reports a failure: a failed pass is retried by the engine.
    public nonisolated func handleRemoteNotification(_ userInfo: [AnyHashable: Any]) async -> RemoteNotificationResult {
        guard let payload = RemoteNotificationPayload(userInfo: userInfo) else { return .notForSync }
        return await handleRemoteNotification(payload)
    }

    /// `handleRemoteNotification(_:)` for a payload already taken out of its dictionary.
    public func handleRemoteNotification(_ payload: RemoteNotificationPayload) async -> RemoteNotificationResult {
        guard let notification = context.cloud.notification(fromRemotePayload: payload),
            AppSubscriptions.isEngines(notification.subscriptionID, prefix: context.configuration.subscriptionPrefix)
        else { return .notForSync }
        heard(notification)
        let before = context.events.pulledChanges
        await sync()
        return context.events.pulledChanges > before ? .newData : .noData
    }

    /// A public type's query subscription fired: the next pass refreshes its catalog and the
    /// records followed of it. The request is kept in the store, so a relaunch before that pass
    /// keeps it too; a store that cannot be written reports it, and the refresh waits for its
    /// maximum age.
    func heard(_ notification: CloudNotification) {
        requestCatalogRefresh(CatalogRefresh.targets(notifiedBy: notification, prefix: context.configuration.subscriptionPrefix, among: context.registry.publicRefreshes))
    }

    func requestCatalogRefresh(_ targets: [CatalogRefresh.Target]) {
        guard !targets.isEmpty else { return }
        do {
            try context.transaction { try CatalogRefresh.request(targets, in: $0) }
        } catch {
            context.events.publish(.error(error))
        }
    }

    /// Queries every public catalog, and reads every followed record, again in a pass, now (a
    /// pull-to-refresh). Otherwise a pass queries a catalog when its subscription fires, when it
    /// was never synced to its end, or when it is older than
    /// ``SyncConfiguration/catalogMaximumAge`` (a followed record by its own maximum age); a
    /// private write never does.
    @discardableResult
    public func refreshCatalogs() async -> PassResult {
        requestCatalogRefresh(context.registry.publicRefreshes)
        return await sync()
    }

    /// Stops the passes `start()` runs (and any retry it scheduled); `sync()` still runs one on request.
    public func stop() {
        for task in background { task.cancel() }
        background = []
        scheduledPass?.cancel()
        scheduledPass = nil
    }
}
