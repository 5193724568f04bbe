import Foundation

/// What the engine is doing, as structured values: an app renders them in its own words and
/// language, and tests assert on them. Never pre-rendered text.
public enum SyncEvent: Sendable, Hashable {
    case setupCompleted
    case setupFailed(CloudError)
    /// The signed-in account is not usable; nothing syncs until it is.
    case accountUnavailable(AccountStatus)
    /// Another account signed in: the previous account's local data was removed.
    case accountChanged
    case pullStarted(DatabaseScope)
    /// One page of a zone (or a catalog query) was applied.
    case pullProgress(scope: DatabaseScope, zone: ZoneID, records: Int, deletions: Int)
    case pullCompleted(DatabaseScope)
    case pushStarted(items: Int)
    case pushCompleted(saved: Int, deleted: Int)
    /// Items that could not be pushed; they stay pending.
    case pushFailed([RecordID: CloudError])
    /// A server change and a local change to one record were merged.
    case conflictResolved(RecordID)
    /// A shared zone or share root this user could read is gone; its local copy was removed.
    case shareEnded(ZoneID, rootRecordName: String?)
    /// References whose targets could not be found after the repair rounds.
    case danglingReferences([String])
    /// The user deleted the app's data in Settings: nothing is re-uploaded until the app asks.
    case userDeletedZone(ZoneID)
    /// A failed pass will be retried at `date` (virtual time under a manual clock).
    case retryScheduled(after: TimeInterval, reason: CloudErrorCode)
    /// The network is gone; the engine checks again at `date`.
    case waitingForNetwork(retryAfter: TimeInterval)
    /// A record's asset changed state on this device.
    case assetStateChanged(AssetKey, AssetCacheState)
    /// An asset transfer failed; the asset fell back (`local` or `remote`) and is tried again later.
    case assetTransferFailed(AssetKey, CloudError)
    case error(CloudError)
}
