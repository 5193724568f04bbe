import Foundation
import SyncCore
import SyncPorts

/// What has to be in place before anything syncs: the sync zone and the subscriptions that wake
/// the engine when something changes. A failure fails the pass, and the engine's recovery policy
/// decides when setup is tried again (a transient error after its wait, with backoff); nothing
/// waits inside the pass.
struct SetupPhase {
    let context: SyncContext

    func execute() async throws(SyncError) {
        try await context.cloud.saveZones(context.ownZones)
        let prefix = context.configuration.subscriptionPrefix
        try await context.cloud.saveSubscription(.database(id: AppSubscriptions.engineID("private", prefix: prefix), scope: .private))
        try await context.cloud.saveSubscription(.database(id: AppSubscriptions.engineID("shared", prefix: prefix), scope: .shared))
        for type in context.registry.watchedPublicTypes {
            try await context.cloud.saveSubscription(.query(QuerySubscription(id: CatalogRefresh.subscriptionID(for: type, prefix: prefix), recordType: type)))
        }
    }
}
