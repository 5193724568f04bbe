import Foundation
import SyncCore

/// The newest errors, retries and waits the engine met, for `SyncEngine.diagnostics()`: fed by
/// the engine's events, kept in memory only (a store file does not hold them).
final class TroubleLog: Sendable {
    /// How many it keeps.
    static let capacity = 20

    private let entries = Locked<[SyncDiagnostics.Trouble]>([])

    var recent: [SyncDiagnostics.Trouble] { entries.withLock { $0 } }

    /// Keeps the event if it is trouble.
    func note(_ event: SyncEvent, at now: Date) {
        switch event {
        case .retryScheduled, .waitingForNetwork, .error, .setupFailed, .pushFailed, .assetTransferFailed, .changeSetAside, .recordUnreadable:
            entries.withLock { entries in
                entries.append(SyncDiagnostics.Trouble(at: now, what: event.description))
                if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
            }
        default:
            return
        }
    }
}
