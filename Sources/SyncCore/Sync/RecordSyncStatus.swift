import Foundation

/// Where one record stands with the cloud, for a badge beside it: in the cloud as it is here,
/// waiting to go up, or refused; and when sync last merged a concurrent edit into it.
public struct RecordSyncStatus: Sendable, Hashable {
    /// Where the record's latest change stands.
    public enum State: Sendable, Hashable {
        /// No change of this device waits: the cloud has the record as it is here.
        case synced
        /// A change of this device waits to be pushed, the oldest since that time.
        case waitingToUpload(since: Date)
        /// The cloud refused the change for good: it is set aside, with the error, until the app
        /// retries it (`SyncEngine.retryFailedChange`) or reverts it (`revertFailedChange`).
        case failed(FailedChange)
    }

    /// Where the record's latest change stands.
    public var state: State
    /// When sync last resolved a conflict on the record by itself (merging a concurrent edit of
    /// another device with this one's), or nil if it never had to.
    public var lastConflictResolution: Date?
    /// The newest conflict kept of the record whose fields both sides changed: the values it was
    /// settled from, for the app to show or take back.
    public var lastConflict: RecordConflict?

    /// A status.
    public init(state: State, lastConflictResolution: Date? = nil, lastConflict: RecordConflict? = nil) {
        self.state = state
        self.lastConflictResolution = lastConflictResolution
        self.lastConflict = lastConflict
    }
}
