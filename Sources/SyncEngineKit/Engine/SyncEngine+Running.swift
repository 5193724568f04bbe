import Foundation
import SyncCore
import SyncPorts

// Running by itself: passes when the app writes, when the network comes back, and on a timer.
extension SyncEngine {
    /// Syncs now, then whenever the app writes (after the writes settle), a subscription fires,
    /// or a retry is due. Calling it again does nothing.
    public func start() {
        guard background.isEmpty else { return }
        let localChanges = context.store.changes()
        let debounce = context.configuration.debounce
        let clock = context.clock
        background.append(Task { [weak self] in
            for await _ in localChanges {
                do { try await clock.sleep(until: clock.now + debounce) } catch { return }
                await self?.requestPass()
            }
        })
        let notifications = context.cloud.notifications()
        background.append(Task { [weak self] in
            for await notification in notifications {
                await self?.heard(notification)
                await self?.requestPass()
            }
        })
        // A pass checks the account first: a switch is handled there.
        let accountChanges = context.cloud.accountChanges()
        background.append(Task { [weak self] in
            for await _ in accountChanges {
                await self?.requestPass()
            }
        })
        if let changes = reachability?.conditions() {
            let configuration = context.configuration
            background.append(Task { [weak self] in
                var before = DeviceConditions.unrestricted
                for await now in changes {
                    if now.isNetworkAvailable { await self?.networkIsThere(cameBack: !before.isNetworkAvailable) }
                    // Transfers a pass held back may go now.
                    if !configuration.conditionsHoldingAssetTransfers(before).isEmpty, configuration.conditionsHoldingAssetTransfers(now).isEmpty {
                        await self?.requestPass()
                    }
                    before = now
                }
            })
        }
        requestPass()
    }

    /// A path to the network exists: a pass waiting for it (a retry scheduled after the network
    /// went, or a path that was gone) runs now rather than when its wait ends.
    func networkIsThere(cameBack: Bool) {
        guard cameBack || statusHub.status.isOffline else { return }
        context.log(.notice, .pass, "the network is there: passing now")
        scheduledPass?.cancel()
        scheduledPass = nil
        requestPass()
    }

    /// The conditions holding a pass's asset transfers back now (none without a reachability).
    nonisolated var conditionsHoldingAssetTransfers: Set<DeviceCondition> {
        context.configuration.conditionsHoldingAssetTransfers(reachability?.currentConditions() ?? .unrestricted)
    }
}
