import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Two accounts sharing a household list through one LocalCloud.
@Suite("Engine: household sharing")
struct EngineSharingTests {
    /// Alice owns "groceries" (with an item) and "chores"; she shares groceries with Bob.
    struct Household {
        let world: SyncWorld
        let alice: SyncWorld.Device
        let bob: SyncWorld.Device
        let share: ShareRecord

        init(permission: SharePermission = .readWrite, throughCloudKit: Bool? = nil) async throws {
            world = try throughCloudKit.map { try SyncWorld(throughCloudKit: $0) } ?? SyncWorld()
            alice = try world.device("alice-phone", account: "alice")
            bob = try world.device("bob-phone", account: "bob")
            try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
            try alice.store.save(SharedList(recordName: "chores", title: "Chores"))
            try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
            await alice.sync()
            await bob.sync()
            let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
            share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: permission)])
            try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
            await bob.sync()
        }

        var aliceZoneForBob: ZoneID { ZoneID(zoneName: SyncConstants.defaultSyncZoneName, ownerName: "_alice") }
    }

    /// Alice's and Bob's copies of the shared item hold the same, and `hasSameContents(as:)` says
    /// so, where `==` cannot: each account spells the owner its own way. An edit of Bob's not yet
    /// synced makes them differ, and once synced they agree again. Breaking it (the owner
    /// compared): the copies never agree.
    @Test func copiesOfASharedRecordAgreeOnWhatTheyHold() async throws {
        let household = try await Household()
        let mine = try #require(try household.alice.store.fetch(ListItem.self, recordName: "milk"))
        var theirs = try #require(try household.bob.store.fetch(ListItem.self, recordName: "milk"))
        #expect(mine != theirs && mine.ownerName != theirs.ownerName, "== includes the owner, spelled per account")
        #expect(mine.hasSameContents(as: theirs) && theirs.hasSameContents(as: mine))
        theirs.text = "Oat milk"
        try household.bob.store.save(theirs)
        #expect(!mine.hasSameContents(as: theirs))
        await household.bob.sync()
        await household.alice.sync()
        let synced = try #require(try household.alice.store.fetch(ListItem.self, recordName: "milk"))
        #expect(synced.hasSameContents(as: theirs))
    }

    /// Accepting returns once the shared root is stored, and says so (`shareAccepted`): the list
    /// shows at once while the pass that brings its items is still held at the zone's changes;
    /// the items follow when it goes on. Breaking it (`acceptShare` waiting for that pass): the
    /// acceptance has not returned when the pass is held.
    @Test func acceptingReturnsOnceTheRootIsStored() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
        await alice.sync()
        await bob.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        let metadata = world.cloud.shareMetadata(for: share, ownerAccount: "alice")
        let events = bob.recordEvents()
        let held = Gate()
        bob.gateway.hooks.withLock { $0.before[.fetchZoneChanges] = { await held.wait() } }
        let returned = Locked(false)
        let engine = bob.engine
        let acceptance = Task {
            try await engine.acceptShare(metadata)
            returned.withLock { $0 = true }
        }
        #expect(await eventually { held.arrivals > 0 })
        let returnedWhileHeld = await eventually { returned.withLock { $0 } }
        #expect(returnedWhileHeld, "acceptShare waited for the pull")
        if returnedWhileHeld {
            #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["groceries"])
            #expect(try bob.store.fetch(ListItem.self, recordName: "milk") == nil)
            #expect(await events.events().contains { if case .shareAccepted(let accepted) = $0 { accepted.shareID.recordName == share.id.recordName && accepted.ownerName == "_alice" } else { false } })
        }
        held.open()
        try await acceptance.value
        await bob.sync()
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
        // Accepting again reads the share again and changes nothing.
        try await bob.engine.acceptShare(metadata)
        await bob.sync()
        #expect(try bob.store.fetchAll(ListItem.self).map(\.recordName) == ["milk"])
    }

    /// The flow an app on CloudKit has, where participants and metadata cannot be made in code:
    /// Alice invites Bob by email (the cloud looks him up), sends him the share's link, and Bob
    /// accepts from the link. Someone the cloud cannot find fails the invitation, naming how they
    /// were looked up, and inviting a participant again adds nobody. Breaking it: adding the
    /// invitation without its lookup leaves Bob out of the share, and his acceptance is refused.
    @Test func anInvitationByEmailIsAcceptedFromTheSharesLink() async throws {
        let world = try SyncWorld()
        try world.cloud.addAccount("bob", emailAddress: "bob@example.com")
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [ShareInvitation(.emailAddress("bob@example.com"), permission: .readWrite)])
        #expect(share.participants.contains { $0.userRecordName == "_bob" && $0.permission == .readWrite })
        try await bob.engine.acceptShare(at: try #require(share.url))
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["groceries"])
        do {
            _ = try await alice.engine.invite([ShareInvitation(.userRecordName("_nobody"), permission: .readOnly)], to: root)
            Issue.record("an invitation of nobody went through")
        } catch {
            #expect(error.cloudError?.code == .unknownItem && error.description.contains("_nobody"))
        }
        let again = try await alice.engine.invite([ShareInvitation(.userRecordName("_bob"), permission: .readWrite)], to: root)
        #expect(again.participants.filter { $0.userRecordName == "_bob" }.count == 1)
    }

    @Test func theShareAndItsRootGoInOneRequest() async throws {  // trap: T8.1
        let household = try await Household()
        let request = try #require(household.alice.gateway.modifies.last { !$0.request.sharesToSave.isEmpty }?.request)
        #expect(request.recordsToSave.map(\.id.recordName) == ["groceries"])
        #expect(request.sharesToSave.map(\.rootRecordName) == ["groceries"])
    }

    @Test func acceptingBringsTheSharedListRootFirst() async throws {  // trap: T9.1
        let household = try await Household()
        let lists = try household.bob.store.fetchAll(SharedList.self)
        #expect(lists.map(\.recordName) == ["groceries"])
        #expect(lists.first?.ownerName == "_alice")
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
    }

    @Test func aParticipantsNewItemLandsInTheOwnersZone() async throws {  // trap: T3.3
        let household = try await Household()
        // Bob writes an item under Alice's list with himself as owner: the engine moves it.
        try household.bob.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        await household.bob.sync()
        // The cloud, whole: Eggs under Alice's list in her zone, none in Bob's.
        try household.world.expectCloud(is: "a-participants-item-in-the-owners-zone")
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "eggs")?.ownerName == "_alice")
        await household.alice.sync()
        #expect(try household.alice.store.fetch(ListItem.self, recordName: "eggs")?.text == "Eggs")
    }

    @Test func publicRecordsAreNeverRewrittenByOwnerInheritance() async throws {  // trap: T3.4
        let household = try await Household()
        try household.bob.store.save(PublishedNote(recordName: "pub", title: "mine"))
        await household.bob.sync()
        let sent = household.bob.gateway.modifies.first { $0.request.recordsToSave.contains { $0.id.recordName == "pub" } }
        #expect(sent?.scope == .public)
        #expect(sent?.request.recordsToSave.first?.id.zoneID == SyncConstants.publicZone)
    }

    /// Alice replaces the list's share with a new one, and Bob joins it, before his phone hears of
    /// either: his next pull sees the old share record deleted, a weak signal, and reads the root
    /// back; it is still his to read, so nothing goes. (A record takes part in one share at a time,
    /// so the new share can only come after the old one ended.) Breaking it: treating a deleted
    /// share record as the end of the share wipes a list Bob can read.
    @Test func aDeletedShareRecordAloneNeverWipesReadableData() async throws {  // trap: T4.1
        let household = try await Household()
        let root = try #require(try household.alice.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.alice.engine.stopSharing(root)
        let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName)
        let rootID = RecordID(recordName: "groceries", zoneID: zone)
        let rootRecord = try await household.alice.gateway.fetchRecords([rootID], desiredKeys: nil, in: .private)[rootID]!.get()
        var bob = try await household.alice.gateway.participants(for: [.userRecordName("_bob")])[.userRecordName("_bob")]!.get()
        bob.permission = .readWrite
        let replacement = ShareRecord(id: RecordID(recordName: "share-groceries-again", zoneID: zone), rootRecordName: "groceries", participants: [bob])
        let saved = try await household.alice.gateway.modify(ModifyRequest(recordsToSave: [rootRecord], sharesToSave: [replacement]), in: .private).savedShares[replacement.id]!.get()
        // Bob joins from another device of his (straight through the cloud): his phone's tokens stay.
        try await household.bob.gateway.acceptShare(household.world.cloud.shareMetadata(for: saved, ownerAccount: "alice"))
        let events = household.bob.recordEvents()
        await household.bob.sync()
        #expect(try household.bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "milk") != nil)
        #expect(!(await events.events()).contains { if case .shareEnded = $0 { true } else { false } })
    }

    @Test func stoppingAndResharingKeepsTheParticipantsData() async throws {  // trap: T4.7
        let household = try await Household()
        let root = try #require(try household.alice.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.alice.engine.stopSharing(root)
        _ = try await household.alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        let metadata = household.world.cloud.shareMetadata(for: ShareRecord(id: RecordID(recordName: SharePhase.shareRecordName(forRoot: "groceries"), zoneID: ZoneID(zoneName: SyncConstants.defaultSyncZoneName)), rootRecordName: "groceries"), ownerAccount: "alice")
        try await household.bob.engine.acceptShare(metadata)
        await household.bob.sync()
        #expect(try household.bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "milk") != nil)
    }

    /// CloudKit may report a record both deleted and changed in one fetch (its modifications and
    /// deletions come apart, unordered): the record exists, so the participant keeps it.
    /// Breaking it: applying the deletion after the change (the shipped T4.7) removes Alice's new
    /// item from Bob's phone, for good.
    @Test func aRecordBothDeletedAndSavedInOnePageIsKept() async throws {  // trap: T4.7
        let household = try await Household()
        try household.alice.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        await household.alice.sync()
        household.bob.gateway.hooks.withLock {
            $0.zoneChanges = { page in
                var both = page
                both.deletedRecords += page.changedRecords.map { DeletedRecord(id: $0.id, recordType: $0.recordType) }
                return both
            }
        }
        await household.bob.sync()
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "eggs")?.text == "Eggs")
        #expect(try household.bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
    }

    /// Reading the shared zone fails with permissionFailure: Bob was taken off the share. The
    /// engine treats it as leaving (the zone's copy goes, his own data stays) and the pass goes
    /// on; the next pass is clean. Breaking it: letting the error fail the pass (the shipped
    /// T4.6) fails every pass from then on.
    @Test func permissionFailureInTheSharedDatabaseIsLeaving() async throws {  // trap: T4.6
        let household = try await Household()
        try household.bob.store.save(Note(recordName: "bobs-note", title: "mine", createdAt: Date(timeIntervalSince1970: 0)))
        var milk = try #require(try household.alice.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        try household.alice.store.save(milk)
        await household.alice.sync()
        household.world.cloud.inject(ScriptedFault(CloudError(.permissionFailure, "removed from the share"), on: .fetchZoneChanges, account: "bob"))
        let events = household.bob.recordEvents()
        #expect(await household.bob.engine.sync() == .completed)
        #expect(try household.bob.store.fetchAll(ListItem.self).isEmpty)
        #expect(try household.bob.store.fetchAll(SharedList.self).isEmpty)
        #expect(await events.events().contains(.shareEnded(household.aliceZoneForBob, rootRecordName: nil)))
        // The cloud, whole: Bob's own note went up; Alice's list is as she left it.
        try household.world.expectCloud(is: "a-participant-refused-by-the-shared-database")
        await household.bob.sync()
    }

    @Test func stoppingTheShareRemovesItFromTheParticipant() async throws {  // trap: T8.2, T4.2
        let household = try await Household()
        // Bob has his own private note: it must survive Alice ending the share.
        try household.bob.store.save(Note(recordName: "bobs-note", title: "mine", createdAt: Date(timeIntervalSince1970: 0)))
        await household.bob.sync()
        let root = try #require(try household.alice.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.alice.engine.stopSharing(root)
        // The cloud, whole: no share in Alice's zone, her list and Bob's note where they were.
        try household.world.expectCloud(is: "a-share-stopped")
        await household.bob.sync()
        #expect(try household.bob.store.fetchAll(SharedList.self).isEmpty)
        #expect(try household.bob.store.fetchAll(ListItem.self).isEmpty)
        #expect(try household.bob.store.fetch(Note.self, recordName: "bobs-note") != nil)
    }

    @Test func leavingRemovesOnlyThatSubtree() async throws {  // trap: T8.6
        let household = try await Household()
        // Alice shares "chores" too; Bob leaves "groceries" and keeps "chores".
        let chores = try #require(try household.alice.store.fetch(SharedList.self, recordName: "chores"))
        let choresShare = try await household.alice.engine.share(chores, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        try await household.bob.engine.acceptShare(household.world.cloud.shareMetadata(for: choresShare, ownerAccount: "alice"))
        await household.bob.sync()
        #expect(try household.bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores", "groceries"])
        let groceries = try #require(try household.bob.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.bob.engine.leaveShare(groceries)
        #expect(try household.bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores"])
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "milk") == nil)
        await household.bob.sync()
        #expect(try household.bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores"])
    }

    @Test func deletingSomeoneElsesRootBecomesLeaving() async throws {  // trap: T8.5
        let household = try await Household()
        let groceries = try #require(try household.bob.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.bob.engine.deleteSharedRoot(groceries)
        #expect(try household.bob.store.fetch(SharedList.self, recordName: "groceries") == nil)
        // Alice's list is intact (the cloud, whole), and Bob's queue is not blocked by a delete he
        // may not make.
        try household.world.expectCloud(is: "someone-elses-root-deleted-as-leaving")
        await household.bob.sync()
        #expect(try !household.bob.store.hasUnpushedChanges())
    }

    /// The cloud refuses a read-only participant's edit and new item for good: the rest of Bob's
    /// queue moves on, the edit goes back to the cloud's version and the new item goes, each
    /// announced once, and nothing comes back on later passes while Alice's edits arrive. Bob's
    /// store still thinks he may write (Alice lowered his permission while he was offline), so
    /// the store lets the changes in and the push meets the refusal. Breaking it: setting the
    /// refusals aside instead (as the engine did) keeps Bob's edit and item in his store, apart
    /// from everyone else's, and `changeReverted` never comes.
    @Test func aReadOnlyParticipantsRefusedChangesAreRevertedOnce() async throws {  // trap: T21.3
        let household = try await Household(permission: .readWrite)
        let (alice, bob) = (household.alice, household.bob)
        _ = try await alice.engine.setPermission(.readOnly, for: EngineShareManagementTests.bob, on: EngineShareManagementTests.groceries(alice))
        let events = bob.recordEvents()
        var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        try bob.store.save(milk)
        try bob.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        try bob.store.save(Note(recordName: "bobs-note", title: "mine", createdAt: Date(timeIntervalSince1970: 0)))
        #expect(await bob.engine.sync() == .completed)
        // His own note went up; the refused changes are the cloud's again, nothing set aside.
        #expect(try !bob.store.hasUnpushedChanges())
        #expect(try await bob.engine.failedChanges().isEmpty)
        try household.world.expectCloud(is: "a-read-only-participants-changes-refused")
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
        #expect(try bob.store.fetch(ListItem.self, recordName: "eggs") == nil)
        func reverted() async -> [FailedChange] {
            await events.events().compactMap { if case .changeReverted(let change) = $0 { change } else { nil } }
        }
        #expect(await reverted().map(\.recordName).sorted() == ["eggs", "milk"])
        #expect(await reverted().allSatisfy { $0.error.code == .permissionFailure && $0.ownerName == "_alice" })
        for _ in 0..<3 {
            household.world.clock.advance(by: 5)
            var hers = try #require(try alice.store.fetch(ListItem.self, recordName: "milk"))
            hers.done.toggle()
            try alice.store.save(hers)
            await alice.sync()
            let before = bob.gateway.modifies.count
            await bob.sync()
            #expect(bob.gateway.modifies.count == before)
            let his = try bob.store.fetch(ListItem.self, recordName: "milk")
            #expect(his?.done == hers.done && his?.text == "Milk")
            #expect(try bob.store.fetch(ListItem.self, recordName: "eggs") == nil)
        }
        #expect(await reverted().count == 2)
        // Alice's edits, and never Bob's refused ones.
        try household.world.expectCloud(is: "a-read-only-participants-changes-refused-then-hers")
    }

    @Test func aNewDeviceOfTheOwnerKnowsTheRootIsShared() async throws {  // trap: T8.8
        let household = try await Household()
        let tablet = try household.world.device("alice-tablet", account: "alice")
        await tablet.sync()
        let id = RecordID(recordName: "groceries", zoneID: ZoneID(zoneName: SyncConstants.defaultSyncZoneName))
        #expect(try tablet.store.serverRecord(id)?.shareRecordName == SharePhase.shareRecordName(forRoot: "groceries"))
        // So it can stop the share by its ID.
        let root = try #require(try tablet.store.fetch(SharedList.self, recordName: "groceries"))
        try await tablet.engine.stopSharing(root)
        try household.world.expectCloud(is: "a-share-stopped-by-a-new-device")
    }

    @Test func anAcceptanceOfflineIsCompletedLater() async throws {  // trap: T9.2
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        await bob.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        world.cloud.setNetworkAvailable(false, for: "bob-phone")
        await #expect(throws: SyncError.self) { try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice")) }
        world.cloud.setNetworkAvailable(true, for: "bob-phone")
        await bob.sync()
        #expect(try bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
    }

    /// A share CloudKit refuses reaches the app with CloudKit's reason, not the
    /// `batchRequestFailed` of the root saved beside it (the zone commits atomically). Breaking it:
    /// throw any item's error in `SharePhase.share`, and the root's error comes out in some of
    /// the eight tries.
    @Test func aRefusedShareTellsTheAppWhy() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        // People without an iCloud account count too: found by an address no account registered.
        let everyone = (1...CloudKitLimits.maxShareParticipants).map { ShareInvitation(.emailAddress("guest\($0)@example.com"), permission: .readOnly) }
        for _ in 0..<8 {
            await #expect { _ = try await alice.engine.share(root, inviting: everyone) } throws: { ($0 as? SyncError)?.cloudError?.code == .tooManyParticipants }
        }
        // No share, and the root as it was.
        try world.expectCloud(is: "a-share-refused")
    }

    /// Sharing a root the server changed since this device saw it (a child saved under it moves
    /// its tag; another device renamed it): the share is saved with the root as the server has
    /// it, and the rename survives, on the server and, after a pull, here. Breaking it: sending
    /// the root's local fields again with the server's tag puts the old title back; not retrying
    /// fails the share with `batchRequestFailed`.
    @Test func sharingARootChangedElsewhereKeepsItsChanges() async throws {
        let world = try SyncWorld()
        try world.cloud.addAccount("bob")
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
        await phone.sync()
        await laptop.sync()
        var renamed = try #require(try laptop.store.fetch(SharedList.self, recordName: "groceries"))
        renamed.title = "Weekly groceries"
        try laptop.store.save(renamed)
        await laptop.sync()
        let root = try #require(try phone.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await phone.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        #expect(share.rootRecordName == "groceries")
        // The rename kept, beside the share.
        try world.expectCloud(is: "a-root-renamed-elsewhere-then-shared")
        await phone.sync()
        #expect(try phone.store.fetch(SharedList.self, recordName: "groceries")?.title == "Weekly groceries")
        #expect(try !phone.store.hasUnpushedChanges())
    }
}
