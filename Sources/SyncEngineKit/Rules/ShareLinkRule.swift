import SyncCore

/// What the engine will not ask of a share open to its link, before any request: CloudKit's
/// answer would cost people their place in the share, or is a refusal.
///
/// - Apple, `CKShare.h`, `addParticipant:`: "In order to modify the list of participants, a share
///   must have publicPermission set to CKShareParticipantPermissionNone": nobody is invited to or
///   removed from a share whose link stays open (close the link first; that removes whoever
///   joined by it).
/// - `publicPermission`: opening the link "will result in all pending participants being
///   removed. Already-accepted participants will remain on the share": the link does not open
///   while an invitation waits, since CloudKit would withdraw it without a word.
enum ShareLinkRule {
    /// Why the engine does not save `share` over `current` (the version the cloud has; nil for
    /// a new share), or nil.
    static func problem(saving share: ShareRecord, over current: ShareRecord?) -> String? {
        guard share.publicPermission != .none else { return nil }
        if let current, current.publicPermission != .none {
            let before = invited(in: current), after = invited(in: share)
            let same = before.count == after.count && before.allSatisfy { person in after.contains { $0.isSamePerson(as: person) } }
            if !same {
                return "CloudKit changes who is invited to a share only while its link is off: turn the link off first (that removes whoever joined by it), then invite or remove, then open it again"
            }
        }
        let waiting = invited(in: share).filter { $0.acceptanceStatus == .pending }
        guard waiting.isEmpty else {
            return "opening the share's link would withdraw the invitations of \(waiting.map(\.described).joined(separator: ", ")), who have not accepted yet (CloudKit removes pending participants when a link opens): remove them first, or open the link once they accept"
        }
        return nil
    }

    /// The people invited by name who are still in the share.
    private static func invited(in share: ShareRecord) -> [ShareParticipant] {
        share.participants.filter { $0.role != .owner && $0.role != .publicUser && $0.acceptanceStatus != .removed }
    }
}

extension ShareParticipant {
    /// How an error names a participant: their user record, else how they were looked up.
    var described: String {
        userRecordName.map { "user \($0)" } ?? lookup?.description ?? (participantID == nil ? "that participant" : "a one-time link's invitee")
    }
}
