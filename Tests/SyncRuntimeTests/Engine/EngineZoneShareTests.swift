import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// An owner sharing their whole zone (`shareZone`), through LocalCloud's port and the CloudKit
/// gateway alike: a household of many lists, including the ones made after it was shared.
@Suite("Engine: sharing a whole zone")
struct EngineZoneShareTests {
    /// The household's models: every one may live in a shared zone.
    static let models: [any SyncModel.Type] = [SharedList.self, Member.self, ListItem.self]
    static let bob = EngineShareManagementTests.bob

    /// Alice's zone (two lists, an item) shared whole with Bob, who accepted and synced.
    struct Home {
        let world: SyncWorld
        let alice: SyncWorld.Device
        let bob: SyncWorld.Device
        let share: ShareRecord

        init(permission: SharePermission = .readWrite, throughCloudKit: Bool = false) async throws {
            world = try SyncWorld(throughCloudKit: throughCloudKit)
            alice = try world.device("alice-phone", account: "alice", models: EngineZoneShareTests.models)
            bob = try world.device("bob-phone", account: "bob", models: EngineZoneShareTests.models)
            try alice.store.save([SharedList(recordName: "groceries", title: "Groceries"), SharedList(recordName: "chores", title: "Chores")])
            try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
            await alice.sync()
            await bob.sync()
            share = try await alice.engine.shareZone(title: "Home", inviting: [ShareInvitation(.userRecordName("_bob"), permission: permission)])
            try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
            await bob.sync()
        }
    }

    /// Every list of the zone reaches Bob, and so does one Alice makes afterwards, with no call
    /// beyond saving it; Bob's item in it reaches Alice. Both read the one share of the zone.
    /// Breaking it (the zone's share saved as a root's share of "groceries"): the cloud refuses
    /// it, since a root's share is saved with its root.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func everyRecordOfTheZoneIsSharedIncludingLaterOnes(throughCloudKit: Bool) async throws {
        let home = try await Home(throughCloudKit: throughCloudKit)
        let (alice, bob) = (home.alice, home.bob)
        #expect(home.share.rootRecordName == nil && home.share.id.recordName == ShareRecord.zoneWideRecordName)
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores", "groceries"])
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.ownerName == "_alice")

        try alice.store.save(SharedList(recordName: "party", title: "Party"))
        await alice.sync()
        await bob.sync()
        let party = try #require(try bob.store.fetch(SharedList.self, recordName: "party"))
        try bob.store.save(ListItem(recordName: "cake", parent: RecordReference(party), text: "Cake", assignee: .unset))
        await bob.sync()
        await alice.sync()
        #expect(try alice.store.fetch(ListItem.self, recordName: "cake")?.parent?.recordName == "party")

        let current = try #require(try await alice.engine.zoneShare())
        #expect(current.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .accepted)
        #expect(try alice.store.knownShare(of: #require(try alice.store.fetch(SharedList.self, recordName: "party")))?.id == home.share.id)
        #expect(try bob.store.knownShare(of: party)?.currentUserParticipant?.permission == .readWrite)
    }

    /// The owner manages the zone's share through the share itself: a lowered permission is
    /// refused at Bob's save, a removal takes the whole zone from him, and his own lists stay.
    /// Breaking it (the management calls aimed at a root's share name): each fails `unknownItem`.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theOwnerManagesTheZonesShare(throughCloudKit: Bool) async throws {
        let home = try await Home(throughCloudKit: throughCloudKit)
        let (alice, bob) = (home.alice, home.bob)
        try bob.store.save(SharedList(recordName: "bobs", title: "Bob's"))
        await bob.sync()

        let lowered = try await alice.engine.setPermission(.readOnly, for: Self.bob, on: home.share)
        #expect(lowered.participants.first { $0.isSamePerson(as: Self.bob) }?.permission == .readOnly)
        await bob.sync()
        var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        #expect(throws: ReadOnlyShareRefusal.self) { try bob.store.save(milk) }

        _ = try await alice.engine.removeParticipant(Self.bob, from: home.share)
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["bobs"])
        #expect(try bob.store.fetchAll(ListItem.self).isEmpty)

        try await alice.engine.stopSharing(home.share)
        #expect(try await alice.engine.zoneShare() == nil)
        #expect(try alice.store.fetchAll(SharedList.self).count == 2)
    }

    /// Bob leaves the zone's share: everything of Alice's zone goes from his store, his own lists
    /// stay, and Alice's share no longer has him. Breaking it (the zone's records kept): Bob still
    /// shows Alice's lists.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aParticipantLeavesTheZonesShare(throughCloudKit: Bool) async throws {
        let home = try await Home(throughCloudKit: throughCloudKit)
        let (alice, bob) = (home.alice, home.bob)
        try bob.store.save(SharedList(recordName: "bobs", title: "Bob's"))
        let groceries = try #require(try bob.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try #require(try bob.store.knownShare(of: groceries))
        try await bob.engine.leaveShare(share)
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["bobs"])
        #expect(try bob.store.fetchAll(ListItem.self).isEmpty)
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["bobs"])
        await alice.sync()
        let current = try #require(try await alice.engine.zoneShare())
        #expect(current.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus ?? .removed == .removed)
        #expect(try alice.store.fetchAll(SharedList.self).count == 2)
    }

    /// A root's share is not left as a zone's: its record name says which it is (through CloudKit
    /// a root's share does not name its root), so `leaveShare(share)` refuses it and Bob keeps
    /// both of Alice's lists. Breaking it (a share without a root taken for a zone's): Bob's
    /// store loses "chores" too, through the CloudKit gateway.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRootsShareIsNotLeftAsAZones(throughCloudKit: Bool) async throws {
        let household = try await EngineSharingTests.Household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        let chores = try #require(try alice.store.fetch(SharedList.self, recordName: "chores"))
        let share = try await alice.engine.share(chores, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        try await bob.engine.acceptShare(household.world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()
        let groceries = try #require(try bob.store.fetch(SharedList.self, recordName: "groceries"))
        let known = try #require(try bob.store.knownShare(of: groceries))
        await #expect(throws: SyncError.self) { try await bob.engine.leaveShare(known) }
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores", "groceries"])
    }

    /// A zone-wide share would hand participants every record of the zone: a model the schema
    /// keeps private refuses it, naming the model, before anything is sent; a zone that holds a
    /// root's share is refused by the cloud. Breaking it (the check left out): the share is saved
    /// and Bob would receive Alice's private notes.
    @Test func aZoneWithPrivateModelsOrARootsShareIsNotSharedWhole() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        let refusal = await #expect(throws: SyncError.self) { try await alice.engine.shareZone(title: "Home") }
        #expect(refusal?.cloudError?.code == .invalidArguments)
        #expect(refusal?.description.contains("Note") == true, "\(String(describing: refusal))")
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.shares.isEmpty == true)

        let household = try world.device("alice-laptop", account: "alice", models: Self.models)
        await household.sync()
        _ = try await household.engine.share(try #require(try household.store.fetch(SharedList.self, recordName: "groceries")))
        let taken = await #expect(throws: SyncError.self) { try await household.engine.shareZone(title: "Home") }
        #expect(taken?.cloudError?.code == .alreadyShared, "\(String(describing: taken))")
    }
}
