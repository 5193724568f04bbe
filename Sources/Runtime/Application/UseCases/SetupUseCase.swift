import Foundation

/// What has to be in place before anything syncs: the sync zone (created again on transient
/// failures only) and the subscriptions that wake the engine when something changes.
struct SetupUseCase {
    let context: SyncContext

    /// Transient failures (rate limits, busy, unavailable, network) are retried this many times,
    /// waiting 1 s then 2 s on the engine's clock; anything else fails setup at once.
    static let zoneAttempts = 3

    func execute() async throws(CloudError) {
        try await createZone()
        let prefix = context.configuration.subscriptionPrefix
        try await context.gateway.saveSubscription(.database(id: "\(prefix)-private", scope: .private))
        try await context.gateway.saveSubscription(.database(id: "\(prefix)-shared", scope: .shared))
        for type in context.registry.catalogTypes {
            try await context.gateway.saveSubscription(.query(id: "\(prefix)-\(type.recordType)", recordType: type.recordType))
        }
    }

    private func createZone() async throws(CloudError) {
        var wait: TimeInterval = 1
        for attempt in 1...Self.zoneAttempts {
            do {
                try await context.gateway.saveZones([context.syncZone])
                return
            } catch {
                guard attempt < Self.zoneAttempts, Self.isTransient(error) else { throw error }
                do { try await context.clock.sleep(until: context.clock.now + wait) } catch { throw CloudError(.serviceUnavailable, "cancelled") }
                wait *= 2
            }
        }
    }

    static func isTransient(_ error: CloudError) -> Bool {
        switch RecoveryPolicy.action(for: error) {
        case .retry, .waitForNetwork: true
        default: false
        }
    }
}
