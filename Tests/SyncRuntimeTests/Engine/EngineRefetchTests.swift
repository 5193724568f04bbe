import Foundation
import Testing
@testable import SyncEngineKit
import SyncLocalCloud
import SyncRuntime

/// A zone fetched from scratch lists what exists, not what was deleted (`changeTokenExpired`:
/// "the client must re-sync from scratch"; LocalCloud forgets the deletions made before a
/// token's expiry). So the engine reconciles the zone when such a fetch completes: a record of it
/// this device knew in the cloud, that no page listed, goes as a pulled deletion, or, with a
/// change of the app waiting, goes up again; a fetch cut off reconciles nothing until it ends.
@Suite("Engine: a zone fetched from scratch is reconciled")
struct EngineRefetchTests {
    /// Alice's laptop deletes "gone" and edits nothing else; the cloud then forgets its history
    /// (the phone's token expires). The phone, which never heard of the deletion, fetches the
    /// zone from scratch: "gone" is not listed, so it goes from the phone; "edited", changed on
    /// the phone meanwhile and also deleted by the laptop, goes up again rather than away; "kept"
    /// stays. Breaking it (no reconciliation after the fetch from scratch) leaves "gone" on the
    /// phone for good, and the phone's "edited" never reaches the cloud again.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func recordsDeletedWhileTheTokenWasStaleGoAfterAFetchFromScratch(throughCloudKit: Bool) async throws {  // trap: T21.25
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: 1))
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save([Note(recordName: "kept", title: "kept"), Note(recordName: "gone", title: "gone"), Note(recordName: "edited", title: "old")])
        await phone.sync()
        await laptop.sync()
        try laptop.store.delete(Note.self, recordName: "gone")
        try laptop.store.delete(Note.self, recordName: "edited")
        await laptop.sync()
        try world.cloud.expireChangeTokens(zone: SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        var edited = try #require(try phone.store.fetch(Note.self, recordName: "edited"))
        edited.title = "new"
        try phone.store.save(edited)
        await phone.sync()
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName).sorted() == ["edited", "kept"])
        let cloud = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
        #expect(cloud.keys.sorted() == ["edited", "kept"])
        #expect(cloud["edited"]?.fields["title"] == .string("new"))
        await laptop.sync()
        #expect(try laptop.store.fetchAll(Note.self).map(\.recordName).sorted() == ["edited", "kept"])
    }

    /// A list and its item deleted on the laptop while the phone's token was stale: the phone's
    /// fetch from scratch is cut after its first page (the network goes), which reconciles
    /// nothing: the list is still on the phone. The next pass goes on from that page's token,
    /// lists the rest, and reconciles: the list and its item go, as deletions pulled (sync's
    /// writes: nothing is pushed back, no deletion goes up). Breaking it (the listing kept only by
    /// the pass that began it) leaves the list and its item on the phone for good.
    @Test func aFetchFromScratchCutOffReconcilesOnlyWhenItEnds() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: 1))
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save([SharedList(recordName: "kept", title: "Kept"), SharedList(recordName: "old", title: "Old")])
        try phone.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "old"), text: "Milk", assignee: .unset))
        await phone.sync()
        await laptop.sync()
        try laptop.store.delete(SharedList.self, recordName: "old")
        await laptop.sync()
        try world.cloud.expireChangeTokens(zone: SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        // The first request meets the expired token; the third (the second page from scratch)
        // finds the network gone.
        let requests = Locked(0)
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.before[.fetchZoneChanges] = {
                if requests.withLock({ $0 += 1; return $0 }) == 3 {
                    cloud.inject(ScriptedFault(CloudError(.networkFailure, "the network went"), on: .fetchZoneChanges))
                }
            }
        }
        #expect(await phone.engine.sync() != .completed)
        #expect(try phone.store.fetch(SharedList.self, recordName: "old") != nil, "reconciled before the fetch ended")
        phone.gateway.hooks.withLock { $0 = RecordingGateway.Hooks() }
        await phone.sync()
        #expect(try phone.store.fetchAll(SharedList.self).map(\.recordName) == ["kept"])
        #expect(try phone.store.fetchAll(ListItem.self).isEmpty)
        #expect(try !phone.store.hasUnpushedChanges())
    }

    /// The phone's account changes just as its pass asks for the zone's changes: the request goes
    /// to Bob's zone, where Alice's token means nothing (`changeTokenExpired`), and the fetch from
    /// scratch lists Bob's records, an answer the pass cannot keep (the account changed under it).
    /// Alice signs in again before the next pass, whose token is still good: a few changes come,
    /// not a listing, and nothing of Alice's goes. Breaking it (the listing begun before its first
    /// page is kept, in a transaction of its own) ends a listing with the next pass's few changes,
    /// and every other note of Alice's goes from the phone as if the cloud had deleted it (the
    /// randomized convergence's seeds 19, 163 and 227 through CloudKit).
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aFetchFromScratchThePassCannotKeepBeginsNoListing(throughCloudKit: Bool) async throws {  // trap: T21.25
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        let bobsPhone = try world.device("bob-phone", account: "bob")
        try bobsPhone.store.save(Note(recordName: "bobs", title: "Bob's"))
        await bobsPhone.sync()
        try phone.store.save([Note(recordName: "kept", title: "kept"), Note(recordName: "edited", title: "old")])
        await phone.sync()
        await phone.sync()
        await laptop.sync()
        var edited = try #require(try laptop.store.fetch(Note.self, recordName: "edited"))
        edited.title = "new"
        try laptop.store.save(edited)
        await laptop.sync()
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.before[.fetchZoneChanges] = { try? cloud.signIn("alice-phone", account: "bob") }
        }
        #expect(await phone.engine.sync() != .completed)
        phone.gateway.hooks.withLock { $0 = RecordingGateway.Hooks() }
        try world.cloud.signIn("alice-phone", account: "alice")
        await phone.sync()
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName).sorted() == ["edited", "kept"])
        #expect(try phone.store.fetch(Note.self, recordName: "edited")?.title == "new")
        #expect(try !phone.store.hasUnpushedChanges())
    }

    /// Bob accepts Alice's list again (from another device of his, or a link opened twice): his
    /// device forgets the zone's token and fetches it from scratch. Alice had deleted "milk"
    /// while Bob's device was away and the cloud forgot the zone's history since: the fetch from
    /// scratch does not list it, and it goes from Bob's phone. Breaking it (no listing for a zone
    /// whose token an acceptance reset) leaves "milk" on Bob's phone for good.
    @Test func aSharedZoneAcceptedAgainIsReconciled() async throws {  // trap: T21.25
        let household = try await EngineSharingTests.Household()
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "milk") != nil)
        try household.alice.store.delete(ListItem.self, recordName: "milk")
        await household.alice.sync()
        try household.world.cloud.expireChangeTokens(zone: SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        try await household.bob.engine.acceptShare(household.world.cloud.shareMetadata(for: household.share, ownerAccount: "alice"))
        await household.bob.sync()
        #expect(try household.bob.store.fetch(ListItem.self, recordName: "milk") == nil)
        #expect(try household.bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
    }

    /// Alice stops sharing her list while Bob's device is away, and the cloud forgets Bob's
    /// shared database's history since: his next fetch of the database, from scratch, lists the
    /// zones he has, and Alice's is not one. The share has ended for him: its copy goes, and
    /// `shareEnded` says so. Breaking it (no reconciliation of a database fetched from scratch)
    /// leaves Alice's list on Bob's phone for good.
    @Test func aSharedZoneGoneWhileTheDatabaseTokenWasStaleEnds() async throws {  // trap: T21.25
        let household = try await EngineSharingTests.Household()
        #expect(try household.bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
        let root = try #require(try household.alice.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.alice.engine.stopSharing(root)
        try household.world.cloud.expireDatabaseChangeTokens(.shared, ofAccount: "bob")
        let events = household.bob.recordEvents()
        await household.bob.sync()
        #expect(try household.bob.store.fetchAll(SharedList.self).isEmpty)
        #expect(try household.bob.store.fetchAll(ListItem.self).isEmpty)
        #expect(await events.events().contains { if case .shareEnded = $0 { true } else { false } })
    }
}
