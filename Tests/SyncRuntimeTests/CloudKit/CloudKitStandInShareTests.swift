// Tests of the CloudKit stand-in, which exists only where CloudKit does not (docs/CloudKit.md).
#if !canImport(CloudKit)
import CloudKitStandIn
import Foundation
import SyncLocalCloud
import SyncRuntime
import Testing

/// The stand-in's `CKShare` and `CKContainer` as Apple's header and pages say, the harsher
/// reading where they allow two: what an app (and the gateway) does to a share's participant
/// list on the client's side, and what the server answers.
@Suite("CloudKit stand-in: a share's participants")
struct CloudKitStandInShareTests {
    let cloud: LocalCloud
    let alice: CKContainer
    let bob: CKContainer
    static var zone: CKRecordZone.ID { CKRecordZone.ID(zoneName: "SyncgenZone") }
    static var shareID: CKRecord.ID { CKRecord.ID(recordName: "share-groceries", zoneID: zone) }

    /// The mapping tests' cloud: Alice with her zone, Bob (found by email), Carol (by phone).
    init() async throws {
        let setup = try await CloudKitShareMappingTests()
        (cloud, alice, bob) = (setup.cloud, setup.alice, setup.bob)
    }

    /// Alice shares a list with Bob (found by his email), and Bob accepts.
    func shareAcceptedByBob() async throws -> CKShare {
        let root = CKRecord(recordType: "List", recordID: CKRecord.ID(recordName: "groceries", zoneID: Self.zone))
        let share = CKShare(rootRecord: root, shareID: Self.shareID)
        share.addParticipant(try await alice.shareParticipant(forEmailAddress: "bob@example.com"))
        let saved = try await save(share, root)
        _ = try await bob.accept(try await bob.shareMetadata(for: try #require(saved.url)))
        return try await fetched()
    }

    /// Saves records in one atomic request; returns the share as saved, or throws its error.
    @discardableResult
    func save(_ records: CKRecord...) async throws -> CKShare {
        do {
            let results = try await alice.privateCloudDatabase.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
            return try #require(try results.saveResults[Self.shareID]?.get() as? CKShare)
        } catch let error as CKError {
            throw (error.partialErrorsByItemID?[Self.shareID] as? CKError) ?? error
        }
    }

    func fetched() async throws -> CKShare {
        try #require(try await alice.privateCloudDatabase.records(for: [Self.shareID], desiredKeys: nil)[Self.shareID]?.get() as? CKShare)
    }

    /// Apple, `CKShare.h`, `publicPermission`: "Changing the public permission to
    /// CKShareParticipantPermissionNone will result in all participants being removed from the
    /// share. You may subsequently choose to call addParticipant: before saving the share, those
    /// participants will be added to the share"; "Changing the public permission to ... ReadOnly
    /// or ... ReadWrite will result in all pending participants being removed. Already-accepted
    /// participants will remain." The stand-in removes them at once, whenever the property
    /// changes (the harsher reading; the page's milder one removes the public participants at the
    /// save); set to the value it has, nothing changes and nobody is removed (the header speaks
    /// of changing it). Breaking it (the list left alone): the gateway's adding back goes
    /// untested; (emptied on any set): a share saved with its own permission loses everyone.
    @Test func changingThePublicPermissionEmptiesTheList() async throws {
        let share = try await shareAcceptedByBob()
        let bobListed = try #require(share.participants.first { $0.userIdentity.userRecordID?.recordName == "_bob" })
        #expect(share.publicPermission == .none)
        share.publicPermission = .none
        #expect(share.participants.contains { $0.userIdentity.userRecordID?.recordName == "_bob" }, "the value it had: no change")
        share.publicPermission = .readOnly
        share.publicPermission = .none
        #expect(share.participants.allSatisfy { $0.role == .owner })
        share.addParticipant(bobListed)
        let saved = try await save(share)
        #expect(saved.participants.contains { $0.userIdentity.userRecordID?.recordName == "_bob" && $0.acceptanceStatus == .accepted })

        let pending = try await fetched()
        pending.addParticipant(try await alice.shareParticipant(forPhoneNumber: "+1 555 0100"))
        try await save(pending)
        let opening = try await fetched()
        #expect(opening.participants.contains { $0.acceptanceStatus == .pending })
        opening.publicPermission = .readOnly
        #expect(!opening.participants.contains { $0.acceptanceStatus == .pending })
        #expect(opening.participants.contains { $0.userIdentity.userRecordID?.recordName == "_bob" && $0.acceptanceStatus == .accepted })
    }

    /// Apple, `CKShare.h`, `addParticipant:`: "If a participant with a matching userIdentity
    /// already exists, then that existing participant's properties will be updated; no new
    /// participant will be added." Bob, looked up again and added, is one participant with the
    /// new permission; someone who left stays removed when only added again. Breaking it (a
    /// second entry): the gateway's invitation of someone who left goes untested.
    @Test func addingSomeoneListedUpdatesThem() async throws {
        let share = try await shareAcceptedByBob()
        let again = try await alice.shareParticipant(forEmailAddress: "bob@example.com")
        again.permission = .readWrite
        share.addParticipant(again)
        let bobs = share.participants.filter { $0.userIdentity.userRecordID?.recordName == "_bob" }
        #expect(bobs.count == 1 && bobs.first?.permission == .readWrite && bobs.first?.acceptanceStatus == .accepted)
        let leaving = try await bob.sharedCloudDatabase.modifyRecords(
            saving: [], deleting: [CKRecord.ID(recordName: Self.shareID.recordName, zoneID: CKRecordZone.ID(zoneName: Self.zone.zoneName, ownerName: "_alice"))])
        #expect(leaving.deleteResults.values.allSatisfy { (try? $0.get()) != nil })
        let left = try await fetched()
        left.addParticipant(try await alice.shareParticipant(forEmailAddress: "bob@example.com"))
        let saved = try await save(left)
        #expect(saved.participants.filter { $0.userIdentity.userRecordID?.recordName == "_bob" }.map(\.acceptanceStatus) == [.removed])
    }

    /// Apple, `CKShare.h`, `addParticipant:`: "In order to modify the list of participants, a
    /// share must have publicPermission set to CKShareParticipantPermissionNone"; `removeParticipant:`:
    /// "It's not allowed to call removeParticipant on a CKShare with a CKShareParticipant that has
    /// never been added to that share"; `CKShareParticipantRolePublicUser`: "owners cannot add
    /// public users". What CloudKit does then is not documented; the stand-in refuses the share's
    /// save with `invalidArguments`, naming the call. Breaking it (the calls taken): an engine
    /// that changes an open share's people passes.
    @Test func aListChangedAsTheHeaderForbidsIsRefusedAtTheSave() async throws {
        let share = try await shareAcceptedByBob()
        share.publicPermission = .readOnly
        try #require(try await save(share).participants.contains { $0.role != .owner })
        let carol = try await alice.shareParticipant(forPhoneNumber: "+1 555 0100")
        let stranger = try await alice.shareParticipant(forPhoneNumber: "+1 555 0199")
        let publicUser = try await alice.shareParticipant(forPhoneNumber: "+1 555 0198")
        publicUser.role = .publicUser
        let misuses: [(String, (CKShare) -> Void)] = [
            ("add while open", { $0.addParticipant(carol) }),
            ("remove while open", { share in share.participants.first { $0.role != .owner }.map(share.removeParticipant) }),
            ("remove one never added", { share in share.publicPermission = .none; share.removeParticipant(stranger) }),
            ("add a public user", { share in share.publicPermission = .none; share.addParticipant(publicUser) }),
        ]
        for (name, misuse) in misuses {
            let current = try await fetched()
            misuse(current)
            do {
                try await save(current)
                Issue.record("\(name): the save went through")
            } catch {
                #expect((error as? CKError)?.code == .invalidArguments && "\(error)".contains("CKShare.h"), "\(name): \(error)")
            }
        }
    }

    /// Apple, `CKContainer.accept(_:)`: returns "the accepted share": the share as the server
    /// holds it once the user is in it, not the metadata's copy. Breaking it (the metadata's
    /// share returned): no participants, no current user.
    @Test func acceptingReturnsTheShareAsTheServerHoldsIt() async throws {
        let root = CKRecord(recordType: "List", recordID: CKRecord.ID(recordName: "groceries", zoneID: Self.zone))
        let share = CKShare(rootRecord: root, shareID: Self.shareID)
        share.addParticipant(try await alice.shareParticipant(forEmailAddress: "bob@example.com"))
        let saved = try await save(share, root)
        let accepted = try await bob.accept(try await bob.shareMetadata(for: try #require(saved.url)))
        #expect(accepted.currentUserParticipant?.userIdentity.userRecordID?.recordName == "_bob")
        #expect(accepted.currentUserParticipant?.acceptanceStatus == .accepted)
        #expect(accepted.participants.contains { $0.role == .owner })
    }

    /// Apple, `CKShare.Participant.oneTimeURLParticipant()`: a participant for "inviting a
    /// participant without knowing their handle"; "a one-time URL participant in the pending
    /// state has empty nameComponents"; `participantID` names it. Added and saved, it comes back
    /// pending, with no identity, under the same identifier. Breaking it (a new identifier at each
    /// save): it cannot be told apart from another such invitee.
    @Test func aOneTimeLinksInviteeHasNoIdentityAndKeepsItsIdentifier() async throws {
        let share = try await shareAcceptedByBob()
        let invitee = CKShare.Participant.oneTimeURLParticipant()
        #expect(invitee.userIdentity.userRecordID == nil && invitee.userIdentity.lookupInfo == nil && invitee.acceptanceStatus == .pending)
        share.addParticipant(invitee)
        let saved = try await save(share)
        let listed = try #require(saved.participants.first { $0.participantID == invitee.participantID })
        #expect(listed.userIdentity.userRecordID == nil && listed.acceptanceStatus == .pending && listed.permission == .readOnly)
        #expect(try await fetched().participants.contains { $0.participantID == invitee.participantID })
    }

    /// Apple, `CKContainer.shareParticipants(forUserRecordIDs:)`: one request for all the IDs,
    /// answering "a dictionary of fetched share participants" keyed by them, each a participant or
    /// "an error that describes why CloudKit can't fetch that share participant". Breaking it (a
    /// request per ID): the count.
    @Test func peopleAreFoundInOneRequest() async throws {
        let before = try cloud.counters()["requests.fetchParticipants"] ?? 0
        let ids = ["_bob", "_carol", "_nobody"].map { CKRecord.ID(recordName: $0) }
        let found = try await alice.shareParticipants(forUserRecordIDs: ids)
        #expect(try cloud.counters()["requests.fetchParticipants"] ?? 0 == before + 1)
        #expect(try found[ids[0]]?.get().userIdentity.userRecordID?.recordName == "_bob")
        #expect(try found[ids[1]]?.get().userIdentity.userRecordID?.recordName == "_carol")
        #expect(throws: CKError.self) { try found[ids[2]]?.get() }
    }
}
#endif
