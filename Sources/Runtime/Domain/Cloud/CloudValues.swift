import Foundation

/// Where the cloud says an account stands.
public enum AccountStatus: String, Sendable, Hashable, CaseIterable {
    case available, noAccount, restricted, temporarilyUnavailable
}

/// A position in a change feed, opaque to clients: they keep the last one and hand it back.
public struct ChangeToken: Hashable, Sendable, Codable, CustomStringConvertible {
    public var value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { value }
}

/// How a save treats the server's copy of a record.
public enum SavePolicy: String, Sendable, Hashable {
    /// Fails with `serverRecordChanged` unless the record carries the server's current change tag.
    case ifServerRecordUnchanged
    /// Writes the fields the record carries over the server's, unconditionally; others stay.
    case changedKeys
    /// Replaces the server's record, unconditionally.
    case allKeys
}

/// Who may do what with a shared record.
public enum SharePermission: String, Sendable, Hashable, Codable {
    case none, readOnly, readWrite
}

/// One person a share is shared with.
public struct ShareParticipant: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable {
        case owner, privateUser, publicUser
    }

    public enum AcceptanceStatus: String, Sendable, Hashable, Codable {
        case pending, accepted, removed
    }

    /// The participant's user record name.
    public var userRecordName: String
    public var role: Role
    public var permission: SharePermission
    public var acceptanceStatus: AcceptanceStatus

    public init(userRecordName: String, role: Role = .privateUser, permission: SharePermission, acceptanceStatus: AcceptanceStatus = .pending) {
        self.userRecordName = userRecordName
        self.role = role
        self.permission = permission
        self.acceptanceStatus = acceptanceStatus
    }
}

/// A CKShare: the record that shares a root record and its descendants, or a whole zone.
public struct ShareRecord: Sendable, Hashable {
    /// The record type CloudKit gives shares.
    public static let recordType = "cloudkit.share"
    /// The record name of a zone-wide share.
    public static let zoneWideRecordName = "cloudkit.zoneshare"

    /// The share's own ID, in the shared zone; chosen by the client so it can delete the share by
    /// ID later.
    public var id: RecordID
    /// The shared root's record name; nil for a zone-wide share.
    public var rootRecordName: String?
    public var title: String
    /// Everyone the owner added, the owner included (role `owner`).
    public var participants: [ShareParticipant]
    /// What anyone with the link may do (`none`: only the participants listed).
    public var publicPermission: SharePermission
    public var changeTag: String?

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

    /// The share's owner: the participant whose role is `owner` (never decided by comparing
    /// participants, which is unreliable across instances).
    public var owner: ShareParticipant? { participants.first { $0.role == .owner } }
}

/// What a participant needs to accept a share: which share, whose zone, which root.
public struct ShareMetadata: Sendable, Hashable, Codable {
    public var shareID: RecordID
    public var ownerName: String
    public var rootRecordName: String?
    public var title: String

    public init(shareID: RecordID, ownerName: String, rootRecordName: String?, title: String) {
        self.shareID = shareID
        self.ownerName = ownerName
        self.rootRecordName = rootRecordName
        self.title = title
    }
}
