import Foundation
import Testing
import SyncRuntime
@testable import SyncLocalCloud

/// A share's people as the cloud lists them, through LocalCloud's port and the CloudKit gateway
/// alike: the engine changes only the people the app names, whatever else the cloud lists or
/// does on its own, and refuses what CloudKit would answer by dropping someone.
@Suite("Engine: a share's people")
struct EngineShareParticipantsTests {
    typealias Household = EngineSharingTests.Household
    static let bob = EngineShareManagementTests.bob

    static func groceries(_ device: SyncWorld.Device) throws -> SharedList {
        try EngineShareManagementTests.groceries(device)
    }

    static func chores(_ device: SyncWorld.Device) throws -> SharedList {
        try #require(try device.store.fetch(SharedList.self, recordName: "chores"))
    }

    /// Whether the share lists that person as taking part (invited or accepted).
    static func lists(_ share: ShareRecord, _ person: ShareParticipant) -> Bool {
        share.participants.contains { $0.isSamePerson(as: person) && $0.acceptanceStatus != .removed }
    }

    /// A one-time link's invitee (CloudKit's `oneTimeURLParticipant()`, for when "a participant's
    /// email address / phone number / userRecordID isn't known up-front") has no user record and
    /// no lookup until they accept. Alice's Mac invited two so; every change her phone makes
    /// since (Bob's permission, Carol invited, the second invitee removed) keeps the first, and
    /// removes only the one named. Breaking it (the gateway removing whoever the port does not
    /// name, as it did; or two people without a name taken for each other): the invitees go with
    /// the first change, or the wrong one goes.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aOneTimeLinksInviteeStaysUntilRemoved(throughCloudKit: Bool) async throws {  // trap: T21.26
        let household = try await Household(throughCloudKit: throughCloudKit)
        let alice = household.alice
        try household.world.device("carol-phone", account: "carol")
        let mac = try household.world.cloud.device("alice-mac", account: "alice")
        var share = try await mac.fetchShares([household.share.id], in: .private)[household.share.id]!.get()
        share.participants += [ShareParticipant(userRecordName: nil, permission: .readOnly), ShareParticipant(userRecordName: nil, permission: .readWrite)]
        share = try await mac.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let invitees = share.participants.filter { $0.userRecordName == nil && $0.lookup == nil }
        try #require(invitees.count == 2 && invitees.allSatisfy { $0.participantID != nil })
        let groceries = try Self.groceries(alice)

        var saved = try await alice.engine.setPermission(.readOnly, for: Self.bob, on: groceries)
        #expect(invitees.allSatisfy { Self.lists(saved, $0) })
        saved = try await alice.engine.invite([ShareInvitation(.userRecordName("_carol"), permission: .readOnly)], to: groceries)
        #expect(invitees.allSatisfy { Self.lists(saved, $0) })
        #expect(saved.participants.first { $0.userRecordName == "_carol" }?.acceptanceStatus == .pending)
        saved = try await alice.engine.removeParticipant(invitees[1], from: groceries)
        #expect(Self.lists(saved, invitees[0]) && !Self.lists(saved, invitees[1]))
        #expect(Self.lists(saved, Self.bob) && saved.participants.contains { $0.userRecordName == "_carol" })
    }

    /// Bob was invited to "chores" and accepted; then the link opened, and Carol joined by it.
    /// Closing the link removes Carol (Apple, `CKShare.publicPermission`: "CloudKit removes all
    /// public participants") and nobody else, and adds nobody back (`CKShareParticipantRolePublicUser`:
    /// "owners cannot add public users"): Bob keeps the list, Carol loses it, and a later change
    /// (Bob's permission) does not bring her back. Breaking it (the gateway adding back whoever
    /// it listed before, or setting the link's permission when it does not change, which
    /// CloudKit's header says empties the list): Bob is gone, or the save is refused.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func closingTheLinkAddsNobodyBack(throughCloudKit: Bool) async throws {  // trap: T21.27
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob, world) = (household.alice, household.bob, household.world)
        let carol = try world.device("carol-phone", account: "carol")
        let chores = try Self.chores(alice)
        let invited = try await alice.engine.share(chores, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: invited, ownerAccount: "alice"))
        let opened = try await alice.engine.setPublicPermission(.readOnly, on: chores)
        #expect(opened.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .accepted)
        try await carol.engine.acceptShare(at: try #require(opened.url))
        await carol.sync()
        #expect(try carol.store.fetchAll(SharedList.self).map(\.recordName) == ["chores"])

        let closed = try await alice.engine.setPublicPermission(.none, on: chores)
        #expect(closed.publicPermission == .none)
        #expect(closed.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .accepted)
        #expect(!closed.participants.contains { $0.userRecordName == "_carol" && $0.acceptanceStatus != .removed })
        let lowered = try await alice.engine.setPermission(.readOnly, for: Self.bob, on: chores)
        #expect(!lowered.participants.contains { $0.userRecordName == "_carol" && $0.acceptanceStatus != .removed })
        await carol.sync()
        await bob.sync()
        #expect(try carol.store.fetchAll(SharedList.self).isEmpty)
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores", "groceries"])
    }

    /// A share opened to its link keeps the people who accepted (Apple, `CKShare.h`:
    /// "Already-accepted participants will remain on the share"), and they are still Alice's to
    /// manage: Bob's permission changes while the link is open. What CloudKit would answer by
    /// dropping someone is refused before any request, saying why, and the share stays as it
    /// was: the link opening while Carol's invitation waits (opening "will result in all pending
    /// participants being removed"), and inviting or removing anyone while it is open
    /// (`addParticipant:`: "In order to modify the list of participants, a share must have
    /// publicPermission set to CKShareParticipantPermissionNone"). Closed again, Bob can be
    /// removed. Breaking it (the engine's check left out): a request goes, and CloudKit drops
    /// Carol's invitation or refuses the save.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aShareOpenToItsLinkIsManagedWithinWhatCloudKitAllows(throughCloudKit: Bool) async throws {  // trap: T21.29
        let household = try await Household(throughCloudKit: throughCloudKit)
        let alice = household.alice
        try household.world.device("carol-phone", account: "carol")
        try household.world.device("dave-phone", account: "dave")
        let groceries = try Self.groceries(alice)
        _ = try await alice.engine.invite([ShareInvitation(.userRecordName("_carol"), permission: .readOnly)], to: groceries)
        let sent = alice.gateway.modifies.count
        await #expect {
            _ = try await alice.engine.setPublicPermission(.readOnly, on: groceries)
        } throws: { error in
            (error as? SyncError)?.cloudError?.code == .invalidArguments && "\(error)".contains("_carol") && "\(error)".contains("not accepted")
        }
        #expect(alice.gateway.modifies.count == sent)
        let carol = ShareParticipant(userRecordName: "_carol", permission: .readOnly)
        _ = try await alice.engine.removeParticipant(carol, from: groceries)
        let opened = try await alice.engine.setPublicPermission(.readOnly, on: groceries)
        #expect(opened.publicPermission == .readOnly && opened.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .accepted)
        let lowered = try await alice.engine.setPermission(.readOnly, for: Self.bob, on: groceries)
        #expect(lowered.participants.first { $0.isSamePerson(as: Self.bob) }?.permission == .readOnly)

        let before = alice.gateway.modifies.count
        for change in ["invite", "remove"] {
            await #expect {
                if change == "invite" {
                    _ = try await alice.engine.invite([ShareInvitation(.userRecordName("_dave"), permission: .readOnly)], to: groceries)
                } else {
                    _ = try await alice.engine.removeParticipant(Self.bob, from: groceries)
                }
            } throws: { error in
                (error as? SyncError)?.cloudError?.code == .invalidArguments && "\(error)".contains("link is off")
            }
        }
        #expect(alice.gateway.modifies.count == before)
        #expect(try await alice.engine.share(of: groceries)?.changeTag == lowered.changeTag)
        _ = try await alice.engine.setPublicPermission(.none, on: groceries)
        let removed = try await alice.engine.removeParticipant(Self.bob, from: groceries)
        #expect(!Self.lists(removed, Self.bob))
    }

    /// Bob left the list (the share lists him as removed), and Alice invites him again: he is
    /// invited afresh, accepts, and has the list back. The same after Alice removed him. Breaking
    /// it (an invitation skipping anyone listed, whatever their status; or the gateway only
    /// adding him, which CloudKit takes as an update of the listing it has, `addParticipant`:
    /// "the system updates the existing participant's properties", and leaves him removed): his
    /// acceptance is refused, "not invited".
    @Test(arguments: SyncWorld.cloudKitPaths)
    func someoneWhoLeftIsInvitedAgain(throughCloudKit: Bool) async throws {  // trap: T21.32
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob, world) = (household.alice, household.bob, household.world)
        try await bob.engine.leaveShare(Self.groceries(bob))
        let left = try #require(try await alice.engine.share(of: Self.groceries(alice)))
        try #require(left.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus ?? .removed == .removed)
        for round in ["left", "removed"] {
            if round == "removed" {
                _ = try await alice.engine.removeParticipant(Self.bob, from: Self.groceries(alice))
                await bob.sync()
                try #require(try bob.store.fetchAll(SharedList.self).isEmpty)
            }
            let invited = try await alice.engine.invite([ShareInvitation(.userRecordName("_bob"), permission: .readWrite)], to: Self.groceries(alice))
            #expect(invited.participants.first { $0.isSamePerson(as: Self.bob) && $0.acceptanceStatus != .removed }?.acceptanceStatus == .pending, "\(round)")
            try await bob.engine.acceptShare(world.cloud.shareMetadata(for: invited, ownerAccount: "alice"))
            await bob.sync()
            #expect(try bob.store.fetch(ListItem.self, recordName: "milk") != nil, "\(round)")
        }
    }

    /// People to invite are looked up together (CloudKit's `shareParticipants(forEmailAddresses:)`):
    /// three invitations by email cost one lookup request. Breaking it (a request per person, as
    /// the gateway made): three.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func peopleAreLookedUpInOneRequest(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        for name in ["carol", "dave", "erin"] {
            try household.world.cloud.addAccount(name, emailAddress: "\(name)@example.com")
        }
        let before = try household.world.cloud.counters()["requests.fetchParticipants"] ?? 0
        let invitations = ["carol", "dave", "erin"].map { ShareInvitation(.emailAddress("\($0)@example.com"), permission: .readOnly) }
        let saved = try await household.alice.engine.invite(invitations, to: Self.groceries(household.alice))
        #expect(try household.world.cloud.counters()["requests.fetchParticipants"] ?? 0 == before + 1)
        #expect(saved.participants.filter { $0.acceptanceStatus == .pending }.count == 3)
    }

    /// The owner's store holds the share as each management call saved it (`knownShare`), so
    /// her screens read it offline at once: after a permission change, a removal, the link
    /// opened. Breaking it (a call returning the saved share without keeping it): the store
    /// holds the version read before the change.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theOwnersStoreKeepsTheShareAsEachCallSavedIt(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let alice = household.alice
        let groceries = try Self.groceries(alice)
        let lowered = try await alice.engine.setPermission(.readOnly, for: Self.bob, on: groceries)
        #expect(try alice.store.knownShare(of: groceries) == lowered)
        let removed = try await alice.engine.removeParticipant(Self.bob, from: groceries)
        #expect(try alice.store.knownShare(of: groceries) == removed)
        let opened = try await alice.engine.setPublicPermission(.readWrite, on: groceries)
        #expect(try alice.store.knownShare(of: groceries) == opened && opened.publicPermission == .readWrite)
    }

    /// The owner of a zone-wide share cannot leave it (leaving is a participant's: the owner
    /// stops sharing): the engine refuses before any request, so no simulator's check is what
    /// stops it. Breaking it (the engine's check left out): the request goes to the shared
    /// database.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theOwnerCannotLeaveHerOwnZoneShare(throughCloudKit: Bool) async throws {  // trap: T21.29
        let home = try await EngineZoneShareTests.Home(throughCloudKit: throughCloudKit)
        let sent = home.alice.gateway.modifies.count
        await #expect {
            try await home.alice.engine.leaveShare(home.share)
        } throws: { error in
            (error as? SyncError)?.cloudError?.code == .invalidArguments
        }
        #expect(home.alice.gateway.modifies.count == sent)
        #expect(try await home.alice.engine.zoneShare() != nil)
    }
}
