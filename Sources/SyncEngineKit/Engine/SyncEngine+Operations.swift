import Foundation
import SyncCore
import SyncPorts

// MARK: - Publishing (local writes, pushed by the next pass)

extension SyncEngine {
    /// Publishes a draft: creates or updates its public projection (same recordName). A governed
    /// projection starts in its model's initial state; later publishes bump the version and keep
    /// the state (a taken-down item stays down).
    public func publish<Draft: PublishableModel>(_ draft: Draft) throws(PublishError) {
        try PublishPhase(context: context).publish(draft)
    }

    /// Removes a draft's public projection.
    public func unpublish<Draft: PublishableModel>(_ draft: Draft.Type, recordName: String) throws(PublishError) {
        try PublishPhase(context: context).unpublish(draft, recordName: recordName)
    }

    /// Deletes a draft together with its public projection (deleting the draft alone would leave
    /// the public copy published).
    public func deleteDraft<Draft: PublishableModel>(_ draft: Draft) throws(PublishError) {
        try PublishPhase(context: context).deleteDraft(draft)
    }

    /// Hides a governed catalog record (it stays in the public database, delisted).
    public func takedown<Projection: PublicationGovernedModel>(_ type: Projection.Type, recordName: String) throws(PublishError) {
        try PublishPhase(context: context).setState(.delisted, of: type, recordName: recordName)
    }

    /// Lists a taken-down projection again (a local write, pushed by the next pass); its version stays.
    public func relist<Projection: PublicationGovernedModel>(_ type: Projection.Type, recordName: String) throws(PublishError) {
        try PublishPhase(context: context).setState(.listed, of: type, recordName: recordName)
    }
}

// MARK: - Sharing

extension SyncEngine {
    /// Shares a root record the current user owns; returns the saved share.
    public func share<Root: ShareableModel>(
        _ root: Root, title: String? = nil, with participants: [ShareParticipant] = [], publicPermission: SharePermission = .none
    ) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).share(root, title: title, participants: participants, publicPermission: publicPermission)
    }

    /// Shares a root record the current user owns with the people `invitations` name, looked up
    /// in the cloud first (by email address, phone number or user record name); returns the saved
    /// share, whose `url` is the link to send them. One person who cannot be found fails the call.
    public func share<Root: ShareableModel>(
        _ root: Root, title: String? = nil, inviting invitations: [ShareInvitation], publicPermission: SharePermission = .none
    ) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.share(root, title: title, participants: try await shares.participants(for: invitations), publicPermission: publicPermission)
    }

    /// Shares the user's whole zone with `participants`: every record in it, and every record
    /// saved there later, with no further call (a household of many lists). Returns the saved
    /// share; manage it with the calls that take a `ShareRecord`. A zone that holds a root's share
    /// cannot be shared whole (`alreadyShared`), and every model that can live in the zone must
    /// allow the shared database (`invalidArguments` names the ones that do not).
    public func shareZone(
        title: String, with participants: [ShareParticipant] = [], publicPermission: SharePermission = .none
    ) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).shareZone(title: title, participants: participants, publicPermission: publicPermission)
    }

    /// Shares the user's whole zone with the people `invitations` name, looked up in the cloud
    /// first, as `shareZone(title:with:)` does.
    public func shareZone(
        title: String, inviting invitations: [ShareInvitation], publicPermission: SharePermission = .none
    ) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.shareZone(title: title, participants: try await shares.participants(for: invitations), publicPermission: publicPermission)
    }

    /// The root's share for the system's sharing UI, which manages its people itself: the share as
    /// the cloud has it, or, for a root never shared, a new one with no one invited yet (saved
    /// with the root, as `share(_:)` does). On Apple platforms the CloudKit gateway turns it into
    /// the `CKShare` the sheet takes (`CloudKitGateway.systemShare(for:)`); what the sheet
    /// changes reaches the store at the next pass, as any change of the share does.
    public func shareForSystemSharing<Root: ShareableModel>(_ root: Root, title: String? = nil) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        if let current = try await shares.currentShare(of: try shares.subject(of: root)) { return current }
        return try await shares.share(root, title: title, participants: [], publicPermission: .none)
    }

    /// The share of the user's whole zone as the cloud has it now; nil when the zone is not
    /// shared whole.
    public func zoneShare() async throws(SyncError) -> ShareRecord? {
        let shares = SharePhase(context: context)
        return try await shares.currentShare(of: shares.zoneSubject)
    }

    /// Adds participants to the root's share; returns the share as the cloud saved it.
    public func invite<Root: ShareableModel>(_ participants: [ShareParticipant], to root: Root) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.invite(participants, to: try shares.subject(of: root))
    }

    /// Adds the people `invitations` name to the root's share, looked up in the cloud first;
    /// returns the share as the cloud saved it. One person who cannot be found fails the call.
    public func invite<Root: ShareableModel>(_ invitations: [ShareInvitation], to root: Root) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.invite(try await shares.participants(for: invitations), to: try shares.subject(of: root))
    }

    /// The root's share as the cloud has it now: its participants (role, permission, whether they
    /// accepted), its public permission and its link; nil when the root is not shared.
    public func share<Root: ShareableModel>(of root: Root) async throws(SyncError) -> ShareRecord? {
        let shares = SharePhase(context: context)
        return try await shares.currentShare(of: try shares.subject(of: root))
    }

    /// Removes a person from the root's share (found as `ShareParticipant.isSamePerson` says);
    /// they lose the shared records at their next pass. Returns the share as the cloud saved it.
    /// Removing the owner, or someone not in the share, fails and names them.
    public func removeParticipant<Root: ShareableModel>(_ participant: ShareParticipant, from root: Root) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.remove(participant, from: try shares.subject(of: root))
    }

    /// Changes what a person of the root's share may do (`readOnly` or `readWrite`). Returns the
    /// share as the cloud saved it.
    public func setPermission<Root: ShareableModel>(
        _ permission: SharePermission, for participant: ShareParticipant, on root: Root
    ) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.setPermission(permission, of: participant, on: try shares.subject(of: root))
    }

    /// Lets anyone with the root's share link join (`readOnly` or `readWrite`), or turns the link
    /// off (`none`): whoever joined by it is then removed, as CloudKit does. Returns the share as
    /// the cloud saved it.
    public func setPublicPermission<Root: ShareableModel>(_ permission: SharePermission, on root: Root) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.setPublicPermission(permission, on: try shares.subject(of: root))
    }

    // The same calls for a share the app holds (a zone-wide share, or any share the engine
    // returned): each is made on the share as the cloud has it now.

    /// Adds participants to the share; returns it as the cloud saved it.
    public func invite(_ participants: [ShareParticipant], to share: ShareRecord) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).invite(participants, to: ShareSubject(share))
    }

    /// Adds the people `invitations` name to the share, looked up in the cloud first.
    public func invite(_ invitations: [ShareInvitation], to share: ShareRecord) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.invite(try await shares.participants(for: invitations), to: ShareSubject(share))
    }

    /// Removes a person from the share, as `removeParticipant(_:from:)` does for a root's.
    public func removeParticipant(_ participant: ShareParticipant, from share: ShareRecord) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).remove(participant, from: ShareSubject(share))
    }

    /// Changes what a person of the share may do (`readOnly` or `readWrite`).
    public func setPermission(_ permission: SharePermission, for participant: ShareParticipant, on share: ShareRecord) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).setPermission(permission, of: participant, on: ShareSubject(share))
    }

    /// Opens the share to its link (`readOnly` or `readWrite`) or turns the link off (`none`).
    public func setPublicPermission(_ permission: SharePermission, on share: ShareRecord) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).setPublicPermission(permission, on: ShareSubject(share))
    }

    /// Ends the share (deleted by its ID): participants lose what it shared, the records stay the
    /// owner's.
    public func stopSharing(_ share: ShareRecord) async throws(SyncError) {
        try await SharePhase(context: context).stopSharing(ShareSubject(share))
    }

    /// Leaves someone else's zone-wide share (`store.knownShare(of:)` gives it for any of the
    /// zone's roots): deletes it in the shared database and removes everything of that zone here.
    /// A root's share is left with `leaveShare(root)`.
    public func leaveShare(_ share: ShareRecord) async throws(SyncError) {
        try await SharePhase(context: context).leave(zoneShare: share)
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

    /// Ends the root's share (deleted by its ID): participants lose it, the records stay the owner's.
    public func stopSharing<Root: ShareableModel>(_ root: Root) async throws(SyncError) {
        let shares = SharePhase(context: context)
        try await shares.stopSharing(try shares.subject(of: root))
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
