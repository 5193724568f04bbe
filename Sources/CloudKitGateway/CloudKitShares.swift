#if canImport(CloudKit)
import CloudKit
#else
import CloudKitStandIn
#endif
import Foundation
import SyncCore

/// Shares, participants and share metadata between the port and CloudKit. CloudKit makes neither
/// participants nor metadata in code: each travels as its archive (`NSSecureCoding`) and is
/// unarchived to be handed back, so a participant a lookup found can be added to a share later,
/// and metadata the system handed over can be accepted later.
enum CloudKitShares {
    /// A share CloudKit returned, each participant with its archive. CloudKit does not say which
    /// root a share shares (the root's `share` names the share, not the other way round): the
    /// caller passes the root it knows (the request's), nil when it knows none.
    static func shareRecord(_ ck: CKShare, rootRecordName: String?) throws(CloudError) -> ShareRecord {
        let id = CloudKitRecords.recordID(ck.recordID)
        var share = ShareRecord(
            id: id, rootRecordName: rootRecordName, title: (ck[CKShare.SystemFieldKey.title] as? NSString).map { $0 as String } ?? "",
            participants: try ck.participants.map { (participant) throws(CloudError) in try self.participant(participant) },
            publicPermission: permission(ck.publicPermission), changeTag: ck.recordChangeTag)
        share.url = ck.url
        share.systemFields = CloudKitRecords.systemFields(of: ck)
        share.currentUserParticipant = try ck.currentUserParticipant.map { (participant) throws(CloudError) in try self.participant(participant) }
        return share
    }

    /// A participant as the port carries it, with its archive.
    static func participant(_ ck: CKShare.Participant) throws(CloudError) -> ShareParticipant {
        let info = ck.userIdentity.lookupInfo
        let lookup: ParticipantLookup? = if let address = info?.emailAddress { .emailAddress(address) }
            else if let number = info?.phoneNumber { .phoneNumber(number) }
            else if let id = info?.userRecordID { .userRecordName(id.recordName) }
            else { nil }
        return ShareParticipant(
            userRecordName: ck.userIdentity.userRecordID?.recordName, lookup: lookup, role: role(ck.role) ?? .privateUser,
            permission: permission(ck.permission), acceptanceStatus: status(ck.acceptanceStatus) ?? .pending, archive: try archive(ck),
            nameComponents: ck.userIdentity.nameComponents, participantID: ck.participantID)
    }

    /// CloudKit's `CKShare.ParticipantRole.administrator`, by its number (CloudKit's header): the
    /// case is iOS 26's, absent from earlier SDKs an app may build with, and its participants
    /// reach every app.
    private static let administratorRoleValue = 2

    /// A role as the port says it; nil for `unknown`. An administrator stays one.
    private static func role(_ role: CKShare.ParticipantRole) -> ShareParticipant.Role? {
        switch role {
        case .owner: return .owner
        case .privateUser: return .privateUser
        case .publicUser: return .publicUser
        default: return role.rawValue == administratorRoleValue ? .administrator : nil
        }
    }

    /// An acceptance status as the port says it; nil for `unknown`.
    private static func status(_ status: CKShare.ParticipantAcceptanceStatus) -> ShareParticipant.AcceptanceStatus? {
        switch status {
        case .accepted: .accepted
        case .removed: .removed
        case .pending: .pending
        default: nil
        }
    }

    /// The share CloudKit holds now (`fetched`, read just before the save), when it is still the
    /// version `share` was read from: a share changed since (someone joined by its link, another
    /// device invited someone) is refused with `serverRecordChanged`, for the caller to read it
    /// again, and one that is gone with `unknownItem`.
    static func currentShare(_ share: ShareRecord, fetched: Result<CKRecord, any Error>?) throws(CloudError) -> CKShare {
        switch fetched {
        case .success(let current as CKShare):
            guard current.recordChangeTag == share.changeTag else {
                throw CloudError(.serverRecordChanged, "share \(share.id.recordName) changed on the server since it was read")
            }
            return current
        case .success:
            throw CloudError(.invalidArguments, "\(share.id.recordName) is a record, not a share")
        case .failure(let error):
            throw CloudKitErrors.cloudError(error)
        case nil:
            throw CloudError(.unknownItem, "share \(share.id.recordName) no longer exists")
        }
    }

    /// The `CKShare` a save sends: the share as CloudKit has it (`current`, fetched just before),
    /// or a new one of `root` (a zone-wide one without), with the port's title, public
    /// permission and participants. CloudKit's list is changed only where the port asks: one
    /// marked `removed` is removed, one a lookup found is added (or, listed as removed, invited
    /// again), one already there gets its permission; anyone CloudKit lists that the port does
    /// not name stays (a one-time link's invitee has no identity the port could name). The owner
    /// is CloudKit's to keep.
    static func ckShare(_ share: ShareRecord, current: CKShare?, root: CKRecord?) throws(CloudError) -> CKShare {
        let ck: CKShare
        if let current {
            ck = current
        } else if let root {
            ck = CKShare(rootRecord: root, shareID: CloudKitRecords.recordID(share.id))
        } else if share.rootRecordName == nil {
            ck = CKShare(recordZoneID: CloudKitRecords.zoneID(share.id.zoneID))
        } else {
            throw CloudError(.invalidArguments, "a new share of \(share.rootRecordName ?? "") is saved with its root record")
        }
        ck[CKShare.SystemFieldKey.title] = share.title as NSString
        let publicPermission = ckPermission(share.publicPermission)
        // The list changes only while the link is off (CloudKit's header, `addParticipant:`), so
        // a link closes before the changes and opens after; the permission is set only to change
        // it. Apple, `CKShare.h`, `publicPermission`: setting none removes "all participants"
        // from the share (its page: the public ones, at the save), to be added again before the
        // save: the changes below add back everyone the port names, and never anyone who joined
        // by the link (`CKShareParticipantRolePublicUser`: "owners cannot add public users").
        if publicPermission == .none && ck.publicPermission != .none { ck.publicPermission = .none }
        try changeParticipants(of: ck, as: share)
        if ck.publicPermission != publicPermission { ck.publicPermission = publicPermission }
        return ck
    }

    /// The port's participants, on CloudKit's share: see `ckShare`.
    private static func changeParticipants(of ck: CKShare, as share: ShareRecord) throws(CloudError) {
        for wanted in share.participants where wanted.role != .owner {
            let present = ck.participants.first { isSamePerson($0, wanted) }
            if wanted.acceptanceStatus == .removed {
                if let present, present.acceptanceStatus != .removed { ck.removeParticipant(present) }
                continue
            }
            if let present, present.acceptanceStatus != .removed {
                let permission = ckPermission(wanted.permission)
                if present.permission != permission { present.permission = permission }
                continue
            }
            // Someone who joined by the link and went stays gone: owners cannot add public users.
            guard wanted.role != .publicUser else { continue }
            guard let archive = wanted.archive,
                let found = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CKShare.Participant.self, from: archive)
            else {
                throw CloudError(.invalidArguments, "\(wanted.lookup?.description ?? wanted.userRecordName ?? "a participant") was not looked up: CloudKit adds only participants a lookup found")
            }
            // Invited again after leaving or being removed: CloudKit would update the listing it
            // has in place (`addParticipant`: "If a participant with a matching userIdentity
            // already exists ... updates the existing participant's properties"), which leaves
            // them removed; the old listing goes first.
            if let present { ck.removeParticipant(present) }
            found.permission = ckPermission(wanted.permission)
            ck.addParticipant(found)
        }
    }

    /// Whether a CloudKit participant is the port's: the same user record, else the same
    /// lookup, else (a one-time link's invitee, who has neither) the same participant of the share.
    private static func isSamePerson(_ ck: CKShare.Participant, _ participant: ShareParticipant) -> Bool {
        if let name = ck.userIdentity.userRecordID?.recordName, let other = participant.userRecordName { return name == other }
        let info = ck.userIdentity.lookupInfo
        switch participant.lookup {
        case .emailAddress(let address): return info?.emailAddress == address
        case .phoneNumber(let number): return info?.phoneNumber == number
        case .userRecordName(let name): return info?.userRecordID?.recordName == name
        case nil: return participant.userRecordName == nil && participant.participantID.map { $0 == ck.participantID } == true
        }
    }

    // MARK: Metadata

    /// Metadata the system or a link lookup handed over, with its archive for acceptance.
    static func shareMetadata(_ ck: CKShare.Metadata) throws(CloudError) -> ShareMetadata {
        let id = CloudKitRecords.recordID(ck.share.recordID)
        return ShareMetadata(
            shareID: id, ownerName: id.zoneID.ownerName, rootRecordName: ck.hierarchicalRootRecordID?.recordName,
            title: (ck.share[CKShare.SystemFieldKey.title] as? NSString).map { $0 as String } ?? "", url: ck.share.url,
            participantRole: role(ck.participantRole), participantStatus: status(ck.participantStatus), archive: try archive(ck))
    }

    /// The system's metadata again, from its archive; nil when the metadata has none (it came
    /// from another cloud, or only its link is known: look the link up instead).
    static func ckMetadata(_ metadata: ShareMetadata) -> CKShare.Metadata? {
        metadata.archive.flatMap { try? NSKeyedUnarchiver.unarchivedObject(ofClass: CKShare.Metadata.self, from: $0) }
    }

    // MARK: Values

    private static func archive(_ object: NSObject & NSSecureCoding) throws(CloudError) -> Data {
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        } catch {
            throw CloudError(.internalError, "CloudKit's \(type(of: object)) could not be archived: \(error)")
        }
    }

    private static func permission(_ permission: CKShare.ParticipantPermission) -> SharePermission {
        permission == .readWrite ? .readWrite : permission == .readOnly ? .readOnly : .none
    }

    private static func ckPermission(_ permission: SharePermission) -> CKShare.ParticipantPermission {
        switch permission {
        case .readWrite: .readWrite
        case .readOnly: .readOnly
        case .none: .none
        }
    }
}
