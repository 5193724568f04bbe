import Foundation

/// Who may do what with a shared record.
public enum SharePermission: String, Sendable, Hashable, Codable {
    case none, readOnly, readWrite
}

/// How a person to share with is found: CloudKit creates a share's participants only by looking
/// people up (`CKShare.Participant` has no public initialiser), by email address, phone number or
/// user record name (`CKUserIdentity.LookupInfo`).
public enum ParticipantLookup: Sendable, Hashable, Codable, CustomStringConvertible {
    case emailAddress(String)
    case phoneNumber(String)
    /// The record name of the person's user record (what `SyncEngine` reports as an account).
    case userRecordName(String)

    public var description: String {
        switch self {
        case .emailAddress(let address): "email \(address)"
        case .phoneNumber(let number): "phone \(number)"
        case .userRecordName(let name): "user \(name)"
        }
    }
}

/// A person to invite to a share, and what they may do: what an app hands `SyncEngine.share` and
/// `invite`, which look the person up first.
public struct ShareInvitation: Sendable, Hashable {
    /// How the person is found.
    public var lookup: ParticipantLookup
    /// What they may do with the shared records.
    public var permission: SharePermission

    /// An invitation for the person `lookup` finds.
    public init(_ lookup: ParticipantLookup, permission: SharePermission) {
        self.lookup = lookup
        self.permission = permission
    }
}

/// One person a share is shared with, as the cloud knows them: a gateway builds participants
/// (from a lookup, or from a fetched share); an app changes only their permission.
public struct ShareParticipant: Sendable, Hashable, Codable {
    /// What a participant is to the share.
    public enum Role: String, Sendable, Hashable, Codable {
        /// The user whose zone the share is in.
        case owner
        /// A person the owner (or an administrator) lets add and remove participants and change
        /// their permissions (CloudKit's `administrator`, iOS 26 and macOS 26 on). CloudKit shows
        /// earlier systems such a participant as a private user, and the share as read-only.
        case administrator
        /// A person invited by name, email address or phone number.
        case privateUser
        /// A person who joined by the share's link.
        case publicUser
    }

    /// Whether a participant has accepted the share.
    public enum AcceptanceStatus: String, Sendable, Hashable, Codable {
        case pending, accepted, removed
    }

    /// The participant's user record name; nil for a person looked up by email or phone for whom
    /// the cloud found no iCloud account (CloudKit: `hasiCloudAccount` false). Such a person is
    /// invited, and accepts once they have an account with that address (CloudKit links the two
    /// at acceptance).
    public var userRecordName: String?
    /// How the participant was looked up, when they were (an invitation's email or phone).
    public var lookup: ParticipantLookup?
    /// Owner, invited person, or anyone with the link.
    public var role: Role
    /// What the participant may do with the shared records.
    public var permission: SharePermission
    /// Whether the participant has accepted, is yet to, or was removed.
    public var acceptanceStatus: AcceptanceStatus
    /// The participant's name as iCloud gives it (CloudKit's `CKUserIdentity.nameComponents`),
    /// for "added by Bob" without a user table of the app's own; nil when the cloud gives none
    /// (CloudKit gives it only for people who let themselves be found). Format it with
    /// `PersonNameComponentsFormatter` or `formatted()`; the lookup is the fallback.
    public var nameComponents: PersonNameComponents?
    /// The gateway's archive of its own participant object (CloudKit's `CKShare.Participant`,
    /// `NSSecureCoding`), which it adds to the share; nil where the gateway needs none.
    public var archive: Data?
    /// The cloud's name for the participant (CloudKit's `CKShare.Participant.participantID`),
    /// stable while they are in the share. What tells apart people invited by a one-time link
    /// (CloudKit's `oneTimeURLParticipant()`), who have neither a user record nor a lookup until
    /// one of them accepts; nil where the cloud gave none.
    public var participantID: String?

    /// A participant; by default an invited person who has not accepted yet.
    public init(
        userRecordName: String?, lookup: ParticipantLookup? = nil, role: Role = .privateUser, permission: SharePermission,
        acceptanceStatus: AcceptanceStatus = .pending, archive: Data? = nil, nameComponents: PersonNameComponents? = nil,
        participantID: String? = nil
    ) {
        self.userRecordName = userRecordName
        self.lookup = lookup
        self.role = role
        self.permission = permission
        self.acceptanceStatus = acceptanceStatus
        self.archive = archive
        self.nameComponents = nameComponents
        self.participantID = participantID
    }

    /// Whether two participants are one person: the same user record, else (for people without
    /// one yet) the same lookup, else (for a one-time link's invitee) the same participant of
    /// the share. A participant the cloud says nothing of is nobody else.
    public func isSamePerson(as other: ShareParticipant) -> Bool {
        guard let person, let otherPerson = other.person else { return false }
        return person == otherPerson
    }

    /// Who the participant is, as a key: their user record, else how they were looked up, else
    /// the share's name for them; nil when the cloud said none of these.
    private var person: Person? {
        if let userRecordName { return .user(userRecordName) }
        if let lookup { return .lookedUp(lookup) }
        if let participantID { return .participant(participantID) }
        return nil
    }

    /// A participant's identity (see `person`).
    private enum Person: Hashable {
        case user(String)
        case lookedUp(ParticipantLookup)
        case participant(String)
    }
}

/// A CKShare: the record that shares a root record and its descendants, or a whole zone.
public struct ShareRecord: Sendable, Hashable, Codable {
    /// The record type CloudKit gives shares.
    public static let recordType = "cloudkit.share"
    /// The record name of a zone-wide share.
    public static let zoneWideRecordName = "cloudkit.zoneshare"

    /// The share's own ID, in the shared zone; chosen by the client so it can delete the share by
    /// ID later.
    public var id: RecordID
    /// The shared root's record name; nil for a zone-wide share. CloudKit does not return it (the
    /// root names its share, not the other way round), so a share fetched through the CloudKit
    /// gateway carries it only when the request that saved it is at hand.
    public var rootRecordName: String?
    /// The title the share shows in the system's sharing UI.
    public var title: String
    /// Everyone the owner added, the owner included (role `owner`).
    public var participants: [ShareParticipant]
    /// What anyone with the link may do (`none`: only the participants listed).
    public var publicPermission: SharePermission
    /// The link participants open to accept (CKShare's `url`), set by the cloud when the share is
    /// saved; nil before.
    public var url: URL?
    /// The server's change tag of the share; nil before it is first saved. Read only: a save is
    /// conditional on `systemFields`.
    public var changeTag: String?
    /// The server's metadata of the share's version (its gateway's archive); nil before it is
    /// first saved.
    public var systemFields: SystemFields?
    /// The participant that is the user who read the share, as the cloud says (Apple,
    /// `CKShare.currentUserParticipant`): the owner reading their own share, or a participant
    /// reading someone else's, with the permission they have. Nil on a share not read from the
    /// cloud, or when the cloud did not say.
    public var currentUserParticipant: ShareParticipant?

    /// A share of `rootRecordName` (nil: the whole zone), with its participants.
    public init(
        id: RecordID, rootRecordName: String?, title: String = "", participants: [ShareParticipant] = [],
        publicPermission: SharePermission = .none, changeTag: String? = nil
    ) {
        self.id = id
        self.rootRecordName = rootRecordName
        self.title = title
        self.participants = participants
        self.publicPermission = publicPermission
        self.changeTag = changeTag
    }

    /// Whether the share shares its whole zone, as its record name says (CloudKit names every
    /// zone-wide share so; a root's share fetched through CloudKit does not name its root, so a
    /// nil `rootRecordName` alone does not say).
    public var isZoneWide: Bool { Self.isZoneWide(id) }

    /// Whether a share of that ID shares its whole zone.
    package static func isZoneWide(_ id: RecordID) -> Bool { id.recordName == zoneWideRecordName }

    /// The share's owner: the participant whose role is `owner` (never decided by comparing
    /// participants, which is unreliable across instances).
    public var owner: ShareParticipant? { participants.first { $0.role == .owner } }

    /// The participant a user record name names, as ``RecordAuthorship`` names people: the
    /// signed-in user (``SyncConstants/currentUserOwnerName``) is `currentUserParticipant`. How
    /// an app writes "added by Bob": `share.participant(named: authorship.createdBy)?.nameComponents`.
    public func participant(named userRecordName: String) -> ShareParticipant? {
        if userRecordName == SyncConstants.currentUserOwnerName { return currentUserParticipant }
        return participants.first { $0.userRecordName == userRecordName }
    }
}

/// What a participant needs to accept a share: which share, whose zone, which root. It is never
/// made up: it comes from the share's link (`SyncEngine.acceptShare(at:)`, the gateway's
/// `shareMetadata(for:)`) or from the system, which hands an app on Apple platforms a
/// `CKShare.Metadata` when the user taps a link (the CloudKit gateway turns it into this).
public struct ShareMetadata: Sendable, Hashable, Codable {
    /// The share's ID, in the owner's zone.
    public var shareID: RecordID
    /// The owner of the shared zone.
    public var ownerName: String
    /// The shared root's record name; nil for a zone-wide share.
    public var rootRecordName: String?
    /// The share's title.
    public var title: String
    /// The link it came from, when it came from one.
    public var url: URL?
    /// What the user who looked the share up is to it: its owner, or someone it lists or lets in
    /// by its link; nil when the cloud did not say.
    public var participantRole: ShareParticipant.Role?
    /// Whether that user accepted the share already (on another device, say); nil when the
    /// cloud did not say. Accepting again is never asked of the cloud.
    public var participantStatus: ShareParticipant.AcceptanceStatus?
    /// The gateway's archive of the system's metadata (CloudKit's `CKShare.Metadata`,
    /// `NSSecureCoding`), which acceptance hands back to the system; nil where the gateway needs
    /// none, or the metadata came from a link (acceptance then looks the link up again).
    public var archive: Data?

    /// Metadata of a share, as a gateway builds it.
    public init(
        shareID: RecordID, ownerName: String, rootRecordName: String?, title: String, url: URL? = nil,
        participantRole: ShareParticipant.Role? = nil, participantStatus: ShareParticipant.AcceptanceStatus? = nil, archive: Data? = nil
    ) {
        self.shareID = shareID
        self.ownerName = ownerName
        self.rootRecordName = rootRecordName
        self.title = title
        self.url = url
        self.participantRole = participantRole
        self.participantStatus = participantStatus
        self.archive = archive
    }
}
