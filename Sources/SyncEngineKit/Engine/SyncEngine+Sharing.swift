import Foundation
import SyncCore
import SyncPorts

// MARK: - Sharing: a share made, and read as the cloud has it

/// A root's share, or the whole zone's, made and read. Who is in it is +ShareParticipants's;
/// joining and leaving someone else's, +ShareMembership's.
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

    /// Shares one of the user's zones whole with `participants`: every record in it, and every
    /// record saved there later, with no further call (a household of many lists). `zone`: a zone
    /// the schema's models name (`zone:`), or nil for the app's sync zone; the user's other zones
    /// stay theirs. Returns the saved share; manage it with the calls that take a `ShareRecord`.
    /// A zone that holds a root's share cannot be shared whole (`alreadyShared`), every model
    /// that lives in the zone must allow the shared database (`invalidArguments` names the ones
    /// that do not), and a zone no model lives in is `invalidArguments`.
    public func shareZone(
        title: String, with participants: [ShareParticipant] = [], publicPermission: SharePermission = .none, zone: String? = nil
    ) async throws(SyncError) -> ShareRecord {
        try await SharePhase(context: context).shareZone(zone, title: title, participants: participants, publicPermission: publicPermission)
    }

    /// Shares one of the user's zones whole with the people `invitations` name, looked up in the
    /// cloud first, as `shareZone(title:with:publicPermission:zone:)` does.
    public func shareZone(
        title: String, inviting invitations: [ShareInvitation], publicPermission: SharePermission = .none, zone: String? = nil
    ) async throws(SyncError) -> ShareRecord {
        let shares = SharePhase(context: context)
        return try await shares.shareZone(zone, title: title, participants: try await shares.participants(for: invitations), publicPermission: publicPermission)
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

    /// The share of one of the user's zones, whole, as the cloud has it now (`zone`: as in
    /// `shareZone`, nil for the sync zone); nil when the zone is not shared whole.
    public func zoneShare(zone: String? = nil) async throws(SyncError) -> ShareRecord? {
        let shares = SharePhase(context: context)
        return try await shares.currentShare(of: try shares.zoneSubject(zone))
    }

    /// The root's share as the cloud has it now: its participants (role, permission, whether they
    /// accepted), its public permission and its link; nil when the root is not shared.
    public func share<Root: ShareableModel>(of root: Root) async throws(SyncError) -> ShareRecord? {
        let shares = SharePhase(context: context)
        return try await shares.currentShare(of: try shares.subject(of: root))
    }
}
