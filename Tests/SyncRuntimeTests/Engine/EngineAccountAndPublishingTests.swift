import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

@Suite("Engine: accounts, publishing and events")
struct EngineAccountAndPublishingTests {
    // MARK: - Accounts

    @Test func switchingAccountsPurgesAndNeverCrossUploads() async throws {  // trap: T20.4
        let world = try SyncWorld()
        let phone = try world.device("shared-phone", account: "alice")
        try phone.store.save(Note(recordName: "alices", title: "private to Alice"))
        await phone.sync()
        try phone.store.save(Note(recordName: "unpushed", title: "Alice's, not pushed yet"))
        try world.cloud.signIn("shared-phone", account: "bob")
        let events = phone.recordEvents()
        await phone.sync()
        #expect(await events.events().contains(.accountChanged(.switched(from: "_alice", to: "_bob"))))
        #expect(phone.engine.currentUserRecordName == "_bob" && phone.engine.status.userRecordName == "_bob")
        #expect(try phone.store.fetchAll(Note.self).isEmpty)
        let bobsZone = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")
        #expect(bobsZone?.records.isEmpty ?? true)
        // Alice's unpushed note waits for her, out of Bob's sight.
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 1)])
    }

    /// The signed-in user is known at once from the store, before any pass of a new engine, and
    /// follows the passes' account checks. Breaking it (the status not seeded from the store): a
    /// new engine says nobody until an account changes.
    @Test func theSignedInUserIsKnownFromTheStoreBeforeAnyPass() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        #expect(phone.engine.currentUserRecordName == nil)
        await phone.sync()
        #expect(phone.engine.currentUserRecordName == "_alice")
        let relaunched = SyncEngine(store: phone.store, cloud: try world.cloud.device("phone", account: "alice"), schema: SyncSchema.self)
        #expect(relaunched.currentUserRecordName == "_alice" && relaunched.status.userRecordName == "_alice")
    }

    @Test func signingOutRemovesTheAccountsLocalData() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "n"))
        await phone.sync()
        try world.cloud.signIn("phone", account: nil)
        let events = phone.recordEvents()
        #expect(await phone.engine.sync() == .completed)
        let seen = await events.events()
        #expect(Array(seen.prefix(2)) == [.accountChanged(.signedOut("_alice")), .accountUnavailable(.noAccount)])
        #expect(phone.engine.currentUserRecordName == nil)
        // Nothing was waiting, so nothing was parked; the public catalogs were still read.
        #expect(!seen.contains { if case .changesParked = $0 { true } else { false } })
        #expect(seen.contains(.pullCompleted(.public)))
        #expect(try phone.store.fetchAll(Note.self).isEmpty)
        // Signing back in brings everything back from the cloud.
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["n"])
    }

    @Test func noAccountMeansNoSync() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: nil)
        let events = phone.recordEvents()
        try phone.store.save(Note(recordName: "n"))
        #expect(await phone.engine.sync() == .completed)
        #expect(await events.events().contains(.accountUnavailable(.noAccount)))
        #expect(try phone.store.hasUnpushedChanges())
    }

    // MARK: - Publishing

    @Test func publishingIsALocalWriteThatTheNextPassPushes() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let reader = try world.device("reader", account: "carol")
        let note = Note(recordName: "n", title: "Hello", body: "secret body", cover: AssetReference(suffix: "jpg", byteSize: 10))
        try alice.store.save(note)
        world.cloud.setNetworkAvailable(false, for: "alice-phone")
        try await alice.engine.publish(note)  // works offline
        let projection = try #require(try alice.store.fetch(PublishedNote.self, recordName: "n"))
        #expect(projection.title == "Hello" && projection.publicationLifecycle.state == .listed && projection.publicationLifecycle.version == 1)
        world.cloud.setNetworkAvailable(true, for: "alice-phone")
        await alice.sync()
        await reader.sync()
        let seen = try #require(try reader.store.fetch(PublishedNote.self, recordName: "n"))
        #expect(seen.title == "Hello" && seen.cover == AssetReference(suffix: "jpg", byteSize: 10))
        // The draft's private fields never reach the public copy.
        #expect(!(try world.cloud.snapshot().publicRecords["n"]!.fields.values.contains(.string("secret body"))))
    }

    @Test func publishingIntoAnUnknownProjectionIsAnError() async throws {  // trap: T1.2
        let world = try SyncWorld()
        let gateway = try world.cloud.device("phone", account: "alice")
        let engine = SyncEngine(store: try SyncStore(url: nil), cloud: gateway, models: [Note.self], clock: world.clock)
        await #expect(throws: PublishError.projectionNotRegistered("PublishedNote")) {
            try await engine.publish(Note(recordName: "n"))
        }
    }

    @Test func republishingKeepsATakenDownItemDown() async throws {  // trap: T10.6, T11.2
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        var note = Note(recordName: "n", title: "v1")
        try alice.store.save(note)
        try await alice.engine.publish(note)
        try await alice.engine.takedown(PublishedNote.self, recordName: "n")
        note.title = "v2"
        try alice.store.save(note)
        try await alice.engine.publish(note)
        let projection = try #require(try alice.store.fetch(PublishedNote.self, recordName: "n"))
        #expect(projection.title == "v2" && projection.publicationLifecycle.version == 2)
        #expect(projection.publicationLifecycle.state == .delisted)
        #expect(!projection.publicationLifecycle.isVisibleInCatalog)
        try await alice.engine.relist(PublishedNote.self, recordName: "n")
        #expect(try alice.store.fetch(PublishedNote.self, recordName: "n")?.publicationLifecycle.isVisibleInCatalog == true)
    }

    @Test func aNilDraftValueKeepsThePublishedOne() async throws {  // trap: T10.4
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        var note = Note(recordName: "n", title: "t", cover: AssetReference(suffix: "png", byteSize: 1))
        try alice.store.save(note)
        try await alice.engine.publish(note)
        note.cover = nil
        try alice.store.save(note)
        try await alice.engine.publish(note)
        #expect(try alice.store.fetch(PublishedNote.self, recordName: "n")?.cover == AssetReference(suffix: "png", byteSize: 1))
    }

    @Test func deletingADraftTakesItsPublicCopyWithIt() async throws {  // trap: T10.5
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let note = Note(recordName: "n", title: "t")
        try alice.store.save(note)
        try await alice.engine.publish(note)
        await alice.sync()
        try await alice.engine.deleteDraft(note)
        await alice.sync()
        #expect(try world.cloud.snapshot().publicRecords["n"] == nil)
    }

    @Test func catalogQueriesNeverFetchAssetContents() async throws {  // trap: T12.4, T12.5
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let reader = try world.device("reader", account: "carol")
        try alice.store.save(PublishedNote(recordName: "p", title: "Hello", cover: AssetReference(suffix: "jpg", byteSize: 99)))
        await alice.sync()
        await reader.sync()
        await reader.sync()
        let queries = try world.cloud.counters()["requests.query"] ?? 0
        #expect(queries >= 2)
        #expect(try world.cloud.counters()["assetBytes.downloaded"] == nil)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "p")?.cover == AssetReference(suffix: "jpg", byteSize: 99))
    }

    @Test func aRecordTheCatalogNoLongerHasIsRemovedAfterASuccessfulQuery() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let reader = try world.device("reader", account: "carol")
        try alice.store.save(PublishedNote(recordName: "p", title: "Hello"))
        await alice.sync()
        await reader.sync()
        try alice.store.delete(PublishedNote.self, recordName: "p")
        await alice.sync()
        #expect(await reader.receivePushes() == 1)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "p") == nil)
    }

    // MARK: - Events

    @Test func eventsAreStructuredAndALateSubscriberLearnsTheLatest() async throws {  // trap: T14.1, T14.3, T4.4
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: 2))
        let writer = try world.device("alice-laptop", account: "alice")
        try writer.store.save((0..<5).map { Note(recordName: "n\($0)") })
        await writer.sync()
        let early = phone.recordEvents()
        await phone.sync()
        let events = await early.events()
        // The notes' zone, five notes two a page (the journal's zone, empty, is a page of its own).
        let pages = events.filter { if case .pullProgress(.private, let zone, _, _) = $0 { zone.zoneName == SyncConstants.defaultSyncZoneName } else { false } }
        #expect(pages.count == 3)
        // A fresh store's first pass: the account signs in (naming the user), then setup.
        #expect(Array(events.prefix(2)) == [.accountChanged(.signedIn("_alice")), .setupCompleted])
        // Subscribing to the stream after the pass: the latest event arrives first.
        var late = phone.engine.events().makeAsyncIterator()
        #expect(await late.next() == events.last)
    }
}
