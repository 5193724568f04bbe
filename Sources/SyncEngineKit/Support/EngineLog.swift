import Foundation
import SyncCore

/// The engine's log (`SyncConfiguration.logHandler`): what each line says and at which level is
/// decided here, the one place. A line is built only when a handler will take it.
struct EngineLog: Sendable {
    let handler: (any SyncLogHandler)?

    func callAsFunction(_ level: SyncLogLevel, _ category: SyncLogCategory, _ message: @autoclosure () -> SyncLogMessage) {
        handler?.log(SyncLogEntry(level: level, category: category, message: message()))
    }

    /// Logs an event at the level someone debugging sync wants it: what needs their eye
    /// (retries, changes set aside or reverted, merges, conflicts, account changes) at `notice`,
    /// the pass's milestones at `info`, progress at `debug`.
    func event(_ event: SyncEvent) {
        let (level, category) = Self.placement(of: event)
        self(level, category, event.logMessage)
    }

    static func placement(of event: SyncEvent) -> (SyncLogLevel, SyncLogCategory) {
        switch event {
        case .pullProgress, .pullStarted, .pushStarted, .pushLanded: (.debug, .changes)
        case .assetStateChanged: (.debug, .assets)
        case .pullCompleted, .pushCompleted, .zoneMoved: (.info, .changes)
        case .setupCompleted: (.info, .account)
        case .shareAccepted: (.info, .sharing)
        case .pushFailed, .changeSetAside, .changeReverted, .recordUnreadable, .removedWithParent, .changeLostToDeletion, .danglingReferences: (.notice, .changes)
        case .conflictResolved, .conflictRecorded, .duplicatesMerged: (.notice, .merges)
        case .accountUnavailable, .accountChanged, .changesParked, .parkedChangesRestored, .userDeletedZone, .encryptedDataReset: (.notice, .account)
        case .shareEnded: (.notice, .sharing)
        case .retryScheduled, .waitingForNetwork: (.notice, .pass)
        case .assetTransferFailed, .assetTransfersWaiting: (.notice, .assets)
        case .setupFailed: (.error, .account)
        case .error: (.error, .pass)
        }
    }

    /// How long something took, for a line: "0.12 s".
    static func duration(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        return String(format: "%.3f s", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
