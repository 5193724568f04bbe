// Tests of the CloudKit gateway over its stand-in, which exists only where CloudKit does not: on
// Apple platforms the gateway talks to CloudKit itself (docs/CloudKit.md).
#if !canImport(CloudKit)
@testable import CloudKitGateway
import CloudKitStandIn
import Foundation
import SyncLocalCloud
import SyncRuntime
import Testing

/// Shares, participants and metadata between the port and CloudKit, driven through the stand-in
/// down to LocalCloud: CloudKit makes neither participants nor metadata in code, so each travels
/// as its archive.
@Suite("CloudKit gateway: shares, participants and metadata")
struct CloudKitShareMappingTests {
    let cloud: LocalCloud
    let alice: CKContainer
    let bob: CKContainer
    static let zone = ZoneID(zoneName: "SyncgenZone")

    init() async throws {
        cloud = try LocalCloud.inMemory()
        try cloud.addAccount("bob", emailAddress: "bob@example.com")
        try cloud.addAccount("carol", phoneNumber: "+1 555 0100")
        alice = CKContainer(device: try cloud.device("alice-phone", account: "alice"))
        bob = CKContainer(device: try cloud.device("bob-phone", account: "bob"))
        _ = try await alice.privateCloudDatabase.modifyRecordZones(saving: [CKRecordZone(zoneName: Self.zone.zoneName)], deleting: [])
    }

    /// Alice shares a list with the person a lookup finds for Bob's email, and saves the root and
    /// the share in one request; the saved share carries Bob with his archive and the link.
    func shareWithBob() async throws -> (share: ShareRecord, root: SyncRecord) {
        let root = SyncRecord(recordType: "List", id: RecordID(recordName: "groceries", zoneID: Self.zone), fields: ["title": .string("Groceries")])
        var bobParticipant = try CloudKitShares.participant(try await alice.shareParticipant(forEmailAddress: "bob@example.com"))
        bobParticipant.permission = .readWrite
        let share = ShareRecord(
            id: RecordID(recordName: "share-groceries", zoneID: Self.zone), rootRecordName: "groceries", title: "Groceries", participants: [bobParticipant])
        let ckRoot = try CloudKitRecords.ckRecord(root)
        let ckShare = try CloudKitShares.ckShare(share, current: nil, root: ckRoot)
        let saved = try await alice.privateCloudDatabase.modifyRecords(saving: [ckRoot, ckShare], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
        let savedShare = try #require(try saved.saveResults[ckShare.recordID]?.get() as? CKShare)
        return (try CloudKitShares.shareRecord(savedShare, rootRecordName: "groceries"), root)
    }

    /// Apple, `CKShare.Participant` (no public initialiser) and `CKContainer.shareParticipant(forEmailAddress:)`:
    /// a participant comes from a lookup, travels as its archive, and is unarchived to be added.
    /// A participant the port made up has no archive and is refused. Breaking it: adding a
    /// participant without its lookup is impossible against CloudKit, whatever LocalCloud takes.
    @Test func aParticipantALookupFoundIsAddedFromItsArchive() async throws {
        let (share, _) = try await shareWithBob()
        let bobInShare = try #require(share.participants.first { $0.userRecordName == "_bob" })
        #expect(bobInShare.permission == .readWrite && bobInShare.lookup == .emailAddress("bob@example.com") && bobInShare.archive != nil)
        #expect(share.url != nil && share.title == "Groceries")
        let made = ShareParticipant(userRecordName: "_carol", permission: .readOnly)
        var withMadeUp = share
        withMadeUp.participants.append(made)
        #expect(throws: CloudError.self) { try CloudKitShares.ckShare(withMadeUp, current: nil, root: nil) }
    }

    /// An existing share is saved as CloudKit has it (fetched just before), with the port's
    /// participants: a permission changed, a person added from a lookup (Carol, by phone),
    /// nobody duplicated. Breaking it: a share rebuilt without its current participants would
    /// drop everyone CloudKit knows.
    @Test func anExistingShareKeepsItsParticipantsAndTakesTheChanges() async throws {
        var (share, _) = try await shareWithBob()
        let shareID = CloudKitRecords.recordID(share.id)
        let current = try #require(try await alice.privateCloudDatabase.records(for: [shareID], desiredKeys: nil)[shareID]?.get() as? CKShare)
        var carol = try CloudKitShares.participant(try await alice.shareParticipant(forPhoneNumber: "+1 555 0100"))
        carol.permission = .readOnly
        share.participants = share.participants.map { participant in
            var participant = participant
            if participant.userRecordName == "_bob" { participant.permission = .readOnly }
            return participant
        } + [carol]
        let save = try CloudKitShares.ckShare(share, current: current, root: nil)
        _ = try await alice.privateCloudDatabase.modifyRecords(saving: [save], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
        let stored = try #require(try cloud.snapshot().zone(Self.zone.zoneName, ofAccount: "alice")?.shares["share-groceries"])
        let byName = Dictionary(uniqueKeysWithValues: stored.participants.compactMap { p in p.userRecordName.map { ($0, p.permission) } })
        #expect(byName["_bob"] == .readOnly && byName["_carol"] == .readOnly)
        #expect(stored.participants.filter { $0.userRecordName == "_bob" }.count == 1)
    }

    /// Apple, `CKShare.Metadata` (no public initialiser) and `CKContainer.shareMetadata(for:)`:
    /// the link leads to metadata, which travels as its archive and is accepted from it. Breaking
    /// it: metadata without its archive cannot be handed back to CloudKit's `accept(_:)`.
    @Test func metadataFromTheLinkIsAcceptedFromItsArchive() async throws {
        let (share, _) = try await shareWithBob()
        let metadata = try CloudKitShares.shareMetadata(try await bob.shareMetadata(for: try #require(share.url)))
        #expect(metadata.rootRecordName == "groceries" && metadata.archive != nil)
        let again = try #require(CloudKitShares.ckMetadata(metadata))
        _ = try await bob.accept(again)
        let changes = try await bob.sharedCloudDatabase.databaseChanges(since: nil, resultsLimit: nil)
        #expect(changes.modifications.map(\.zoneID.zoneName) == [Self.zone.zoneName])
        #expect(CloudKitShares.ckMetadata(ShareMetadata(shareID: metadata.shareID, ownerName: metadata.ownerName, rootRecordName: nil, title: "")) == nil)
    }

    /// Apple, `CKShare.ParticipantRole.administrator`: "An administrator of a share can add and
    /// remove participants and change their permissions." A participant of that role comes to
    /// the port as an administrator, never as a private user, read by CloudKit's number (the case
    /// is iOS 26's). Breaking it: the old mapping, which made every role but owner and public a
    /// private user.
    @Test func anAdministratorStaysAnAdministrator() async throws {
        let identity = CKUserIdentity(userRecordID: CKRecord.ID(recordName: "_dave"), lookupInfo: nil)
        let administrator = CKShare.Participant(userIdentity: identity, role: .administrator, permission: .readWrite, acceptanceStatus: .accepted)
        #expect(try CloudKitShares.participant(administrator).role == .administrator)
        // Kept by the cloud, and read back through CloudKit's objects.
        var (share, _) = try await shareWithBob()
        let device = try cloud.device("alice-phone", account: "alice")
        let current = try #require(try await device.fetchShares([share.id], in: .private)[share.id]?.get())
        share = current
        share.participants.append(ShareParticipant(userRecordName: "_dave", role: .administrator, permission: .readWrite, acceptanceStatus: .accepted))
        _ = try await device.modify(ModifyRequest(sharesToSave: [share]), in: .private)
        let shareID = CloudKitRecords.recordID(share.id)
        let fetched = try #require(try await alice.privateCloudDatabase.records(for: [shareID], desiredKeys: nil)[shareID]?.get() as? CKShare)
        let dave = try #require(try CloudKitShares.shareRecord(fetched, rootRecordName: nil).participants.first { $0.userRecordName == "_dave" })
        #expect(dave.role == .administrator)
    }

    /// Apple, `CKShare.Metadata.participantRole` and `participantStatus`: the role and the
    /// acceptance status "for the user who retrieves the metadata". The owner reads owner and
    /// accepted; Bob, invited, reads private user and pending, then accepted once he accepted.
    @Test func metadataSaysWhatTheUserIsToTheShare() async throws {
        let (share, _) = try await shareWithBob()
        let url = try #require(share.url)
        let owners = try CloudKitShares.shareMetadata(try await alice.shareMetadata(for: url))
        #expect(owners.participantRole == .owner && owners.participantStatus == .accepted)
        let bobs = try await bob.shareMetadata(for: url)
        #expect(try CloudKitShares.shareMetadata(bobs).participantRole == .privateUser)
        #expect(try CloudKitShares.shareMetadata(bobs).participantStatus == .pending)
        _ = try await bob.accept(bobs)
        #expect(try CloudKitShares.shareMetadata(try await bob.shareMetadata(for: url)).participantStatus == .accepted)
    }
}
#endif
