import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// Sharing's races, each held at the request where it happens, through LocalCloud's port and the
/// CloudKit gateway alike: what two people, or two devices of one, do to a share at once.
@Suite("Engine: sharing races")
struct EngineShareRaceTests {
    typealias Household = EngineSharingTests.Household

    static func person(_ account: String) -> ShareParticipant {
        ShareParticipant(userRecordName: LocalCloud.userRecordName(forAccount: account), permission: .readWrite)
    }

    /// Alice's phone lowers Bob to read-only while her laptop removes Carol, both from the share
    /// as it was: the phone's save, held until the laptop's lands, meets the newer version, reads
    /// it again and makes its change on that. Both changes stay. Breaking it (no second reading):
    /// the phone's save fails with `serverRecordChanged`.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func twoDevicesOfTheOwnerChangeTheShareAtOnce(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (world, phone) = (household.world, household.alice)
        let laptop = try world.device("alice-laptop", account: "alice")
        let carol = try world.device("carol-phone", account: "carol")
        await laptop.sync()
        await carol.sync()
        _ = try await phone.engine.invite([ShareInvitation(.userRecordName("_carol"), permission: .readWrite)], to: EngineShareManagementTests.groceries(phone))
        try await carol.engine.acceptShare(world.cloud.shareMetadata(for: household.share, ownerAccount: "alice"))
        await carol.sync()
        await laptop.sync()

        let held = Gate()
        phone.gateway.hooks.withLock { $0.before[.modify] = { await held.wait() } }
        let groceries = try EngineShareManagementTests.groceries(phone)
        let engine = phone.engine
        let lowering = Task { try await engine.setPermission(.readOnly, for: Self.person("bob"), on: groceries) }
        #expect(await eventually { held.arrivals > 0 }, "the phone's save never went out")
        _ = try await laptop.engine.removeParticipant(Self.person("carol"), from: EngineShareManagementTests.groceries(laptop))
        held.open()
        let saved = try await lowering.value
        #expect(saved.participant(named: "_bob")?.permission == .readOnly)
        #expect(saved.participant(named: "_carol") == nil)
        await carol.sync()
        #expect(try carol.store.fetchAll(SharedList.self).isEmpty)
        let current = try #require(try await laptop.engine.share(of: EngineShareManagementTests.groceries(laptop)))
        #expect(current.participant(named: "_bob")?.permission == .readOnly && current.participant(named: "_carol") == nil)
    }

    /// Carol opens the link of "chores" while Alice turns it off: her acceptance, held until the
    /// link is off, is refused, and nothing of the list reaches her store, now or at a later pass;
    /// nothing is remembered to retry. Breaking it (a refused acceptance remembered as one to
    /// complete later): every pass of Carol's tries again.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aLinkTurnedOffWhileSomeoneAcceptsLetsNoOneIn(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (world, alice) = (household.world, household.alice)
        let carol = try world.device("carol-phone", account: "carol")
        await carol.sync()
        let chores = try #require(try alice.store.fetch(SharedList.self, recordName: "chores"))
        let opened = try await alice.engine.share(chores, inviting: [], publicPermission: .readOnly)
        let link = try #require(opened.url)

        let held = Gate()
        carol.gateway.hooks.withLock { $0.before[.acceptShare] = { await held.wait() } }
        let engine = carol.engine
        let accepting = Task { try await engine.acceptShare(at: link) }
        #expect(await eventually { held.arrivals > 0 }, "Carol's acceptance never went out")
        _ = try await alice.engine.setPublicPermission(.none, on: chores)
        held.open()
        let refusal = await #expect(throws: SyncError.self) { try await accepting.value }
        #expect(refusal?.cloudError?.code != .networkFailure && refusal?.cloudError?.code != .networkUnavailable, "\(String(describing: refusal))")
        await carol.sync()
        #expect(try carol.store.fetchAll(SharedList.self).isEmpty)
        #expect(try SharePhase(context: carol.engine.context).pendingAcceptances().isEmpty)
        let closed = try #require(try await alice.engine.share(of: chores))
        #expect(closed.participant(named: "_carol") == nil)
    }

    /// Bob edits an item and adds one while offline; meanwhile Alice removes him. Back online,
    /// his pass finds the list gone: his changes to it go with it (he may no longer write there),
    /// the list and items leave his store, his queue is not blocked, and his own note, written
    /// offline too, reaches the cloud. Alice's list is untouched. Breaking it (a shared zone's
    /// records kept when it leaves the shared database): Bob's store still shows Alice's list.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aParticipantRemovedWhileOfflineEditsLosesOnlyTheSharedChanges(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (world, alice, bob) = (household.world, household.alice, household.bob)
        world.cloud.setNetworkAvailable(false, for: bob.name)
        var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        try bob.store.save(milk)
        try bob.store.save(ListItem(recordName: "eggs", ownerName: "_alice", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        try bob.store.save(Note(recordName: "bobs-note", title: "mine"))
        _ = try await alice.engine.removeParticipant(Self.person("bob"), from: EngineShareManagementTests.groceries(alice))
        world.cloud.setNetworkAvailable(true, for: bob.name)
        await bob.sync()
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).isEmpty && bob.store.fetchAll(ListItem.self).isEmpty)
        #expect(try !bob.store.hasUnpushedChanges())
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records["bobs-note"] != nil)
        await alice.sync()
        #expect(try alice.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
        #expect(try alice.store.fetch(ListItem.self, recordName: "eggs") == nil)
    }
}
