/// Where a record's asset stands on this device. Every asset the cache knows has one of these
/// states, written explicitly; an asset the cache does not know has none, and is never taken for
/// one waiting to upload.
///
///     attach   -> local -> upload -> uploading -> cached
///     pulled   -> remote -> download -> downloading -> cached
///     evicted  -> cached -> unload -> remote
///
/// A failed upload falls back to `local`, a failed download to `remote`. A transfer interrupted
/// by the app ending is taken up again at the next start (`uploading` -> `local`,
/// `downloading` -> `download`).
public enum AssetCacheState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The file is on this device only: an upload is owed (waiting for the record to be pushed).
    case local
    /// The record is in the cloud and the upload is scheduled.
    case upload
    /// The upload is in flight.
    case uploading
    /// The file is on this device and the same contents are in the cloud.
    case cached
    /// The contents are in the cloud, not on this device (or this device's copy is stale).
    case remote
    /// A download is requested.
    case download
    /// The download is in flight.
    case downloading
    /// The file is being evicted from the cache.
    case unload

    public var description: String { rawValue }

    /// Whether this device holds the asset's file.
    public var hasLocalFile: Bool {
        switch self {
        case .local, .upload, .uploading, .cached, .unload: true
        case .remote, .download, .downloading: false
        }
    }

    /// Whether the file holds contents the cloud does not have yet: never evicted, never replaced
    /// by a download.
    public var isAwaitingUpload: Bool {
        self == .local || self == .upload || self == .uploading
    }

    /// The state after `event`, or nil when the event cannot happen in this state.
    package func after(_ event: AssetCacheEvent) -> AssetCacheState? {
        switch (self, event) {
        case (_, .attached): .local
        case (.local, .recordPushed): .upload
        case (.upload, .transferStarted): .uploading
        case (.uploading, .transferSucceeded): .cached
        case (.uploading, .transferFailed), (.upload, .transferFailed): .local
        case (.remote, .downloadRequested), (.download, .downloadRequested): .download
        case (.download, .transferStarted): .downloading
        case (.downloading, .transferSucceeded): .cached
        case (.downloading, .transferFailed), (.download, .transferFailed): .remote
        case (.cached, .evictionChosen): .unload
        case (.unload, .evicted): .remote
        case (.cached, .remoteChanged), (.unload, .remoteChanged): .remote
        case (.remote, .remoteChanged), (.download, .remoteChanged): self
        case (.uploading, .interrupted): .local
        case (.downloading, .interrupted): .download
        case (.unload, .interrupted): .remote
        default: nil
        }
    }
}

/// What happens to an asset: the inputs of the cache's state machine.
package enum AssetCacheEvent: Sendable, Hashable {
    /// The app attached a file.
    case attached
    /// The record the asset belongs to is in the cloud: its upload can be scheduled.
    case recordPushed
    case downloadRequested
    case transferStarted
    case transferSucceeded
    case transferFailed
    /// The cloud's fingerprint (the size) differs from this device's copy.
    case remoteChanged
    /// The cache chose this file to evict.
    case evictionChosen
    /// The evicted file is gone.
    case evicted
    /// The app ended while the asset was in flight.
    case interrupted
}
