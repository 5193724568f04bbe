import Foundation
import SyncCore
import SyncPorts

// MARK: - Sharing: someone else's share, joined and left

extension SyncEngine {
    /// Leaves someone else's zone-wide share (`store.knownShare(of:)` gives it for any of the
    /// zone's roots): deletes it in the shared database and removes everything of that zone here.
    /// With `keepingACopy`, the zone's records (``ZoneShareCopy/wholeZone``) or the ones this user
    /// created (``ZoneShareCopy/ownRecords``) are first copied into the user's own zones, as
    /// `leaveShare(root, keepingACopy: true)` copies a root's; returns how many records were
    /// copied. A root's share is left with `leaveShare(root)`.
    @discardableResult
    public func leaveShare(_ share: ShareRecord, keepingACopy: ZoneShareCopy? = nil) async throws(SyncError) -> Int {
        try await SharePhase(context: context).leave(zoneShare: share, keeping: keepingACopy)
    }

    /// Accepts a share and returns once its root is stored (`SyncEvent.shareAccepted` says so);
    /// a pass brings the rest of the zone in the background (`sync()` waits for it). If the
    /// cloud cannot be reached, the acceptance is remembered and completed by a later pass. The
    /// metadata comes from the system (on Apple platforms, the CloudKit gateway's conversion of
    /// the `CKShare.Metadata` a tapped link hands the app) or from `acceptShare(at:)`. Accepting
    /// again, or the owner opening their own link, changes nothing.
    public func acceptShare(_ metadata: ShareMetadata) async throws(SyncError) {
        try await SharePhase(context: context).accept(metadata)
        requestPass()
    }

    /// Accepts the share a link leads to (a share's `url`, opened by the app): its metadata is
    /// looked up in the cloud, then accepted as `acceptShare(_:)` does. Offline, the lookup fails
    /// and the error says so; nothing is remembered, since nothing is known of the share yet.
    public func acceptShare(at url: URL) async throws(SyncError) {
        try await SharePhase(context: context).accept(at: url)
        requestPass()
    }

    /// Leaves someone else's share: deletes it in the shared database and removes that root's
    /// subtree here. With `keepingACopy`, the root and everything under it are first copied into
    /// the user's own zone, under new names, as new records the next pass pushes; the copy of the
    /// root is returned. A copy whose natural key one of the user's records has is that record.
    /// A record whose asset file is not on this device refuses the copy
    /// (`AssetError.notOnDevice`) before anything changes.
    @discardableResult
    public func leaveShare<Root: ShareableModel>(_ root: Root, keepingACopy: Bool = false) async throws(SyncError) -> Root? {
        try await SharePhase(context: context).leave(root, keepingACopy: keepingACopy)
    }

    /// Deletes a shared root: the owner's deletion is pushed like any other; a participant's
    /// becomes leaving the share (they may not delete the owner's record).
    public func deleteSharedRoot<Root: ShareableModel>(_ root: Root) async throws(SyncError) {
        if root.resolvedScope == .shared {
            try await leaveShare(root, keepingACopy: false)
        } else {
            try context.appWrite { try $0.delete(root) }
        }
    }

    /// Completes acceptances that could not finish earlier.
    func completePendingAcceptances() async throws(SyncError) {
        let shares = SharePhase(context: context)
        let pending = try shares.pendingAcceptances()
        guard !pending.isEmpty else { return }
        for metadata in pending { try await shares.accept(metadata) }
    }
}
