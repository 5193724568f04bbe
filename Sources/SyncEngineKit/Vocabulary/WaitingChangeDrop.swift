import Foundation

/// What `SyncEngine.dropWaitingChange(for:recordName:)` did with a record's change that waited to
/// be pushed.
public enum WaitingChangeDrop: Sendable, Hashable {
    /// Taken back: the record is the version the cloud last returned to this device again, or
    /// it is gone when the cloud never had it (created here and never pushed).
    case dropped
    /// No change of the record waits (a change the cloud refused is reverted with
    /// `revertFailedChange`).
    case nothingWaiting
    /// The change may be on its way to the cloud (a push is running, or a request that carried
    /// it went out and its answer was never read): it cannot be taken back now. Ask again once
    /// the pass ended, or save the record as it should be.
    case inFlight
}
