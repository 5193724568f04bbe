import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Structure that changes while devices are offline: records moving between parents and zones,
/// parents and roots deleted while their children are edited. Each scenario ends with every
/// device and the cloud agreeing, nothing pending and nothing set aside.
@Suite("Engine: structure that changes while devices are offline")
struct EngineStructureTests {
    /// Alice's phone and tablet, her lists "groceries" (with "milk") and "chores", in sync.
    struct TwoDevices {
        let world: SyncWorld
        let phone: SyncWorld.Device
        let tablet: SyncWorld.Device

        init() async throws {
            world = try SyncWorld()
            phone = try world.device("alice-phone", account: "alice")
            tablet = try world.device("alice-tablet", account: "alice")
            try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
            try phone.store.save(SharedList(recordName: "chores", title: "Chores"))
            try phone.store.save(item("milk", in: "groceries"))
            await phone.sync()
            await tablet.sync()
        }

        var cloudRecords: [String] {
            get throws { try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() ?? [] }
        }

        /// Every device and the cloud hold exactly `names` (lists and items), with nothing
        /// pending or set aside.
        func expectEverywhere(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
            await world.syncAll()
            #expect(try cloudRecords == names, "cloud", sourceLocation: sourceLocation)
            for device in [phone, tablet] {
                let local = (try device.store.fetchAll(SharedList.self).map(\.recordName) + device.store.fetchAll(ListItem.self).map(\.recordName)).sorted()
                #expect(local == names, "\(device.name)", sourceLocation: sourceLocation)
                #expect(try !device.store.hasUnpushedChanges(), "\(device.name) has changes pending", sourceLocation: sourceLocation)
                #expect(try await device.engine.failedChanges().isEmpty, "\(device.name) set changes aside", sourceLocation: sourceLocation)
            }
        }
    }

    static func item(_ name: String, in list: String, text: String = "", owner: String = SyncConstants.currentUserOwnerName) -> ListItem {
        ListItem(recordName: name, ownerName: owner, parent: RecordReference(recordName: list), text: text, assignee: .unset)
    }

    /// Runs `body` once, just before the device's next modify request goes out: another device
    /// acts between this device's pull and its push.
    static func beforeNextPush(of device: SyncWorld.Device, _ body: @escaping @Sendable () async throws -> Void) {
        let once = Once()
        device.gateway.hooks.withLock {
            $0.before[.modify] = { if once.first() { try? await body() } }
        }
    }

    // MARK: - A parent deleted elsewhere

    /// The phone moves "milk" into "chores" while the tablet deletes "chores". The tablet's
    /// deletion lands between the phone's pull and its push, so the push meets
    /// `referenceViolation` for a parent the phone still stores; the next pass hears of the
    /// deletion, and the item follows its parent everywhere. Breaking it: forgetting the cloud's
    /// copy of a child that a pulled deletion took with it (the tablet never knew "milk" was
    /// moving in) leaves "milk" in the cloud, under "groceries", and back on the tablet.
    @Test func aChildMovedIntoAParentDeletedElsewhereFollowsIt() async throws {  // trap: T21.12
        let devices = try await TwoDevices()
        let (phone, tablet) = (devices.phone, devices.tablet)
        try phone.store.save(Self.item("milk", in: "chores"))
        let (tabletStore, tabletEngine) = (tablet.store, tablet.engine)
        Self.beforeNextPush(of: phone) {
            try tabletStore.delete(SharedList.self, recordName: "chores")
            _ = await tabletEngine.sync()
        }
        let events = phone.recordEvents()
        try await devices.expectEverywhere(["groceries"])
        #expect(await events.events().contains(.removedWithParent(RecordKey("ListItem", "milk"), parentRecordName: "chores")))
    }

    /// The app writes back a model it read before its parent was deleted here: a save under a
    /// parent that is gone. Pushed with the parent's deletion (in the wave after it) or after it,
    /// the cloud answers `referenceViolation`, the child follows its parent and the recovery
    /// ends. Breaking it: setting the child aside on `referenceViolation` (as before) leaves
    /// "milk" on the phone, set aside for good.
    @Test(arguments: [true, false])
    func aChildSavedUnderAParentDeletedHereFollowsIt(deletionPushedFirst: Bool) async throws {  // trap: T21.12
        let devices = try await TwoDevices()
        let phone = devices.phone
        let stale = try #require(try phone.store.fetch(ListItem.self, recordName: "milk"))
        try phone.store.delete(SharedList.self, recordName: "groceries")
        if deletionPushedFirst {
            // Pushed, and heard back from the cloud: the next pull brings nothing.
            await phone.sync()
            await phone.sync()
        }
        try phone.store.save(stale)
        let events = phone.recordEvents()
        await phone.sync()
        #expect(try phone.store.fetch(ListItem.self, recordName: "milk") == nil)
        #expect(try devices.cloudRecords == ["chores"])
        let seen = await events.events()
        #expect(seen.contains(.removedWithParent(RecordKey("ListItem", "milk"), parentRecordName: "groceries")), "\(seen)")
        try await devices.expectEverywhere(["chores"])
    }

    /// The same move and deletion, the other way round: the move lands first, then the tablet
    /// (which deleted "chores" before hearing of it) pulls "milk" under the list it deleted, and
    /// settles it in its own pass. Breaking it: leaving such a pulled child in place keeps it on
    /// the tablet without a parent, and in the cloud, until some other device happens to clean up.
    @Test func aChildMovedIntoAParentThatIsThenDeletedFollowsIt() async throws {  // trap: T21.12
        let devices = try await TwoDevices()
        let (phone, tablet) = (devices.phone, devices.tablet)
        try phone.store.save(Self.item("milk", in: "chores"))
        await phone.sync()
        try tablet.store.delete(SharedList.self, recordName: "chores")
        await tablet.sync()
        #expect(try tablet.store.fetch(ListItem.self, recordName: "milk") == nil)
        #expect(try devices.cloudRecords == ["groceries"])
        try await devices.expectEverywhere(["groceries"])
    }

    /// The phone edits "milk" while the tablet deletes "groceries" with it: the deletion wins,
    /// whichever lands first.
    @Test(arguments: [true, false])
    func aChildEditedUnderAParentDeletedElsewhereGoesWithIt(deletionFirst: Bool) async throws {  // trap: T21.12
        let devices = try await TwoDevices()
        let (phone, tablet) = (devices.phone, devices.tablet)
        var milk = try #require(try phone.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        try phone.store.save(milk)
        try tablet.store.delete(SharedList.self, recordName: "groceries")
        if deletionFirst {
            await tablet.sync()
        } else {
            await phone.sync()
        }
        try await devices.expectEverywhere(["chores"])
    }

    /// The phone deletes "groceries" while the tablet adds "eggs" to it. Three orders: the
    /// tablet's item lands first, in between the phone's pull and push, or after the deletion.
    /// Breaking the orphan rule (a pulled child whose parent the cloud no longer has is kept)
    /// leaves "eggs" in the cloud and on both devices without a list in the middle order.
    @Test(arguments: ["item first", "item between", "deletion first"])
    func aParentDeletedWhileAnotherDeviceAddsAChildTakesTheChild(order: String) async throws {  // trap: T21.12
        let devices = try await TwoDevices()
        let (phone, tablet) = (devices.phone, devices.tablet)
        try tablet.store.save(Self.item("eggs", in: "groceries"))
        try phone.store.delete(SharedList.self, recordName: "groceries")
        #expect(try phone.store.fetch(ListItem.self, recordName: "milk") == nil)
        switch order {
        case "item first":
            await tablet.sync()
        case "item between":
            let tabletEngine = tablet.engine
            Self.beforeNextPush(of: phone) { _ = await tabletEngine.sync() }
            await phone.sync()
        default:
            await phone.sync()
        }
        try await devices.expectEverywhere(["chores"])
    }

    // MARK: - Deleting a root

    /// Deleting a list deletes its items, here at once and in the cloud, children first, in one
    /// request. Breaking it: `CKRecord.parent` does not cascade, so without the store's cascade
    /// "milk" stays in the cloud and on the tablet.
    @Test func deletingAParentDeletesItsSubtreeEverywhere() async throws {  // trap: T21.14
        let devices = try await TwoDevices()
        let phone = devices.phone
        try phone.store.save(Self.item("bread", in: "groceries"))
        await phone.sync()
        try phone.store.delete(SharedList.self, recordName: "groceries")
        #expect(try phone.store.fetchAll(ListItem.self).isEmpty)
        await phone.sync()
        let request = try #require(phone.gateway.modifies.last?.request)
        #expect(request.recordIDsToDelete.map(\.recordName) == ["bread", "milk", "groceries"])
        try await devices.expectEverywhere(["chores"])
    }

    // MARK: - Moves between zones

    /// Alice shares "groceries" with Bob; Bob has his own list "bobs-list" with "bread", on his
    /// phone and his laptop.
    struct SharedHousehold {
        let world: SyncWorld
        let alice: SyncWorld.Device
        let bob: SyncWorld.Device
        let laptop: SyncWorld.Device

        init(permission: SharePermission = .readWrite) async throws {
            world = try SyncWorld()
            alice = try world.device("alice-phone", account: "alice")
            bob = try world.device("bob-phone", account: "bob")
            laptop = try world.device("bob-laptop", account: "bob")
            try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
            try alice.store.save(EngineStructureTests.item("milk", in: "groceries"))
            try bob.store.save(SharedList(recordName: "bobs-list", title: "Bob's"))
            try bob.store.save(EngineStructureTests.item("bread", in: "bobs-list"))
            await alice.sync()
            await bob.sync()
            let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
            let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: permission)])
            let metadata = world.cloud.shareMetadata(for: share, ownerAccount: "alice")
            try await bob.engine.acceptShare(metadata)
            try await laptop.engine.acceptShare(metadata)
            await bob.sync()
            await laptop.sync()
        }

        func records(of account: String) throws -> [String: SyncRecord] {
            try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: account)?.records ?? [:]
        }

        func item(_ name: String, on device: SyncWorld.Device) throws -> ListItem? {
            try device.store.fetch(ListItem.self, recordName: name)
        }
    }

    /// Bob moves his "bread" into Alice's shared list: it is saved into her zone and deleted from
    /// his, in one pass, and every device ends with one "bread", in the list. Both orders the
    /// laptop can hear of the two changes in: the deletion first (its private database is read
    /// first), or the new copy first (the deletion held back to a later page). Breaking it:
    /// without the deletion of the old copy "bread" is in both zones; without the pull's check
    /// of where the local copy lives, the late deletion removes the moved item from the laptop.
    @Test(arguments: [false, true])
    func aChildMovedFromAPrivateToASharedListMovesZones(deletionLate: Bool) async throws {  // trap: T21.13
        let household = try await SharedHousehold()
        let (alice, bob, laptop) = (household.alice, household.bob, household.laptop)
        // Held back, the deletion comes with the first later page that does not save "bread".
        let held = Locked<(records: [DeletedRecord], deliveredLate: Int)>(([], 0))
        if deletionLate {
            laptop.gateway.hooks.withLock {
                $0.zoneChanges = { page in
                    var page = page
                    let bread = page.deletedRecords.filter { $0.id.recordName == "bread" }
                    page.deletedRecords.removeAll { $0.id.recordName == "bread" }
                    guard !page.changedRecords.contains(where: { $0.id.recordName == "bread" }) else {
                        held.withLock { $0.records += bread }
                        return page
                    }
                    page.deletedRecords += held.withLock { held in
                        defer { held.records = bread }
                        held.deliveredLate += held.records.count
                        return held.records
                    }
                    return page
                }
            }
        }
        try bob.store.save(Self.item("bread", in: "groceries"))
        await bob.sync()
        #expect(try household.records(of: "alice")["bread"]?.parentRecordName == "groceries")
        #expect(try household.records(of: "bob")["bread"] == nil)
        #expect(try household.item("bread", on: bob)?.ownerName == "_alice")
        await laptop.sync()
        #expect(try household.item("bread", on: laptop)?.parent?.recordName == "groceries")
        if deletionLate {
            // Another change in Bob's zone brings the deletion, after the laptop has the new copy.
            try bob.store.save(Note(recordName: "bobs-note"))
            await bob.sync()
            await laptop.sync()
            #expect(held.withLock { $0.deliveredLate } == 1)
        }
        await household.world.syncAll()
        for device in [alice, bob, laptop] {
            let bread = try household.item("bread", on: device)
            #expect(bread?.parent?.recordName == "groceries", "\(device.name)")
            #expect(bread?.ownerName == (device === alice ? SyncConstants.currentUserOwnerName : "_alice"), "\(device.name)")
            #expect(try !device.store.hasUnpushedChanges(), "\(device.name)")
        }
        #expect(try household.records(of: "bob")["bread"] == nil && household.records(of: "alice")["bread"] != nil)
    }

    /// Bob moves Alice's "milk" into his own list: it goes to his zone and leaves hers, and no
    /// pass fails. Breaking it: routing the save by its old owner sends it, and Bob's own list
    /// with it, into Alice's zone: every pass fails with permissionFailure.
    @Test func aChildMovedFromASharedListToAPrivateOneMovesZones() async throws {  // trap: T21.13
        let household = try await SharedHousehold()
        let (alice, bob, laptop) = (household.alice, household.bob, household.laptop)
        try bob.store.save(Self.item("milk", in: "bobs-list", owner: "_alice"))
        await bob.sync()
        #expect(try household.records(of: "bob")["milk"]?.parentRecordName == "bobs-list")
        #expect(try household.records(of: "alice")["milk"] == nil)
        #expect(try household.records(of: "alice")["bobs-list"] == nil)
        await household.world.syncAll()
        #expect(try household.item("milk", on: alice) == nil)
        for device in [bob, laptop] {
            #expect(try household.item("milk", on: device)?.ownerName == SyncConstants.currentUserOwnerName, "\(device.name)")
        }
        for device in [alice, bob, laptop] {
            #expect(await device.engine.sync() == .completed, "\(device.name)")
        }
    }

    /// Alice moves "milk" from the shared list into a list of her own: it leaves the share, and
    /// Bob's devices lose their copy. Breaking it (LocalCloud not telling a participant of a
    /// record that left their share) leaves "milk" on Bob's phone for good.
    @Test func anItemMovedOutOfASharedListLeavesTheParticipants() async throws {  // trap: T21.13
        let household = try await SharedHousehold()
        let (alice, bob) = (household.alice, household.bob)
        try alice.store.save(SharedList(recordName: "alices-own", title: "Mine"))
        try alice.store.save(Self.item("milk", in: "alices-own"))
        await household.world.syncAll()
        #expect(try household.records(of: "alice")["milk"]?.parentRecordName == "alices-own")
        #expect(try household.item("milk", on: bob) == nil)
        #expect(try household.item("milk", on: household.laptop) == nil)
        #expect(try bob.store.fetch(SharedList.self, recordName: "alices-own") == nil)
    }

    /// Bob's phone moves Alice's "milk" into his own list while his laptop deletes that list: the
    /// phone's pass hears of the deletion before it pushes the move, and the move loses to it,
    /// as within a zone. The copy the move was to leave in Alice's zone goes too: the laptop
    /// never knew of the move, so nobody else would delete it. Found by the randomized
    /// convergence test through the CloudKit gateway (seed 41). Breaking it (`ParentChain`
    /// forgetting the moved record's other copies): "milk" stays in Alice's zone and on her
    /// phone and Bob's laptop, and is gone from Bob's phone for good.
    @Test func aMoveAcrossZonesIntoAListDeletedElsewhereLosesEverywhere() async throws {  // trap: T21.12, T21.13
        let household = try await SharedHousehold()
        let (alice, bob, laptop) = (household.alice, household.bob, household.laptop)
        try bob.store.save(Self.item("milk", in: "bobs-list", owner: "_alice"))
        try laptop.store.delete(SharedList.self, recordName: "bobs-list")
        await laptop.sync()
        let events = bob.recordEvents()
        await bob.sync()
        #expect(await events.events().contains(.removedWithParent(RecordKey("ListItem", "milk"), parentRecordName: "bobs-list")))
        await household.world.syncAll()
        #expect(try household.records(of: "alice")["milk"] == nil && household.records(of: "bob")["milk"] == nil)
        for device in [alice, bob, laptop] {
            #expect(try household.item("milk", on: device) == nil, "\(device.name)")
            #expect(try !device.store.hasUnpushedChanges(), "\(device.name)")
            #expect(try await device.engine.failedChanges().isEmpty, "\(device.name)")
        }
    }

    /// Bob moves "milk" into his own list; the save lands in his zone, then the network goes
    /// before the old copy's deletion leaves, so it stays queued. His laptop hears of the move.
    /// Bob moves "milk" back into the shared list: the save into Alice's zone voids the queued
    /// deletion of that zone's copy (CloudKit deletes without a change tag, so it would take the
    /// new version with it). The laptop then hears, in this order, of the copy in Bob's zone
    /// deleted (his private database is read first) and of the new version in Alice's zone: the
    /// laptop never changed "milk", so the copy it knew in Alice's zone is not its to delete (its
    /// knowledge of it is older than Bob's save). Found by the randomized convergence test through
    /// the CloudKit gateway (seed 220). Breaking it: sending the queued deletion beside the save
    /// (the new version is deleted, and only comes back as a new record), or a device deleting
    /// the other copies of any record deleted from the zone it lives in: "milk" is gone from
    /// every zone and device.
    @Test func aRecordMovedBackWhereItsOldCopyAwaitsDeletionStaysThere() async throws {  // trap: T21.13
        let household = try await SharedHousehold()
        let (alice, bob, laptop) = (household.alice, household.bob, household.laptop)
        try bob.store.save(Self.item("milk", in: "bobs-list", text: "moved", owner: "_alice"))
        let (cloud, firstRequest) = (household.world.cloud, Once())
        bob.gateway.hooks.withLock {
            $0.after[.modify] = { if firstRequest.first() { cloud.setNetworkAvailable(false, for: "bob-phone") } }
        }
        _ = await bob.engine.sync()
        #expect(try household.records(of: "bob")["milk"] != nil && household.records(of: "alice")["milk"] != nil)
        bob.gateway.hooks.withLock { $0.after[.modify] = nil }
        cloud.setNetworkAvailable(true, for: "bob-phone")
        await laptop.sync()
        #expect(try household.item("milk", on: laptop)?.parent?.recordName == "bobs-list")
        let sentBefore = bob.gateway.modifies.count
        try bob.store.save(Self.item("milk", in: "groceries", text: "back"))
        await bob.sync()
        // The copy in Alice's zone is not deleted once "milk" is back, not even for a moment.
        #expect(!bob.gateway.modifies.dropFirst(sentBefore).contains { $0.request.recordIDsToDelete.contains { $0.recordName == "milk" && $0.zoneID.ownerName == "_alice" } })
        #expect(try household.records(of: "alice")["milk"]?.fields["text"] == .string("back"))
        #expect(try household.records(of: "bob")["milk"] == nil)
        await laptop.sync()
        await household.world.syncAll()
        #expect(try household.records(of: "alice")["milk"]?.fields["text"] == .string("back"))
        for device in [alice, bob, laptop] {
            let milk = try household.item("milk", on: device)
            #expect(milk?.parent?.recordName == "groceries" && milk?.text == "back", "\(device.name)")
            #expect(try !device.store.hasUnpushedChanges(), "\(device.name)")
        }
    }

    /// A read-only participant's move into the shared list is refused: at the save when his store
    /// knows his permission, else by the push (Alice lowered it while he was offline): "bread"
    /// goes back to his own list, as the cloud has it, on his phone; nothing moved in the cloud.
    @Test func aMoveIntoAReadOnlyShareIsUndone() async throws {
        let household = try await SharedHousehold(permission: .readOnly)
        let bob = household.bob
        #expect(throws: ReadOnlyShareRefusal.self) { try bob.store.save(Self.item("bread", in: "groceries")) }
        let lowered = try await SharedHousehold(permission: .readWrite)
        let groceries = try #require(try lowered.alice.store.fetch(SharedList.self, recordName: "groceries"))
        _ = try await lowered.alice.engine.setPermission(.readOnly, for: ShareParticipant(userRecordName: "_bob", permission: .readWrite), on: groceries)
        try await Self.moveIsUndone(in: lowered)
    }

    private static func moveIsUndone(in household: SharedHousehold) async throws {
        let bob = household.bob
        let events = bob.recordEvents()
        try bob.store.save(Self.item("bread", in: "groceries"))
        await bob.sync()
        let bread = try household.item("bread", on: bob)
        #expect(bread?.parent?.recordName == "bobs-list" && bread?.ownerName == SyncConstants.currentUserOwnerName)
        #expect(try household.records(of: "bob")["bread"] != nil && household.records(of: "alice")["bread"] == nil)
        #expect(await events.events().contains { if case .changeReverted(let change) = $0 { change.recordName == "bread" } else { false } })
        await bob.sync()
        #expect(try !bob.store.hasUnpushedChanges())
    }

    // MARK: - Shared roots

    /// The owner deletes a shared root: its items go with it from her zone, her other device and
    /// the participant's phone.
    @Test func theOwnerDeletingASharedRootDeletesItsSubtree() async throws {  // trap: T21.14
        let household = try await SharedHousehold()
        let (alice, bob) = (household.alice, household.bob)
        let events = bob.recordEvents()
        try alice.store.delete(SharedList.self, recordName: "groceries")
        await household.world.syncAll()
        #expect(try household.records(of: "alice").isEmpty)
        #expect(try household.item("milk", on: bob) == nil && household.item("milk", on: alice) == nil)
        #expect(try bob.store.fetch(SharedList.self, recordName: "groceries") == nil)
        #expect(await events.events().contains { if case .shareEnded = $0 { true } else { false } })
        // Bob's own list is untouched.
        #expect(try household.item("bread", on: bob) != nil)
    }

    /// A participant deleting the shared root in his store leaves the share: the owner's list and
    /// items stay in her zone, even though his store deleted the items with the root. Breaking
    /// it: sending the items' deletions deletes Alice's "milk".
    @Test func aParticipantDeletingASharedRootLeavesAndDeletesNothingOfTheOwners() async throws {  // trap: T21.14, T8.5
        let household = try await SharedHousehold()
        let (alice, bob) = (household.alice, household.bob)
        try bob.store.delete(SharedList.self, recordName: "groceries")
        #expect(try household.item("milk", on: bob) == nil)
        await bob.sync()
        #expect(!bob.gateway.modifies.contains { $0.request.recordIDsToDelete.contains { $0.recordName == "milk" } })
        #expect(try household.records(of: "alice").keys.sorted() == ["groceries", "milk"])
        #expect(try !bob.store.hasUnpushedChanges())
        await household.world.syncAll()
        #expect(try household.item("milk", on: alice) != nil)
        #expect(try household.item("milk", on: bob) == nil)
    }
}
