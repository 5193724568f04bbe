import Foundation
import SyncCore
import SyncPorts

/// Who is in a share and how: invitations, removals, permissions, the link, the end of a share.
extension SharePhase {
    /// Adds participants to an existing share. One already in it stays as they are; one who
    /// left or was removed is invited again.
    func invite(_ participants: [ShareParticipant], to subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        try await change(subject) { share throws(SyncError) in
            for participant in participants {
                guard let index = share.participants.firstIndex(where: { $0.isSamePerson(as: participant) }) else {
                    share.participants.append(participant)
                    continue
                }
                if share.participants[index].acceptanceStatus == .removed { share.participants[index] = participant }
            }
        }
    }

    /// The share as the cloud has it now; nil when there is none.
    func currentShare(of subject: ShareSubject) async throws(SyncError) -> ShareRecord? {
        switch RecoveryPolicy.answer(try await context.cloud.fetchShares([subject.id], in: .private)[subject.id], for: subject) {
        case .done(var share):
            // CloudKit does not say which root a fetched share is for (the root names its share,
            // not the other way round): the subject says.
            if share.rootRecordName == nil { share.rootRecordName = subject.rootRecordName }
            return try keep(share)
        case .gone:
            try context.transaction { try $0.forgetShare(subject.id) }
            return nil
        case let other: throw .cloud(other.failure!)
        }
    }

    /// Removes a person from the share: they lose the shared records at their next pass. The
    /// share goes to the cloud with them marked removed, and with everyone else as the cloud
    /// listed them: nobody the app did not name is removed, whether or not this device can tell
    /// who they are (a one-time link's invitee has no name until they accept).
    func remove(_ participant: ShareParticipant, from subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        try await change(subject) { share throws(SyncError) in
            share.participants[try Self.index(of: participant, in: share, subject: subject)].acceptanceStatus = .removed
        }
    }

    /// Changes what a person of the share may do.
    func setPermission(_ permission: SharePermission, of participant: ShareParticipant, on subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        guard permission != .none else {
            throw .cloud(CloudError(.invalidArguments, "a participant's permission is readOnly or readWrite; remove the participant to take the share away"))
        }
        return try await change(subject) { share throws(SyncError) in
            share.participants[try Self.index(of: participant, in: share, subject: subject)].permission = permission
        }
    }

    /// Opens the share to anyone with its link (`readOnly`, `readWrite`), or closes it (`none`):
    /// the cloud then removes whoever joined by the link.
    func setPublicPermission(_ permission: SharePermission, on subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        try await change(subject) { share throws(SyncError) in share.publicPermission = permission }
    }

    /// Where a person other than the owner stands in the share, or an error naming them.
    private static func index(of participant: ShareParticipant, in share: ShareRecord, subject: ShareSubject) throws(SyncError) -> Int {
        guard let index = share.participants.firstIndex(where: { $0.isSamePerson(as: participant) && $0.acceptanceStatus != .removed }) else {
            throw .cloud(CloudError(.unknownItem, "\(participant.described) does not take part in \(subject)"))
        }
        guard share.participants[index].role != .owner else {
            throw .cloud(CloudError(.invalidArguments, "the owner of \(subject) stays in it; stop sharing to end it"))
        }
        return index
    }

    /// Changes the share as the cloud has it: fetched, changed, and saved over the version
    /// fetched. A save that meets a newer version (someone accepted, another device of the owner
    /// changed the share) fetches again and makes the change on that, once more.
    private func change(_ subject: ShareSubject, _ change: (inout ShareRecord) throws(SyncError) -> Void) async throws(SyncError) -> ShareRecord {
        let saved = try await RecoveryPolicy.savingAgainOnConflict(subject) { (_: CloudError?) async throws(SyncError) -> Result<ShareRecord, CloudError>? in
            guard let current = try await currentShare(of: subject) else {
                throw .cloud(CloudError(.unknownItem, "\(subject) does not exist"))
            }
            var share = current
            try change(&share)
            if let problem = ShareLinkRule.problem(saving: share, over: current) { throw .cloud(CloudError(.invalidArguments, problem)) }
            return try await context.cloud.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[subject.id]
        }
        return try keep(try saved.value())
    }

    /// Stops sharing: the share is deleted by its ID, never looked for.
    func stopSharing(_ subject: ShareSubject) async throws(SyncError) {
        let result = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: [subject.id]), in: .private)
        // A share gone already is stopped.
        if let error = result.itemErrors[subject.id], !RecoveryPolicy.answer(to: error).isGone { throw .cloud(error) }
        try context.transaction { store in
            try store.forgetShare(subject.id)
            guard let root = subject.rootRecordName, var server = try store.serverRecord(RecordID(recordName: root, zoneID: subject.id.zoneID)) else { return }
            server.shareRecordName = nil
            try store.setServerRecord(server)
        }
    }

    /// The share of a root, the user's own or someone else's: the one its server version names,
    /// else the name the engine gives a root's share.
    func subject<Root: ShareableModel>(of root: Root) throws(SyncError) -> ShareSubject {
        let rootID = root.makeRecord(routes: context.routes).id
        let name = try context.transaction { try $0.serverRecord(rootID)?.shareRecordName } ?? Self.shareRecordName(forRoot: root.recordName)
        return ShareSubject(id: RecordID(recordName: name, zoneID: rootID.zoneID), rootRecordName: root.recordName)
    }

    /// The share of one of the user's zones, whole: `zoneName`'s (a zone a model names), or the
    /// sync zone's when nil. A name no model lives in is refused: nothing would ever be shared.
    func zoneSubject(_ zoneName: String?) throws(SyncError) -> ShareSubject {
        let zone = ZoneID(zoneName: zoneName ?? context.configuration.syncZoneName, ownerName: SyncConstants.currentUserOwnerName)
        guard context.ownZones.contains(zone) else {
            throw .cloud(CloudError(.invalidArguments, "no model of this app lives in zone '\(zone.zoneName)'; its zones are \(context.ownZones.map(\.zoneName).joined(separator: ", "))"))
        }
        return ShareSubject(id: RecordID(recordName: ShareRecord.zoneWideRecordName, zoneID: zone), rootRecordName: nil)
    }

    /// The people invitations name, looked up in the cloud (the only way CloudKit makes
    /// participants), each with the invitation's permission. One that cannot be found fails the
    /// call, naming how it was looked up: a share never goes out to fewer people than asked.
    func participants(for invitations: [ShareInvitation]) async throws(SyncError) -> [ShareParticipant] {
        guard !invitations.isEmpty else { return [] }
        let found = try await context.cloud.participants(for: invitations.map(\.lookup))
        var participants: [ShareParticipant] = []
        for invitation in invitations {
            switch found[invitation.lookup] {
            case .success(var participant):
                participant.permission = invitation.permission
                participants.append(participant)
            case .failure(let error):
                throw .cloud(error.explained("\(invitation.lookup) could not be found"))
            case nil:
                throw .cloud(CloudError.noResult(for: invitation.lookup))
            }
        }
        return participants
    }
}
