import SyncCore

/// What LocalCloud's server does with the participants of a share its owner saves, written from
/// Apple's text alone (the engine checks its own requests with its own code, so an engine that
/// forgets a rule meets this one). Where Apple's text allows two readings, the harsher holds.
enum LocalCloudShareParticipants {
    /// Why the server refuses to save `share` over `existing` (nil for a new share), or nil.
    ///
    /// - Apple, `CKShare.h`, `addParticipant:`: "In order to modify the list of participants, a
    ///   share must have publicPermission set to CKShareParticipantPermissionNone": while the link
    ///   is open and stays open, nobody is invited or removed.
    /// - `CKShareParticipantRolePublicUser`: "owners cannot add public users": someone who did not
    ///   join by the link (or whose joining ended) is never written in as one.
    static func problem(saving share: ShareRecord, over existing: ShareRecord?) -> String? {
        let joined = existing?.participants.filter { $0.role == .publicUser && $0.acceptanceStatus != .removed } ?? []
        for sent in share.participants where sent.role == .publicUser && sent.acceptanceStatus != .removed {
            guard joined.contains(where: { isSamePerson($0, sent) }) else {
                return "owners cannot add public users (CloudKit's CKShareParticipantRolePublicUser): a public participant joins by the share's link"
            }
        }
        guard let existing, existing.publicPermission != .none, share.publicPermission != .none else { return nil }
        let before = invited(in: existing.participants), after = invited(in: share.participants)
        let unchanged = before.count == after.count && before.allSatisfy { person in after.contains { isSamePerson($0, person) } }
        return unchanged ? nil : "a share's participants change only while its publicPermission is none (CloudKit's CKShare.h, addParticipant:): close the link first"
    }

    /// The participants the server keeps for `share` saved over `existing`: the owner first;
    /// each person the owner sent, accepted if they had accepted (only acceptance makes anyone
    /// accepted), removed if the owner removed them; nobody the owner left out (the client's
    /// list is the share's). Each keeps the server's name for them (`participantID`), and a new
    /// one gets one. Apple, `CKShare.h`, `publicPermission`: opening the link removes "all pending
    /// participants" ("Already-accepted participants will remain"); its page: closing it removes
    /// "all public participants". Returns the participants and those who lost access.
    static func saved(_ share: ShareRecord, over existing: ShareRecord?, owner: String, seq: Int64) -> (participants: [ShareParticipant], removed: [ShareParticipant]) {
        let previous = existing?.participants.filter { $0.role != .owner } ?? []
        let wasOpen = existing.map { $0.publicPermission != .none } ?? false
        let opens = share.publicPermission != .none && !wasOpen
        let closes = share.publicPermission == .none && wasOpen
        var participants = [ShareParticipant(userRecordName: owner, role: .owner, permission: .readWrite, acceptanceStatus: .accepted, participantID: "owner")]
        var removed: [ShareParticipant] = []
        for (index, sent) in share.participants.enumerated() where sent.role != .owner {
            let before = previous.first { isSamePerson($0, sent) }
            var kept = sent
            kept.userRecordName = sent.userRecordName ?? before?.userRecordName
            kept.participantID = before?.participantID ?? sent.participantID ?? "participant-\(seq)-\(index)"
            kept.archive = nil
            kept.acceptanceStatus = before?.acceptanceStatus == .accepted ? .accepted : .pending
            let goes = sent.acceptanceStatus == .removed
                || (opens && kept.role != .publicUser && kept.acceptanceStatus == .pending)
                || (closes && kept.role == .publicUser)
            if goes {
                if let before, before.acceptanceStatus != .removed { removed.append(before) }
                continue
            }
            participants.append(kept)
        }
        for before in previous where before.acceptanceStatus != .removed && !share.participants.contains(where: { isSamePerson($0, before) }) {
            removed.append(before)
        }
        // Someone who left stays listed as removed, as a participant's leaving leaves them.
        for before in previous where before.acceptanceStatus == .removed && !participants.contains(where: { isSamePerson($0, before) }) {
            participants.append(before)
        }
        return (participants, removed)
    }

    /// The people of a share invited by name (neither the owner nor anyone who joined by the
    /// link), who have not left.
    private static func invited(in participants: [ShareParticipant]) -> [ShareParticipant] {
        participants.filter { $0.role != .owner && $0.role != .publicUser && $0.acceptanceStatus != .removed }
    }

    /// Whether two listings are one person, as the server knows people: by user record, else by
    /// how they were looked up, else (a one-time link's invitee) by the server's name for them.
    static func isSamePerson(_ one: ShareParticipant, _ other: ShareParticipant) -> Bool {
        if let user = one.userRecordName, let otherUser = other.userRecordName { return user == otherUser }
        if let lookup = one.lookup, let otherLookup = other.lookup { return lookup == otherLookup }
        if let id = one.participantID, let otherID = other.participantID { return id == otherID }
        return false
    }
}
