import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// Another app's public data, read beside the app's own (`SyncConfiguration.readOnly`): a second
/// engine and store, over the other app's container, holding that app's models. Two clouds stand
/// for the two containers (Apple, `CKContainer(identifier:)`: each container is its own set of
/// databases).
@Suite("Engine: another app's public data")
struct EngineOtherAppTests {
    /// The requests of the kinds that write, every device of a cloud together.
    static func writes(_ world: SyncWorld) throws -> [String: Int64] {
        try world.cloud.counters().filter { ["requests.modify", "requests.saveZones", "requests.deleteZones", "requests.saveSubscription"].contains($0.key) }
    }

    /// Alice's phone syncs its notes in its own container and reads the other app's published
    /// notes with a read-only engine over the other container. The reader writes nothing there
    /// (no record, zone or subscription); an edit made to its store is never sent, and the cloud's
    /// version takes its place at the next pass; a call that would write (a subscription, deleting
    /// the user's data) is refused, and leaves the other app's container alone; a new publication arrives once the catalog is old.
    /// Breaking it: the read-only pass running the whole pass sets up a zone and subscriptions in
    /// the other container; the requests that write not refused save the app's subscription
    /// there; the app's edit not let go is kept over the cloud's version.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anotherAppsCatalogIsReadBesideTheAppsOwnAndNothingIsWrittenThere(throughCloudKit: Bool) async throws {
        let mine = try SyncWorld(throughCloudKit: throughCloudKit)
        let theirs = try SyncWorld(throughCloudKit: throughCloudKit)
        let publisher = try theirs.device("their-app", account: "bob")
        try publisher.store.save([PublishedNote(recordName: "r1", title: "Soup"), PublishedNote(recordName: "r2", title: "Bread")])
        #expect(await publisher.sync() == .completed)

        let phone = try mine.device("alice-phone", account: "alice")
        let reader = try theirs.device("alice-phone-reading", account: "alice", configuration: SyncConfiguration(readOnly: true), models: [PublishedNote.self])
        let before = try Self.writes(theirs)
        try phone.store.save(Note(recordName: "n", title: "Mine"))
        #expect(await phone.sync() == .completed)
        #expect(await reader.sync() == .completed)
        #expect(try mine.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.count == 1, "the app's own data, in its container")
        #expect(try reader.store.fetchAll(PublishedNote.self).map(\.title).sorted() == ["Bread", "Soup"])
        #expect(try phone.store.fetchAll(PublishedNote.self).isEmpty, "two stores")

        var soup = try #require(try reader.store.fetch(PublishedNote.self, recordName: "r1"))
        soup.title = "Mine now"
        try reader.store.save(soup)
        #expect(await reader.engine.refreshCatalogs() == .completed)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "r1")?.title == "Soup", "the cloud's version back")
        await #expect(throws: SyncError.self) { try await reader.engine.subscribe("new-notes", to: PublishedNote.self) }
        await #expect(throws: SyncError.self) { try await reader.engine.deleteAllCloudData() }
        #expect(try Self.writes(theirs) == before, "nothing written to the other app's container")
        #expect(try theirs.cloud.snapshot().publicRecords.count == 2)

        try publisher.store.save(PublishedNote(recordName: "r3", title: "Tea"))
        #expect(await publisher.sync() == .completed)
        theirs.clock.advance(by: 3600)
        #expect(await reader.sync() == .completed)
        #expect(try reader.store.fetchAll(PublishedNote.self).count == 3, "read again once an hour old")
    }
}
