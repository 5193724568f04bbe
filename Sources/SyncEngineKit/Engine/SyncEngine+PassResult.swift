import Foundation
import SyncCore

extension SyncEngine {
    /// How one pass ended.
    public enum PassResult: Sendable, Equatable, CustomStringConvertible {
        /// Everything went through: pulled, pushed (or set aside, or reverted), transferred.
        case completed
        /// The pass stopped at this error; the action is what the engine does about it (a retry
        /// when it can help, scheduled by `start()`'s driver; `report` when only a change can).
        case failed(SyncError, RecoveryAction)
        /// The pass reached its deadline (`SyncOptions.deadline`) or the app ended it
        /// (`endPassSoon()`): what it did is committed, and `pendingChanges` records still wait
        /// to be pushed. Nothing is retried by itself: the next trigger, or `sync()`, goes on.
        case stopped(pendingChanges: Int)

        public var description: String {
            switch self {
            case .completed: "completed"
            case .failed(let error, let action): "failed (\(action)): \(error)"
            case .stopped(let pending): "stopped at its deadline, \(SyncEvent.count(pending, "change")) left to push"
            }
        }
    }
}
