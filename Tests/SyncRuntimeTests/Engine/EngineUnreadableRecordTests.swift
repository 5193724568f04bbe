import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// A record the cloud lists but cannot deliver, inside a good page (Apple,
/// `recordZoneChanges(inZoneWith:since:desiredKeys:resultsLimit:)` and
/// `records(matching:inZoneWith:desiredKeys:resultsLimit:)` return a `Result` per record): the
/// page is applied without it, the zone moves on, and the record is fetched again by name until
/// it arrives, or is set aside where the app can see it. Each test runs on LocalCloud's port and
/// through the CloudKit gateway, where the failure is CloudKit's failed `Result`.
@Suite("Engine: records a page could not deliver")
struct EngineUnreadableRecordTests {
    static let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName)

    static func titles(_ device: SyncWorld.Device) throws -> [String] {
        try device.store.fetchAll(Note.self).map(\.recordName).sorted()
    }

    /// The phone's three notes reach the laptop while one of them cannot be read: the other two
    /// land and the zone's token moves (a later note arrives with the next pass), the unreadable
    /// one is fetched again by name at each pass, set aside once that failed three times
    /// (`recordUnreadable`, `unreadableRecords()`), asked for no more, and arrives when the app
    /// retries once it reads. Breaking it: the gateway failing the page on one failed result,
    /// as it did, and the laptop's zone is stuck on that page forever (T21.17); an engine that
    /// ignores the unreadable records, and "b" never arrives.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func oneUnreadableRecordNeverStopsItsZone(throughCloudKit: Bool) async throws {  // trap: T21.17
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(["a", "b", "c"].map { Note(recordName: $0, title: $0) })
        await phone.sync()
        world.cloud.makeUnreadable("b")
        let events = laptop.recordEvents()
        await laptop.sync()
        #expect(try Self.titles(laptop) == ["a", "c"])
        let b = RecordID(recordName: "b", zoneID: Self.zone)
        #expect(try await laptop.engine.unreadableRecords().map(\.id) == [b])
        #expect(try await laptop.engine.unreadableRecords().first?.failedFetches == 1)
        try phone.store.save(Note(recordName: "d", title: "d"))
        await phone.sync()
        await laptop.sync()
        #expect(try Self.titles(laptop) == ["a", "c", "d"])
        await laptop.sync()
        let setAside = try #require(try await laptop.engine.unreadableRecords().first)
        #expect(setAside.isSetAside && setAside.failedFetches == UnreadableRecord.fetchesBeforeSetAside && setAside.error.code == .internalError)
        #expect("\(setAside)".contains("(3 fetches failed, set aside)") && !setAside.isUnreadableByThisVersion, "\(setAside)")
        #expect(await events.events().filter { if case .recordUnreadable = $0 { true } else { false } }.count == 1)
        let fetches = try world.cloud.counters()["requests.fetchRecords"] ?? 0
        await laptop.sync()
        #expect(try world.cloud.counters()["requests.fetchRecords"] ?? 0 == fetches)
        world.cloud.makeUnreadable("b", times: 0)
        try await laptop.engine.retryUnreadableRecords()
        await laptop.sync()
        #expect(try Self.titles(laptop) == ["a", "b", "c", "d"])
        #expect(try await laptop.engine.unreadableRecords().isEmpty)
    }

    /// A record that fails once is fetched again in the same pass and arrives; a later version
    /// of a record kept unreadable, or its deletion, ends it without a fetch.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRecordUnreadableOnceArrivesInTheSamePass(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(["a", "b"].map { Note(recordName: $0, title: $0) })
        await phone.sync()
        world.cloud.makeUnreadable("b", times: 1)
        await laptop.sync()
        #expect(try Self.titles(laptop) == ["a", "b"])
        #expect(try await laptop.engine.unreadableRecords().isEmpty)
        world.cloud.makeUnreadable("a")
        var edited = try #require(try phone.store.fetch(Note.self, recordName: "a"))
        edited.title = "a2"
        try phone.store.save(edited)
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.engine.unreadableRecords().map(\.id.recordName) == ["a"])
        try phone.store.delete(Note.self, recordName: "a")
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.engine.unreadableRecords().isEmpty && Self.titles(laptop) == ["b"])
    }

    /// More names than one request takes are fetched in requests of at most
    /// `CloudKitLimits.maxItemsPerRequest`, and a request the cloud finds too large goes again as
    /// two halves: every one of 300 records a page could not deliver arrives. Breaking it: one
    /// fetch of all 300 names, which the cloud refuses with `limitExceeded`, and none arrives.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aFetchOfMoreNamesThanOneRequestTakesIsChunked(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        let names = (0..<300).map { "n\(1000 + $0)" }
        try phone.store.save(names.map { Note(recordName: $0, title: $0) })
        await phone.sync()
        for name in names { world.cloud.makeUnreadable(name, times: 1) }
        world.cloud.inject(ScriptedFault(CloudError(.limitExceeded, "too large"), on: .fetchRecords))
        await laptop.sync()
        #expect(try laptop.store.count(Note.self) == 300)
        #expect(try await laptop.engine.unreadableRecords().isEmpty)
    }

    /// A catalog record a query page could not deliver is not taken for deleted by the
    /// refresh's reconciliation: its local copy stays, and it is fetched again by name.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anUnreadableCatalogRecordIsNotDeleted(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice")
        try alice.store.save(["p1", "p2"].map { PublishedNote(recordName: $0, title: "v1") })
        await alice.sync()
        let reader = try world.device("reader", account: "carol")
        await reader.sync()
        #expect(try reader.store.count(PublishedNote.self) == 2)
        world.cloud.makeUnreadable("p2")
        #expect(await reader.engine.refreshCatalogs() == .completed)
        #expect(try reader.store.fetchAll(PublishedNote.self).map(\.recordName).sorted() == ["p1", "p2"])
        #expect(try await reader.engine.unreadableRecords().map(\.id.recordName) == ["p2"])
    }
}
