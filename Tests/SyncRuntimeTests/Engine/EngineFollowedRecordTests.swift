import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// One public record kept by its name (`SyncConfiguration.followedRecords`): a remote
/// configuration a reader follows without mirroring its type. Read by name (Apple,
/// `CKDatabase.records(for:desiredKeys:)`: a `Result` per record ID, `unknownItem` for one the
/// database has not), watched by its type's query subscription, read again past its maximum age.
@Suite("Engine: a public record followed by name")
struct EngineFollowedRecordTests {
    static let settings = "settings"

    /// Alice publishes the settings and two other notes; a reader who mirrors no catalog follows
    /// the settings, read again ten minutes old.
    static func aReaderFollowingTheSettings(throughCloudKit: Bool) async throws -> (world: SyncWorld, alice: SyncWorld.Device, reader: SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice")
        try alice.store.save([
            PublishedNote(recordName: settings, title: "v1"), PublishedNote(recordName: "p1", title: "Soup 1"), PublishedNote(recordName: "p2", title: "Soup 2"),
        ])
        #expect(await alice.sync() == .completed)
        let configuration = SyncConfiguration(mirroredCatalogs: [], followedRecords: [FollowedRecord(PublishedNote.self, named: settings, maximumAge: 600)])
        let reader = try world.device("reader", account: "carol", configuration: configuration)
        let queries = try world.cloud.counters()["requests.query"]
        #expect(await reader.sync() == .completed)
        #expect(try world.cloud.counters()["requests.query"] == queries, "read by name, not by a query")
        return (world, alice, reader)
    }

    static func title(on device: SyncWorld.Device) throws -> String? {
        try device.store.fetch(PublishedNote.self, recordName: settings)?.title
    }

    static func publish(_ title: String, from alice: SyncWorld.Device) async throws {
        var note = try #require(try alice.store.fetch(PublishedNote.self, recordName: settings))
        note.title = title
        try alice.store.save(note)
        #expect(await alice.sync() == .completed)
    }

    /// The first pass reads the settings by name and nothing else of their type (no catalog
    /// query); an observer of the store sees each version arrive. A change reaches the reader
    /// by its type's subscription, and only then or once the copy is ten minutes old; the app's
    /// refresh reads it now, and a deletion in the cloud takes it out of the store. Breaking it:
    /// the pass not reading followed records leaves the store without the settings; the
    /// subscription not saved for a type no catalog is mirrored of leaves "v2" away after the
    /// push; the age not read never brings "v3"; a deletion not applied keeps "v3".
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aFollowedRecordIsReadWatchedAndAged(throughCloudKit: Bool) async throws {
        let (world, alice, reader) = try await Self.aReaderFollowingTheSettings(throughCloudKit: throughCloudKit)
        #expect(try reader.store.fetchAll(PublishedNote.self).map(\.recordName) == [Self.settings], "the settings alone")
        var versions = reader.store.observe(PublishedNote.self).map { $0.map(\.title) }.makeAsyncIterator()
        #expect(try await versions.next() == ["v1"])

        try await Self.publish("v2", from: alice)
        #expect(await reader.sync() == .completed)
        #expect(try Self.title(on: reader) == "v1", "a pass does not read it unasked")
        #expect(await reader.receivePushes() == 1)
        #expect(try Self.title(on: reader) == "v2", "its type's subscription")
        // Awaited only once the store holds it: a test that fails never waits for ever.
        if try Self.title(on: reader) == "v2" { #expect(try await versions.next() == ["v2"]) }

        try await Self.publish("v3", from: alice)
        world.clock.advance(by: 599)
        #expect(await reader.sync() == .completed)
        #expect(try Self.title(on: reader) == "v2")
        world.clock.advance(by: 1)
        #expect(await reader.sync() == .completed)
        #expect(try Self.title(on: reader) == "v3", "ten minutes old")

        try alice.store.delete(PublishedNote.self, recordName: Self.settings)
        #expect(await alice.sync() == .completed)
        #expect(await reader.engine.refreshCatalogs() == .completed)
        #expect(try Self.title(on: reader) == nil, "gone from the cloud, gone here")
        #expect(try reader.store.fetchAll(PublishedNote.self).isEmpty)
    }

    /// Kept results of server queries are evicted by the app's retention, but never the followed
    /// record: a page keeping one note at most leaves the settings in the store. Breaking it
    /// (eviction not minding followed records): the settings, kept by the first page, go.
    @Test func keptResultsNeverEvictAFollowedRecord() async throws {
        let (_, _, reader) = try await Self.aReaderFollowingTheSettings(throughCloudKit: false)
        _ = try await reader.engine.query(ServerQuery<PublishedNote>(), keeping: ResultRetention())
        #expect(try reader.store.count(PublishedNote.self) == 3)
        let soups = ServerQuery<PublishedNote>().filter(.hasPrefix(\.title, "Soup"))
        _ = try await reader.engine.query(soups, keeping: ResultRetention(maximumCount: 1, maximumAge: nil))
        #expect(try Self.title(on: reader) == "v1")
    }

    /// A followed record of a type the engine does not sync is read by nothing, and said once
    /// in the log as the engine is made. Breaking it (no line): nothing says why the record
    /// never arrives.
    @Test func aFollowedRecordOfAnUnknownTypeIsLogged() async throws {
        let world = try SyncWorld()
        let log = EngineLogTests.RecordingLog()
        let configuration = SyncConfiguration(followedRecords: [FollowedRecord(PublishedNote.self, named: Self.settings)], logHandler: log)
        let reader = try world.device("reader", account: "carol", configuration: configuration, models: [Note.self])
        #expect(await reader.sync() == .completed)
        #expect(log.entries.contains { $0.level == .error && "\($0.message)".contains("followed record PublishedNote \(Self.settings) is of a model this engine does not sync") })
    }
}
