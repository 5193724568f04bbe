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
/// siblings) or from a fetched share.
public final class CKShareParticipant: NSObject, NSSecureCoding, @unchecked Sendable {
    // Sendable as Apple marks it, though its role and permission change: they live behind a lock.
    private struct Standing {
        var role: CKShare.ParticipantRole
        var permission: CKShare.ParticipantPermission
    }

    public static var supportsSecureCoding: Bool { true }

    private let standing: Locked<Standing>
    public let acceptanceStatus: CKShare.ParticipantAcceptanceStatus
    public let userIdentity: CKUserIdentity

    public var role: CKShare.ParticipantRole {
        get { standing.withLock { $0.role } }
        set { standing.withLock { $0.role = newValue } }
    }

    public var permission: CKShare.ParticipantPermission {
        get { standing.withLock { $0.permission } }
        set { standing.withLock { $0.permission = newValue } }
    }

    package init(userIdentity: CKUserIdentity, role: CKShare.ParticipantRole, permission: CKShare.ParticipantPermission, acceptanceStatus: CKShare.ParticipantAcceptanceStatus) {
        self.userIdentity = userIdentity
        standing = Locked(Standing(role: role, permission: permission))
        self.acceptanceStatus = acceptanceStatus
    }

    public func encode(with coder: NSCoder) {
        coder.encode(userIdentity, forKey: "userIdentity")
        coder.encode(role.rawValue, forKey: "role")
        coder.encode(permission.rawValue, forKey: "permission")
        coder.encode(acceptanceStatus.rawValue, forKey: "acceptanceStatus")
    }

    public init?(coder: NSCoder) {
        guard let identity = coder.decodeObject(of: CKUserIdentity.self, forKey: "userIdentity"),
            let role = CKShare.ParticipantRole(rawValue: coder.decodeInteger(forKey: "role")),
            let permission = CKShare.ParticipantPermission(rawValue: coder.decodeInteger(forKey: "permission")),
            let status = CKShare.ParticipantAcceptanceStatus(rawValue: coder.decodeInteger(forKey: "acceptanceStatus"))
        else { return nil }
        userIdentity = identity
        standing = Locked(Standing(role: role, permission: permission))
        acceptanceStatus = status
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

    public var publicPermission: CKShare.ParticipantPermission = .none
    public private(set) var url: URL?
    public private(set) var participants: [CKShare.Participant] = []
    /// The participant that is the user who read the share; nil on a share made on this device.
    public private(set) var currentUserParticipant: CKShare.Participant?
    /// The shared root's record name; nil for a zone-wide share. What `init(rootRecord:shareID:)` took.
    package private(set) var rootRecordName: String?

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

    /// A share as the stand-in's server returns it.
    package init(shareID: CKRecord.ID, rootRecordName: String?, url: URL?, participants: [CKShare.Participant], currentUserParticipant: CKShare.Participant? = nil) {
        self.rootRecordName = rootRecordName
        self.url = url
        self.participants = participants
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

    public func addParticipant(_ participant: CKShare.Participant) {
        guard !participants.contains(where: { $0 === participant }) else { return }
        participants.append(participant)
    }

    public func removeParticipant(_ participant: CKShare.Participant) {
        participants.removeAll { $0 === participant }
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
