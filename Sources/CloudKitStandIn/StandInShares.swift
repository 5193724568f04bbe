// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncLocalCloud

/// Shares between CloudKit's objects and LocalCloud's, as CloudKit's server sees them: a share to
/// save carries its title, public permission and participants; one returned carries its link and
/// every participant with their identity.
enum StandInShares {
    /// The share a client's `CKShare` saves, or why the client refuses to send it (the app
    /// changed it as CloudKit's header does not allow).
    static func save(_ ck: CKShare) -> Result<ShareRecord, CKError> {
        if let misuse = ck.misuse {
            return .failure(CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey: "\(misuse) (CloudKit's CKShare.h)"]))
        }
        let id = StandInRecords.recordID(ck.recordID)
        var share = ShareRecord(
            id: id, rootRecordName: ck.rootRecordName, title: (ck[CKShare.SystemFieldKey.title] as? NSString).map { $0 as String } ?? "",
            participants: ck.participants.map(participant), publicPermission: permission(ck.publicPermission))
        if let tag = ck.recordChangeTag {
            share.systemFields = LocalCloudSystemFields.archive(recordType: ShareRecord.recordType, id: id, changeTag: tag)
        }
        return .success(share)
    }

    /// A share as CloudKit's server returns it.
    static func ckShare(_ share: ShareRecord) -> CKShare {
        let participants = share.participants.map(ckParticipant)
        let current = share.currentUserParticipant.flatMap { current in share.participants.firstIndex(of: current).map { participants[$0] } }
        let ck = CKShare(
            shareID: StandInRecords.recordID(share.id), rootRecordName: share.rootRecordName, url: share.url,
            participants: participants, publicPermission: ckPermission(share.publicPermission), currentUserParticipant: current)
        ck[CKShare.SystemFieldKey.title] = share.title as NSString
        ck.setServerMetadata(changeTag: share.changeTag, creationDate: nil, modificationDate: nil, creator: nil, lastModifier: nil, share: nil)
        ck.markUnchanged()
        return ck
    }

    static func ckParticipant(_ participant: ShareParticipant) -> CKShare.Participant {
        let lookup: CKUserIdentity.LookupInfo? = switch participant.lookup {
        case .emailAddress(let address): CKUserIdentity.LookupInfo(emailAddress: address)
        case .phoneNumber(let number): CKUserIdentity.LookupInfo(phoneNumber: number)
        case .userRecordName(let name): CKUserIdentity.LookupInfo(userRecordID: CKRecord.ID(recordName: name, zoneID: CKRecordZone.ID.default))
        case nil: nil
        }
        let identity = CKUserIdentity(
            userRecordID: participant.userRecordName.map { CKRecord.ID(recordName: $0, zoneID: CKRecordZone.ID.default) }, lookupInfo: lookup,
            nameComponents: participant.nameComponents)
        return CKShare.Participant(
            userIdentity: identity, role: ckRole(participant.role), permission: ckPermission(participant.permission),
            acceptanceStatus: ckStatus(participant.acceptanceStatus), participantID: participant.participantID ?? UUID().uuidString)
    }

    private static func ckRole(_ role: ShareParticipant.Role) -> CKShare.ParticipantRole {
        switch role {
        case .owner: .owner
        case .administrator: .administrator
        case .privateUser: .privateUser
        case .publicUser: .publicUser
        }
    }

    private static func ckStatus(_ status: ShareParticipant.AcceptanceStatus) -> CKShare.ParticipantAcceptanceStatus {
        switch status {
        case .pending: .pending
        case .accepted: .accepted
        case .removed: .removed
        }
    }

    private static func participant(_ ck: CKShare.Participant) -> ShareParticipant {
        let info = ck.userIdentity.lookupInfo
        let lookup: ParticipantLookup? = if let address = info?.emailAddress { .emailAddress(address) }
            else if let number = info?.phoneNumber { .phoneNumber(number) }
            else if let id = info?.userRecordID { .userRecordName(id.recordName) }
            else { nil }
        let role: ShareParticipant.Role = switch ck.role {
        case .owner: .owner
        case .administrator: .administrator
        case .publicUser: .publicUser
        case .privateUser, .unknown: .privateUser
        }
        let status: ShareParticipant.AcceptanceStatus = ck.acceptanceStatus == .accepted ? .accepted : ck.acceptanceStatus == .removed ? .removed : .pending
        return ShareParticipant(
            userRecordName: ck.userIdentity.userRecordID?.recordName, lookup: lookup, role: role, permission: permission(ck.permission),
            acceptanceStatus: status, participantID: ck.participantID)
    }

    private static func permission(_ permission: CKShare.ParticipantPermission) -> SharePermission {
        switch permission {
        case .readWrite: .readWrite
        case .readOnly: .readOnly
        case .none, .unknown: .none
        }
    }

    private static func ckPermission(_ permission: SharePermission) -> CKShare.ParticipantPermission {
        switch permission {
        case .readWrite: .readWrite
        case .readOnly: .readOnly
        case .none: .none
        }
    }

    static func metadata(_ metadata: ShareMetadata) -> CKShare.Metadata {
        let share = CKShare(shareID: StandInRecords.recordID(metadata.shareID), rootRecordName: metadata.rootRecordName, url: metadata.url, participants: [])
        share[CKShare.SystemFieldKey.title] = metadata.title as NSString
        let root = metadata.rootRecordName.map { CKRecord.ID(recordName: $0, zoneID: StandInRecords.zoneID(metadata.shareID.zoneID)) }
        return CKShare.Metadata(
            share: share, hierarchicalRootRecordID: root, participantRole: metadata.participantRole.map(ckRole) ?? .unknown,
            participantStatus: metadata.participantStatus.map(ckStatus) ?? .unknown)
    }

    static func shareMetadata(_ ck: CKShare.Metadata) -> ShareMetadata {
        let id = StandInRecords.recordID(ck.share.recordID)
        return ShareMetadata(
            shareID: id, ownerName: id.zoneID.ownerName, rootRecordName: ck.hierarchicalRootRecordID?.recordName,
            title: (ck.share[CKShare.SystemFieldKey.title] as? NSString).map { $0 as String } ?? "", url: ck.share.url)
    }
}
#endif
