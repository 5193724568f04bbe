import Foundation

/// What the sync engine is doing and how its last passes went, for a status line or an
/// "offline" banner: the state its events and passes add up to (`SyncEngine.status`).
public struct EngineStatus: Sendable, Hashable {
    /// What the engine is doing now.
    public enum Phase: Sendable, Hashable {
        /// No pass runs.
        case idle
        /// A pass started: checking the account, setting up zones and subscriptions.
        case starting
        /// A pass is fetching the cloud's changes.
        case pulling
        /// A pass is sending this device's changes.
        case pushing
        /// A pass is uploading or downloading asset files.
        case transferringAssets
    }

    /// What the engine is doing now.
    public var phase: Phase = .idle
    /// When the last pass that went through ended (the engine's clock), or nil before the first.
    public var lastCompletedPass: Date?
    /// How many records have a change of this device waiting to go up, or set aside.
    public var pendingChanges = 0
    /// Why the last pass failed, or nil if it went through.
    public var lastError: SyncError?
    /// Whether the network is gone: set when a pass found no network, cleared by one that
    /// reached the cloud.
    public var isOffline = false
    /// The user record name of the account the store belongs to (the one signed in when a pass
    /// last checked), or nil when none is. Known at once from the store, before any pass.
    public var userRecordName: String?
    /// How far the running pass (or the last one) got: a progress bar over a first sync.
    public var progress = PassProgress()

    /// What a pass has done so far. CloudKit gives no total for a zone's changes, so records and
    /// pages count up as they are applied (a bar shows them growing, or against a total the app
    /// knows); files count as their transfers end.
    public struct PassProgress: Sendable, Hashable {
        /// Records and deletions pulled and applied.
        public var recordsPulled = 0
        /// Pages of changes applied (a zone's, or a catalog query's).
        public var pagesPulled = 0
        /// Saves and deletions the cloud took.
        public var recordsPushed = 0
        /// Asset files uploaded or downloaded.
        public var filesTransferred = 0

        /// Nothing done yet.
        public init() {}
    }

    /// The status before the engine's first pass.
    public init() {}

    /// The status after one of the engine's events.
    package func applying(_ event: SyncEvent) -> EngineStatus {
        var status = self
        switch event {
        case .pullProgress(_, _, let records, let deletions):
            status.progress.recordsPulled += records + deletions
            status.progress.pagesPulled += 1
        case .pushLanded(let saved, let deleted): status.progress.recordsPushed += saved.count + deleted.count
        case .assetStateChanged(_, .cached): status.progress.filesTransferred += 1
        case .pullStarted: status.phase = .pulling
        case .pushStarted: status.phase = .pushing
        case .assetStateChanged where phase != .idle: status.phase = .transferringAssets
        case .waitingForNetwork: status.isOffline = true
        case .accountChanged(let change): status.userRecordName = change.user
        default: break
        }
        return status
    }

    /// The status as a pass starts, with the changes then pending.
    package func passStarted(pendingChanges: Int) -> EngineStatus {
        var status = self
        status.phase = .starting
        status.pendingChanges = pendingChanges
        status.progress = PassProgress()
        return status
    }

    /// The status as a pass stops at its deadline, or because the app ended it: nothing failed,
    /// but it did not go through, so the last completed pass stays the one before.
    package func passStopped(pendingChanges: Int) -> EngineStatus {
        var status = self
        status.phase = .idle
        status.pendingChanges = pendingChanges
        status.lastError = nil
        return status
    }

    /// The status as a pass ends: `error` nil when it went through, at `now`.
    package func passEnded(error: SyncError?, at now: Date, pendingChanges: Int) -> EngineStatus {
        var status = self
        status.phase = .idle
        status.pendingChanges = pendingChanges
        status.lastError = error
        if let error {
            if case .cloud(let cloud) = error, cloud.code == .networkUnavailable || cloud.code == .networkFailure { status.isOffline = true }
        } else {
            status.lastCompletedPass = now
            status.isOffline = false
        }
        return status
    }
}
