import Foundation
import SyncCore
import SyncPorts

// MARK: - Sharing: who is in a share, and how

/// Each call comes twice: for a root (its share found from the root) and for a share the app
/// holds (a zone-wide share, or any share the engine returned). Both are made on the share as the
/// cloud has it now.
extension SyncEngine {
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

    /// Ends the root's share (deleted by its ID): participants lose it, the records stay the owner's.
    public func stopSharing<Root: ShareableModel>(_ root: Root) async throws(SyncError) {
        let shares = SharePhase(context: context)
        try await shares.stopSharing(try shares.subject(of: root))
    }
}
