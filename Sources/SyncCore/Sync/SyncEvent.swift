import Foundation

/// What the engine is doing, as structured values: an app renders them in its own words and
/// language, and tests assert on them. Never pre-rendered text.
public enum SyncEvent: Sendable, Hashable {
    case setupCompleted
    /// Setup (the zone, the subscriptions) failed; nothing is pulled or pushed until it succeeds.
    case setupFailed(SyncError)
    /// No usable account: only public catalogs are read until there is one.
    case accountUnavailable(AccountStatus)
    /// The store's account changed: a first sign-in (what was written while no account was signed
    /// in belongs to it), a sign-out or a switch. On a sign-out or a switch the previous account's
    /// local data was removed (its unpushed changes parked, see `changesParked`).
    case accountChanged(AccountChange)
    /// Unpushed changes of an account that signed out wait for it to sign in again.
    case changesParked(ParkedChanges)
    /// An account signed in again: the changes it parked are back, to be pushed.
    case parkedChangesRestored(count: Int)
    case pullStarted(DatabaseScope)
    /// One page of a zone (or a catalog query) was applied.
    case pullProgress(scope: DatabaseScope, zone: ZoneID, records: Int, deletions: Int)
    case pullCompleted(DatabaseScope)
    case pushStarted(items: Int)
    /// One request of a push landed: the records whose saved version is in the cloud now, and
    /// those whose deletion the cloud confirmed, by type and name. One event per request that
    /// landed any, as it lands, so each list holds at most what one request carries (400); a push
    /// that fails later still names what landed. The changes not pushed come as `pushFailed`,
    /// `changeSetAside` or `changeReverted`.
    case pushLanded(saved: [RecordKey], deleted: [RecordKey])
    case pushCompleted(saved: Int, deleted: Int)
    /// Items that could not be pushed for now; they stay pending, and are tried again.
    case pushFailed([RecordID: CloudError])
    /// A change the cloud refused for good was set aside; the rest of the queue moved on.
    /// `SyncEngine.failedChanges()` lists such changes; retry or revert them there.
    case changeSetAside(FailedChange)
    /// The cloud refused a change this user may not make (a read-only share, a record of someone
    /// else's): the record is as the cloud has it again, or gone when the cloud never had it.
    /// Announced once; the change is not sent again.
    case changeReverted(FailedChange)
    /// A record the cloud listed as changed but could not deliver still failed after being
    /// fetched again by name ``UnreadableRecord/fetchesBeforeSetAside`` times: it is set aside
    /// (`SyncEngine.unreadableRecords()`), and asked for again when the app says so. Its zone
    /// syncs on without it.
    case recordUnreadable(UnreadableRecord)
    /// A record that was changed went with its parent, deleted on another device (or with an
    /// ancestor: `parentRecordName` names the record whose deletion took it): an edit of it, or a
    /// move or addition into the parent, made where the deletion was not known yet, is gone with
    /// it. The deletion wins, on every device.
    case removedWithParent(RecordKey, parentRecordName: String)
    /// A record this device had changed (an edit waiting to go up, or set aside) was deleted on
    /// another device (or, for a natural key's copy, went with the survivor a user deleted)
    /// before the change reached the cloud: the deletion wins, on every device, and the change is
    /// gone with the record.
    case changeLostToDeletion(RecordKey)
    /// A server change and a local change to one record were merged.
    case conflictResolved(RecordID)
    /// The merge settled fields both sides changed: how, and from which values. Kept in the store
    /// (`SyncStore.conflicts(of:recordName:)`) for `SyncConfiguration.conflictRetention`.
    case conflictRecorded(RecordConflict)
    /// Records that shared a natural key became one: the survivor (the smallest record name) took
    /// the others' fields, references and children, and the others were deleted everywhere.
    case duplicatesMerged(RecordKey, merged: [String])
    /// A share was accepted: its root (when it has one) is stored, for the app to show at once;
    /// the rest of its zone follows in the background.
    case shareAccepted(ShareMetadata)
    /// A shared zone or share root this user could read is gone (the owner stopped sharing,
    /// removed this user, turned off the link this user joined by, or deleted the root), or this
    /// user left it; its local copy was removed. `lostChanges`: the records this device had
    /// changed there (an edit, an addition, a deletion) and the cloud never received: those
    /// changes are gone with the share, and this is the only word of them.
    case shareEnded(ZoneID, rootRecordName: String?, lostChanges: [RecordKey] = [])
    /// References whose targets could not be found after the repair rounds.
    case danglingReferences([String])
    /// The user deleted the app's data in Settings: nothing is re-uploaded until the app decides
    /// (`uploadAgainAfterUserDeletedZone()` or `removeLocalDataOfUserDeletedZone()`).
    case userDeletedZone(ZoneID)
    /// Every record of a zone this device moved (`SyncEngine.moveZone(_:into:)`) is in the zone it
    /// moved into, and the copies the move left are removed: the move is done.
    case zoneMoved(ZoneID, into: ZoneID)
    /// The user reset their encrypted data: the zone was created again and its records are
    /// uploaded again from this device.
    case encryptedDataReset(ZoneID)
    /// A failed pass will be retried after this many seconds (virtual time under a manual clock),
    /// because of `reason`.
    case retryScheduled(after: TimeInterval, reason: SyncError)
    /// The network is gone; the engine checks again at `date`.
    case waitingForNetwork(retryAfter: TimeInterval)
    /// A record's asset changed state on this device.
    case assetStateChanged(AssetKey, AssetCacheState)
    /// An asset transfer failed; the asset fell back (`local` or `remote`) and is tried again later.
    case assetTransferFailed(AssetKey, SyncError)
    /// A pass held its asset uploads and downloads back, for the conditions named (those the
    /// configuration's `assetTransfersWaitFor` names that hold now); its records went. Published
    /// by each pass that holds them; a running engine passes again once none holds.
    case assetTransfersWaiting(Set<DeviceCondition>)
    /// A pass failed for a reason no retry fixes by itself (`RecoveryPolicy.retryDelay` gives
    /// none): the next app write, notification or `sync()` tries again.
    case error(SyncError)
}
