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

    /// The status before the engine's first pass.
    public init() {}

    /// The status after one of the engine's events.
    package func applying(_ event: SyncEvent) -> EngineStatus {
        var status = self
        switch event {
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
