import Foundation

/// Where the cloud says an account stands.
public enum AccountStatus: String, Sendable, Hashable, CaseIterable {
    case available, noAccount, restricted, temporarilyUnavailable
}

/// A position in a change feed, opaque to clients: they keep the last one and hand it back.
/// CloudKit's `CKServerChangeToken` has no usable initialiser; its gateway archives it
/// (`NSSecureCoding`), and LocalCloud writes its own form.
public struct ChangeToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The gateway's archive of the position.
    public var archive: Data

    /// A token as its gateway archived it (a gateway builds them; clients only keep them).
    public init(archive: Data) {
        self.archive = archive
    }

    /// What the local store keeps (`sync_state` is text): the archive in base64 behind a marker.
    package var storedValue: String { Self.storedPrefix + archive.base64EncodedString() }

    /// A token read back from the local store. A store of the layout before archives keeps
    /// LocalCloud's tokens as plain text, which is their archive's contents.
    package init(storedValue: String) {
        if storedValue.hasPrefix(Self.storedPrefix), let archive = Data(base64Encoded: String(storedValue.dropFirst(Self.storedPrefix.count))) {
            self.archive = archive
        } else {
            self.archive = Data(storedValue.utf8)
        }
    }

    private static let storedPrefix = "archive:"

    public var description: String { CloudArchive.describe(archive) }
}

/// How an opaque archive reads in a message or the debugger: its text when it is text (LocalCloud's
/// archives are), otherwise its size.
enum CloudArchive {
    static func describe(_ archive: Data) -> String {
        if let text = String(data: archive, encoding: .utf8), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return text
        }
        return "\(archive.count) archived bytes"
    }
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
    /// What a participant is to the share.
    public enum Role: String, Sendable, Hashable, Codable {
        case owner, privateUser, publicUser
    }

    /// Whether a participant has accepted the share.
    public enum AcceptanceStatus: String, Sendable, Hashable, Codable {
        case pending, accepted, removed
    }

    /// The participant's user record name.
    public var userRecordName: String
    /// Owner, invited person, or anyone with the link.
    public var role: Role
    /// What the participant may do with the shared records.
    public var permission: SharePermission
    /// Whether the participant has accepted, is yet to, or was removed.
    public var acceptanceStatus: AcceptanceStatus

    /// A participant; by default an invited person who has not accepted yet.
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
    /// The title the share shows in the system's sharing UI.
    public var title: String
    /// Everyone the owner added, the owner included (role `owner`).
    public var participants: [ShareParticipant]
    /// What anyone with the link may do (`none`: only the participants listed).
    public var publicPermission: SharePermission
    /// The server's change tag of the share; nil before it is first saved. Read only: a save is
    /// conditional on `systemFields`.
    public var changeTag: String?
    /// The server's metadata of the share's version (its gateway's archive); nil before it is
    /// first saved.
    public var systemFields: SystemFields?

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

    /// The share's owner: the participant whose role is `owner` (never decided by comparing
    /// participants, which is unreliable across instances).
    public var owner: ShareParticipant? { participants.first { $0.role == .owner } }
}

/// What a participant needs to accept a share: which share, whose zone, which root.
public struct ShareMetadata: Sendable, Hashable, Codable {
    /// The share's ID, in the owner's zone.
    public var shareID: RecordID
    /// The owner of the shared zone.
    public var ownerName: String
    /// The shared root's record name; nil for a zone-wide share.
    public var rootRecordName: String?
    /// The share's title.
    public var title: String

    /// Metadata of a share.
    public init(shareID: RecordID, ownerName: String, rootRecordName: String?, title: String) {
        self.shareID = shareID
        self.ownerName = ownerName
        self.rootRecordName = rootRecordName
        self.title = title
    }
}
