// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore

/// How a person was looked up (Apple, `CKUserIdentity.LookupInfo`).
public final class CKUserIdentityLookupInfo: NSObject, NSSecureCoding {
    public static var supportsSecureCoding: Bool { true }

    public let emailAddress: String?
    public let phoneNumber: String?
    public let userRecordID: CKRecord.ID?

    public init(emailAddress: String) {
        self.emailAddress = emailAddress
        phoneNumber = nil
        userRecordID = nil
    }

    public init(phoneNumber: String) {
        emailAddress = nil
        self.phoneNumber = phoneNumber
        userRecordID = nil
    }

    public init(userRecordID: CKRecord.ID) {
        emailAddress = nil
        phoneNumber = nil
        self.userRecordID = userRecordID
    }

    public func encode(with coder: NSCoder) {
        if let emailAddress { coder.encode(emailAddress as NSString, forKey: "emailAddress") }
        if let phoneNumber { coder.encode(phoneNumber as NSString, forKey: "phoneNumber") }
        if let userRecordID { coder.encode(userRecordID, forKey: "userRecordID") }
    }

    public init?(coder: NSCoder) {
        emailAddress = coder.decodeIfPresent(NSString.self, forKey: "emailAddress") as String?
        phoneNumber = coder.decodeIfPresent(NSString.self, forKey: "phoneNumber") as String?
        userRecordID = coder.decodeIfPresent(CKRecordID.self, forKey: "userRecordID")
    }
}

/// A person as iCloud knows them (Apple, `CKUserIdentity`): no public initialiser.
public final class CKUserIdentity: NSObject, NSSecureCoding {
    public typealias LookupInfo = CKUserIdentityLookupInfo
    public static var supportsSecureCoding: Bool { true }

    public let userRecordID: CKRecord.ID?
    public let lookupInfo: CKUserIdentity.LookupInfo?
    public let hasiCloudAccount: Bool
    public let nameComponents: PersonNameComponents?

    package init(userRecordID: CKRecord.ID?, lookupInfo: CKUserIdentity.LookupInfo?, nameComponents: PersonNameComponents? = nil) {
        self.userRecordID = userRecordID
        self.lookupInfo = lookupInfo
        self.nameComponents = nameComponents
        hasiCloudAccount = userRecordID != nil
    }

    public func encode(with coder: NSCoder) {
        if let userRecordID { coder.encode(userRecordID, forKey: "userRecordID") }
        if let lookupInfo { coder.encode(lookupInfo, forKey: "lookupInfo") }
        coder.encode(hasiCloudAccount, forKey: "hasiCloudAccount")
        if let nameComponents, let json = try? JSONEncoder().encode(nameComponents) { coder.encode(json as NSData, forKey: "nameComponents") }
    }

    public init?(coder: NSCoder) {
        userRecordID = coder.decodeIfPresent(CKRecordID.self, forKey: "userRecordID")
        lookupInfo = coder.decodeIfPresent(CKUserIdentityLookupInfo.self, forKey: "lookupInfo")
        hasiCloudAccount = coder.decodeBool(forKey: "hasiCloudAccount")
        nameComponents = (coder.decodeIfPresent(NSData.self, forKey: "nameComponents") as Data?).flatMap { try? JSONDecoder().decode(PersonNameComponents.self, from: $0) }
    }
}

/// One person a share is shared with (Apple, `CKShare.Participant`): no public initialiser, so a
/// participant comes from a lookup (`CKContainer.shareParticipant(forEmailAddress:)` and its
/// siblings), from a fetched share, or is a one-time link's invitee (`oneTimeURLParticipant()`).
public final class CKShareParticipant: NSObject, NSSecureCoding, @unchecked Sendable {
    public typealias ID = String

    // Sendable as Apple marks it, though its role and permission change: they live behind a lock.
    private struct Standing {
        var role: CKShare.ParticipantRole
        var permission: CKShare.ParticipantPermission
    }

    public static var supportsSecureCoding: Bool { true }

    private let standing: Locked<Standing>
    public let acceptanceStatus: CKShare.ParticipantAcceptanceStatus
    public let userIdentity: CKUserIdentity
    /// Apple, `participantID`: the participant's identifier, which a one-time link claims.
    public let participantID: CKShare.Participant.ID

    public var role: CKShare.ParticipantRole {
        get { standing.withLock { $0.role } }
        set { standing.withLock { $0.role = newValue } }
    }

    public var permission: CKShare.ParticipantPermission {
        get { standing.withLock { $0.permission } }
        set { standing.withLock { $0.permission = newValue } }
    }

    package init(
        userIdentity: CKUserIdentity, role: CKShare.ParticipantRole, permission: CKShare.ParticipantPermission,
        acceptanceStatus: CKShare.ParticipantAcceptanceStatus, participantID: CKShare.Participant.ID = UUID().uuidString
    ) {
        self.userIdentity = userIdentity
        standing = Locked(Standing(role: role, permission: permission))
        self.acceptanceStatus = acceptanceStatus
        self.participantID = participantID
    }

    /// Apple, `oneTimeURLParticipant()`: "Generate a unique URL for inviting a participant
    /// without knowing their handle": a pending participant with no identity (its
    /// `nameComponents` empty), read-only, as a new participant is by default.
    public class func oneTimeURLParticipant() -> Self {
        Self(userIdentity: CKUserIdentity(userRecordID: nil, lookupInfo: nil), role: .privateUser, permission: .readOnly, acceptanceStatus: .pending)
    }

    /// Whether two participants are one person (Apple, `addParticipant(_:)`: "a matching
    /// userIdentity"): the same user record, else the same lookup; a one-time link's invitee
    /// matches only itself.
    func hasMatchingIdentity(_ other: CKShare.Participant) -> Bool {
        if participantID == other.participantID { return true }
        if let user = userIdentity.userRecordID, let otherUser = other.userIdentity.userRecordID { return user == otherUser }
        guard let info = userIdentity.lookupInfo, let otherInfo = other.userIdentity.lookupInfo else { return false }
        return info.emailAddress == otherInfo.emailAddress && info.phoneNumber == otherInfo.phoneNumber && info.userRecordID == otherInfo.userRecordID
    }

    public func encode(with coder: NSCoder) {
        coder.encode(userIdentity, forKey: "userIdentity")
        coder.encode(role.rawValue, forKey: "role")
        coder.encode(permission.rawValue, forKey: "permission")
        coder.encode(acceptanceStatus.rawValue, forKey: "acceptanceStatus")
        coder.encode(participantID as NSString, forKey: "participantID")
    }

    public init?(coder: NSCoder) {
        guard let identity = coder.decodeObject(of: CKUserIdentity.self, forKey: "userIdentity"),
            let role = CKShare.ParticipantRole(rawValue: coder.decodeInteger(forKey: "role")),
            let permission = CKShare.ParticipantPermission(rawValue: coder.decodeInteger(forKey: "permission")),
            let status = CKShare.ParticipantAcceptanceStatus(rawValue: coder.decodeInteger(forKey: "acceptanceStatus")),
            let participantID = coder.decodeIfPresent(NSString.self, forKey: "participantID") as String?
        else { return nil }
        userIdentity = identity
        standing = Locked(Standing(role: role, permission: permission))
        acceptanceStatus = status
        self.participantID = participantID
    }
}

/// The record that shares a root record and the records under it, or a whole zone (Apple,
/// `CKShare`). Not `Sendable`, as `CKRecord`.
public final class CKShare: CKRecord {
    public typealias Participant = CKShareParticipant

    /// Apple, `CKShare.ParticipantRole` (raw values as in CloudKit's header; `administrator` is
    /// iOS 26's).
    public enum ParticipantRole: Int, Sendable {
        case unknown = 0, owner = 1, administrator = 2, privateUser = 3, publicUser = 4
    }

    /// Apple, `CKShare.ParticipantPermission`.
    public enum ParticipantPermission: Int, Sendable {
        case unknown = 0, none = 1, readOnly = 2, readWrite = 3
    }

    /// Apple, `CKShare.ParticipantAcceptanceStatus`.
    public enum ParticipantAcceptanceStatus: Int, Sendable {
        case unknown = 0, pending = 1, accepted = 2, removed = 3
    }

    /// The share's own keys (Apple, `CKShare.SystemFieldKey`).
    public enum SystemFieldKey {
        public static let title: CKRecord.FieldKey = "cloudkit.title"
    }

    /// Apple, `CKShare.h`: "Changing the public permission to ... ReadOnly or ... ReadWrite
    /// will result in all pending participants being removed. Already-accepted participants will
    /// remain on the share. Changing the public permission to ... None will result in all
    /// participants being removed from the share. You may subsequently choose to call
    /// addParticipant: before saving the share, those participants will be added to the share."
    /// The stand-in removes them at once, from this object, whenever the value changes (the
    /// page's milder reading removes only the public participants, at the save). Setting the value
    /// it already has is no change, and removes nobody.
    public var publicPermission: CKShare.ParticipantPermission = .none {
        didSet {
            // CKShare.h speaks of *changing* the permission: setting the value it already has
            // changes nothing, and removes nobody.
            guard publicPermission != oldValue else { return }
            if publicPermission == .none {
                participants.removeAll { $0.role != .owner }
            } else {
                participants.removeAll { $0.role != .owner && $0.acceptanceStatus == .pending }
            }
        }
    }
    public private(set) var url: URL?
    public private(set) var participants: [CKShare.Participant] = []
    /// The participant that is the user who read the share; nil on a share made on this device.
    public private(set) var currentUserParticipant: CKShare.Participant?
    /// The shared root's record name; nil for a zone-wide share. What `init(rootRecord:shareID:)` took.
    package private(set) var rootRecordName: String?
    /// What the app did to this share that CloudKit's header does not allow: CloudKit's answer is
    /// not documented, and the stand-in's, the harsher one, is to refuse the share's save with
    /// `invalidArguments` naming it.
    package private(set) var misuse: String?

    public init(rootRecord: CKRecord, shareID: CKRecord.ID) {
        rootRecordName = rootRecord.recordID.recordName
        super.init(recordType: "cloudkit.share", recordID: shareID)
    }

    public init(recordZoneID: CKRecordZone.ID) {
        super.init(recordType: "cloudkit.share", recordID: CKRecord.ID(recordName: "cloudkit.zoneshare", zoneID: recordZoneID))
    }

    public required init?(coder: NSCoder) {
        rootRecordName = coder.decodeIfPresent(NSString.self, forKey: "rootRecordName") as String?
        super.init(coder: coder)
    }

    /// A share as the stand-in's server returns it (set here, its public permission removes nobody).
    package init(
        shareID: CKRecord.ID, rootRecordName: String?, url: URL?, participants: [CKShare.Participant],
        publicPermission: CKShare.ParticipantPermission = .none, currentUserParticipant: CKShare.Participant? = nil
    ) {
        self.rootRecordName = rootRecordName
        self.url = url
        self.participants = participants
        self.publicPermission = publicPermission
        self.currentUserParticipant = currentUserParticipant
        super.init(recordType: "cloudkit.share", recordID: shareID)
    }

    public override func encodeSystemFields(with coder: NSCoder) {
        super.encodeSystemFields(with: coder)
        if let rootRecordName { coder.encode(rootRecordName as NSString, forKey: "rootRecordName") }
    }

    /// The participant whose role is owner.
    public var owner: CKShare.Participant {
        participants.first { $0.role == .owner } ?? CKShare.Participant(
            userIdentity: CKUserIdentity(userRecordID: nil, lookupInfo: nil), role: .owner, permission: .readWrite, acceptanceStatus: .accepted)
    }

    /// Apple, `CKShare.h`: "If a participant with a matching userIdentity already exists, then
    /// that existing participant's properties will be updated; no new participant will be
    /// added", and "In order to modify the list of participants, a share must have
    /// publicPermission set to CKShareParticipantPermissionNone"; `CKShareParticipantRolePublicUser`:
    /// "owners cannot add public users".
    public func addParticipant(_ participant: CKShare.Participant) {
        guard publicPermission == .none else {
            return misused("addParticipant: a share's participants change only while its publicPermission is none")
        }
        guard participant.role != .publicUser else {
            return misused("addParticipant: owners cannot add public users")
        }
        if let listed = participants.first(where: { $0 === participant || $0.hasMatchingIdentity(participant) }) {
            listed.role = participant.role
            listed.permission = participant.permission
            return
        }
        participants.append(participant)
    }

    /// Apple, `CKShare.h`: "It's not allowed to call removeParticipant on a CKShare with a
    /// CKShareParticipant that has never been added to that share", and the list changes only
    /// while the public permission is none (`removeParticipant(_:)`'s page).
    public func removeParticipant(_ participant: CKShare.Participant) {
        guard publicPermission == .none else {
            return misused("removeParticipant: a share's participants change only while its publicPermission is none")
        }
        guard participants.contains(where: { $0 === participant }) else {
            return misused("removeParticipant: the participant was never added to this share")
        }
        participants.removeAll { $0 === participant }
    }

    private func misused(_ what: String) {
        misuse = misuse ?? what
    }
}

/// What a participant needs to accept a share (Apple, `CKShare.Metadata`): no public initialiser;
/// it comes from `CKContainer.shareMetadata(for:)` or from the system when a link is tapped.
public final class CKShareMetadata: NSObject, NSSecureCoding, @unchecked Sendable {
    public static var supportsSecureCoding: Bool { true }

    public let share: CKShare
    public let hierarchicalRootRecordID: CKRecord.ID?
    /// What the user who looked the share up is to it.
    public let participantRole: CKShare.ParticipantRole
    /// Whether that user accepted it already.
    public let participantStatus: CKShare.ParticipantAcceptanceStatus

    package init(
        share: CKShare, hierarchicalRootRecordID: CKRecord.ID?, participantRole: CKShare.ParticipantRole, participantStatus: CKShare.ParticipantAcceptanceStatus
    ) {
        self.share = share
        self.hierarchicalRootRecordID = hierarchicalRootRecordID
        self.participantRole = participantRole
        self.participantStatus = participantStatus
    }

    public func encode(with coder: NSCoder) {
        coder.encode(share, forKey: "share")
        coder.encode(participantRole.rawValue, forKey: "participantRole")
        coder.encode(participantStatus.rawValue, forKey: "participantStatus")
        if let hierarchicalRootRecordID { coder.encode(hierarchicalRootRecordID, forKey: "root") }
        if let url = share.url { coder.encode(url.absoluteString as NSString, forKey: "url") }
        if let title = share[CKShare.SystemFieldKey.title] as? NSString { coder.encode(title, forKey: "title") }
    }

    public init?(coder: NSCoder) {
        guard let decoded = coder.decodeObject(of: CKShare.self, forKey: "share") else { return nil }
        let url = (coder.decodeIfPresent(NSString.self, forKey: "url") as String?).flatMap(URL.init(string:))
        let root = coder.decodeIfPresent(CKRecordID.self, forKey: "root")
        let share = CKShare(shareID: decoded.recordID, rootRecordName: root?.recordName, url: url, participants: [])
        share[CKShare.SystemFieldKey.title] = coder.decodeIfPresent(NSString.self, forKey: "title")
        self.share = share
        hierarchicalRootRecordID = root
        participantRole = CKShare.ParticipantRole(rawValue: coder.decodeInteger(forKey: "participantRole")) ?? .unknown
        participantStatus = CKShare.ParticipantAcceptanceStatus(rawValue: coder.decodeInteger(forKey: "participantStatus")) ?? .unknown
    }
}

extension CKShare {
    public typealias Metadata = CKShareMetadata
}
#endif
