import Foundation
import Testing
import SyncRuntime
@testable import SyncLocalCloud

/// An owner managing a share from the engine (`share(of:)`, `removeParticipant`, `setPermission`,
/// `setPublicPermission`), through LocalCloud's port and the CloudKit gateway alike. Each change is
/// made on the share as the cloud has it, so what others did meanwhile (an acceptance) stays.
@Suite("Engine: managing a share")
struct EngineShareManagementTests {
    typealias Household = EngineSharingTests.Household

    static let bob = ShareParticipant(userRecordName: "_bob", permission: .readWrite)

    static func groceries(_ device: SyncWorld.Device) throws -> SharedList {
        try #require(try device.store.fetch(SharedList.self, recordName: "groceries"))
    }

    /// The share as it stands: Alice owns it, Bob accepted; a root never shared has none.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theShareIsReadAsTheCloudHasIt(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let share = try #require(try await household.alice.engine.share(of: Self.groceries(household.alice)))
        #expect(share.owner?.userRecordName == "_alice")
        let bob = try #require(share.participants.first { $0.isSamePerson(as: Self.bob) })
        #expect(bob.acceptanceStatus == .accepted && bob.permission == .readWrite && bob.role == .privateUser)
        #expect(share.rootRecordName == "groceries" && share.url != nil)
        let chores = try #require(try household.alice.store.fetch(SharedList.self, recordName: "chores"))
        #expect(try await household.alice.engine.share(of: chores) == nil)
    }

    /// Removed, Bob loses the list and its items at his next pass, and his own data stays; the
    /// share no longer lists him. Removing him again, or removing the owner, fails and says who.
    /// Breaking it (the removal left out of the saved share): Bob keeps the list.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRemovedParticipantLosesTheSharedRecords(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        try bob.store.save(Note(recordName: "bobs-note", title: "mine", createdAt: Date(timeIntervalSince1970: 0)))
        await bob.sync()
        let root = try Self.groceries(alice)
        let saved = try await alice.engine.removeParticipant(Self.bob, from: root)
        #expect(!saved.participants.contains { $0.isSamePerson(as: Self.bob) })
        // The cloud, whole: the share lists Alice alone, Bob's membership has ended, his own
        // note is his, and nothing of Alice's moved.
        try household.world.expectCloud(is: "a-participant-removed")
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).isEmpty && bob.store.fetchAll(ListItem.self).isEmpty)
        #expect(try bob.store.fetch(Note.self, recordName: "bobs-note") != nil)
        #expect(try alice.store.fetch(ListItem.self, recordName: "milk") != nil)
        await #expect {
            _ = try await alice.engine.removeParticipant(Self.bob, from: root)
        } throws: { error in
            (error as? SyncError)?.cloudError?.code == .unknownItem && "\(error)".contains("_bob")
        }
        await #expect {
            _ = try await alice.engine.removeParticipant(ShareParticipant(userRecordName: "_alice", permission: .readWrite), from: root)
        } throws: { error in
            (error as? SyncError)?.cloudError?.code == .invalidArguments && "\(error)".contains("owner")
        }
    }

    /// Lowered to read-only, Bob still reads Alice's changes, and his own edit is refused and
    /// reverted to the cloud's version (trap T21.3's path). Breaking it (the permission not
    /// saved): his edit reaches Alice.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aLoweredPermissionRefusesTheParticipantsWrites(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        let saved = try await alice.engine.setPermission(.readOnly, for: Self.bob, on: Self.groceries(alice))
        #expect(saved.participants.first { $0.isSamePerson(as: Self.bob) }?.permission == .readOnly)
        var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        try bob.store.save(milk)
        await bob.sync()
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
        var hers = try #require(try alice.store.fetch(ListItem.self, recordName: "milk"))
        hers.done = true
        try alice.store.save(hers)
        await alice.sync()
        await bob.sync()
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.done == true)
        #expect(try household.world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["milk"]?.fields["text"] == .string("Milk"))
        // Synced since, Bob's store knows the new permission: his next edit is refused at once.
        #expect(try bob.store.knownShare(of: Self.groceries(bob))?.currentUserParticipant?.permission == .readOnly)
        var again = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        again.text = "Soy milk"
        #expect(throws: ReadOnlyShareRefusal.self) { try bob.store.save(again) }
        await #expect {
            _ = try await alice.engine.setPermission(.none, for: Self.bob, on: Self.groceries(alice))
        } throws: { error in
            (error as? SyncError)?.cloudError?.code == .invalidArguments
        }
    }

    /// Carol joins "chores" by its link; when Alice turns the link off, Carol is removed and loses
    /// the list (Apple, `CKShare.publicPermission`: "CloudKit removes all public participants when
    /// you save the share" with `none`). Breaking it (public participants kept when the link
    /// closes): Carol keeps the list.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func turningTheLinkOffRemovesWhoeverJoinedByIt(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let alice = household.alice
        let carol = try household.world.device("carol-phone", account: "carol")
        await carol.sync()
        let chores = try #require(try alice.store.fetch(SharedList.self, recordName: "chores"))
        let opened = try await alice.engine.share(chores, inviting: [], publicPermission: .readOnly)
        try await carol.engine.acceptShare(at: try #require(opened.url))
        await carol.sync()
        #expect(try carol.store.fetchAll(SharedList.self).map(\.recordName) == ["chores"])
        let joined = try #require(try await alice.engine.share(of: chores))
        #expect(joined.participants.contains { $0.userRecordName == "_carol" && $0.role == .publicUser })
        let closed = try await alice.engine.setPublicPermission(.none, on: chores)
        #expect(closed.publicPermission == .none && !closed.participants.contains { $0.userRecordName == "_carol" })
        await carol.sync()
        #expect(try carol.store.fetchAll(SharedList.self).isEmpty)
    }

    /// Carol joined "chores" by its link, may write, and edits the list and adds an item; before
    /// her device pushes them, Alice turns the link off. Carol's device loses the list, and the
    /// event that says so names both records: her acknowledged writes that never reached the
    /// cloud. Breaking it (the share's end without its `lostChanges`) removes them without a word.
    @Test func aShareEndingNamesTheChangesThatWentWithIt() async throws {
        let household = try await Household(throughCloudKit: false)
        let alice = household.alice
        let carol = try household.world.device("carol-phone", account: "carol")
        await carol.sync()
        let chores = try #require(try alice.store.fetch(SharedList.self, recordName: "chores"))
        let opened = try await alice.engine.share(chores, inviting: [], publicPermission: .readWrite)
        try await carol.engine.acceptShare(at: try #require(opened.url))
        await carol.sync()
        var list = try #require(try carol.store.fetch(SharedList.self, recordName: "chores"))
        list.labels.append("carol")
        try carol.store.save(list)
        try carol.store.save(ListItem(recordName: "sweep", ownerName: list.ownerName, parent: RecordReference(recordName: "chores"), text: "Sweep", assignee: .unset))
        _ = try await alice.engine.setPublicPermission(.none, on: chores)
        let events = carol.recordEvents()
        await carol.engine.sync()
        #expect(try carol.store.fetchAll(SharedList.self).isEmpty)
        let published = await events.events()
        let ended = published.compactMap { if case .shareEnded(_, _, let lost) = $0 { Set(lost) } else { nil } }
        #expect(ended.contains([RecordKey("SharedList", "chores"), RecordKey("ListItem", "sweep")]), "\(published)")
    }

    /// A read-only participant's write is refused at the save, before anything is queued, with an
    /// error naming the share and the permission: an edit, a new item under the shared list (it
    /// would go to Alice's zone), a deletion. Bob's own records stay his to change, and nothing
    /// waits to be pushed. Breaking it (the store's check left out): the edit is accepted, to be
    /// reverted after the next sync.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aReadOnlyParticipantsWriteIsRefusedAtSave(throughCloudKit: Bool) async throws {
        let household = try await Household(permission: .readOnly, throughCloudKit: throughCloudKit)
        let bob = household.bob
        let known = try #require(try bob.store.knownShare(of: Self.groceries(bob)))
        #expect(known.currentUserParticipant?.userRecordName == "_bob" && known.owner?.userRecordName == "_alice")
        var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        #expect {
            try bob.store.save(milk)
        } throws: { error in
            guard let refusal = error as? ReadOnlyShareRefusal else { return false }
            return refusal.recordName == "milk" && refusal.kind == .save && refusal.permission == .readOnly
                && refusal.shareID == known.id && refusal.shareTitle == "Groceries"
                && "\(refusal)".contains("'Groceries'") && "\(refusal)".contains("readOnly")
        }
        #expect(throws: ReadOnlyShareRefusal.self) {
            try bob.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        }
        #expect {
            try bob.store.delete(try #require(try bob.store.fetch(ListItem.self, recordName: "milk")))
        } throws: { error in
            (error as? ReadOnlyShareRefusal)?.kind == .delete
        }
        try bob.store.save(Note(recordName: "bobs-note", title: "mine"))
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
        #expect(try bob.store.fetch(ListItem.self, recordName: "eggs") == nil)
        await bob.sync()
        #expect(try !bob.store.hasUnpushedChanges())
    }

    /// The owner's screen follows the share as sync hears of it: Bob's acceptance, then his
    /// leaving, then the share's end, each read from the store offline (`observeShare`,
    /// `LiveShare`). Breaking it (shares in pulled pages not kept): the share never shows Bob
    /// accepted.
    @MainActor @Test(arguments: SyncWorld.cloudKitPaths)
    func theOwnerFollowsTheShareAsPeopleAcceptAndLeave(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        let groceries = try Self.groceries(alice)
        var updates = alice.store.observeShare(of: groceries).makeAsyncIterator()
        let invited = try #require(try await updates.next() ?? nil)
        #expect(invited.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .pending)
        let live = LiveShare(alice.store, root: groceries)
        await alice.sync()
        // Read first, so a share that did not change fails here rather than waiting for ever.
        try #require(try alice.store.knownShare(of: groceries)?.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .accepted)
        let accepted = try #require(try await updates.next() ?? nil)
        #expect(accepted.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus == .accepted)
        #expect(accepted.currentUserParticipant?.role == .owner)
        await StoreObservationTests.waitUntil { live.share == accepted }
        try await bob.engine.leaveShare(Self.groceries(bob))
        #expect(try bob.store.knownShare(of: groceries) == nil)
        await alice.sync()
        try #require(try alice.store.knownShare(of: groceries) != accepted)
        let left = try #require(try await updates.next() ?? nil)
        #expect(left.participants.first { $0.isSamePerson(as: Self.bob) }?.acceptanceStatus ?? .removed == .removed)
        try await alice.engine.stopSharing(groceries)
        try #require(try alice.store.knownShare(of: groceries) == nil)
        #expect(try await updates.next() == .some(nil))
    }
}
