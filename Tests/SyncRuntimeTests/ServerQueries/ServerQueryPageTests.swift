import Foundation
@_spi(SyncgenGenerated) import SyncCore
import GeneratedCoverage
import SyncRuntime
import SyncLocalCloud
import Testing

/// What a server query's page holds once the engine has it, over the coverage schema's governed,
/// located `PublicArticle`: the cloud's coarse answers trimmed, delisted records never asked for,
/// any page size answered.
@Suite("Server queries: the page the app sees")
struct ServerQueryPageTests {
    static let models: [any SyncModel.Type] = [PublicArticle.self, PublicAuthor.self]
    static let lisbon = SyncLocation(latitude: 38.7223, longitude: -9.1393)
    /// About 4.4 km from Lisbon's center.
    static let belem = SyncLocation(latitude: 38.6916, longitude: -9.2160)
    /// About 22.7 km from Lisbon's center.
    static let sintra = SyncLocation(latitude: 38.8029, longitude: -9.3817)

    /// A cloud with the coverage schema deployed, Alice's articles published at their places,
    /// and a reader that mirrors no catalog (it reads them by server queries only).
    private static func world(
        throughCloudKit: Bool, articles: [(String, SyncLocation)], configure: (inout LocalCloud.Configuration) -> Void = { _ in }
    ) async throws -> (world: SyncWorld, alice: SyncWorld.Device, reader: SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit) { configuration in
            configuration.deployedIndexes = GeneratedCoverage.SyncSchema.deployedIndexes
            configure(&configuration)
        }
        let alice = try world.device("alice-phone", account: "alice", models: models)
        let reader = try world.device("reader", account: "carol", configuration: SyncConfiguration(mirroredCatalogs: []), models: models)
        try alice.store.save(PublicAuthor(recordName: "author-1", name: "Alice"))
        for (name, venue) in articles {
            try alice.store.save(PublicArticle(recordName: name, headline: name, author: RecordReference(recordName: "author-1"), venue: venue))
        }
        await alice.sync()
        return (world, alice, reader)
    }

    /// CloudKit's location index is coarse ("Location indexes have a resolution of no less than
    /// 10 km", Apple, `CKQuery`), and LocalCloud answers as coarsely: a query for 5 km around
    /// Lisbon is answered with Sintra too. The engine trims the page to the exact radius before
    /// the app sees it, and keeps only what it shows. Breaking it (the trim left out): Sintra, 22.7
    /// km away, is on the page and in the store.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aPageHoldsOnlyTheRecordsWithinTheExactRadius(throughCloudKit: Bool) async throws {
        let (_, _, reader) = try await Self.world(throughCloudKit: throughCloudKit, articles: [("lisbon", Self.lisbon), ("belem", Self.belem), ("sintra", Self.sintra)])
        let near = ServerQuery<PublicArticle>().filter(.near(\.venue, Self.lisbon, within: 15_000))
        let answered = try await reader.engine.query(near, keeping: ResultRetention())
        #expect(answered.models.map(\.recordName).sorted() == ["belem", "lisbon"])
        #expect(try reader.store.fetchAll(PublicArticle.self).map(\.recordName).sorted() == ["belem", "lisbon"], "only what the page shows is kept")
        let cloudAnswered = try #require(reader.gateway.queryPages.last)
        #expect(cloudAnswered.records.map(\.id.recordName).sorted() == ["belem", "lisbon", "sintra"], "the cloud's answer was coarse")
        let closer = try await reader.engine.query(ServerQuery<PublicArticle>().filter(.near(\.venue, Self.lisbon, within: 1_000)))
        #expect(closer.models.map(\.recordName) == ["lisbon"])
    }

    /// A reader's server query over a governed catalog asks the cloud for its listed records
    /// only: a taken-down article is never on a page, and a page is not made shorter by records
    /// the app would filter out. Breaking it (no condition on the state): the delisted article
    /// comes, and a page of two holds one listed article.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aGovernedCatalogsQueryAsksForListedRecordsOnly(throughCloudKit: Bool) async throws {
        let (_, alice, reader) = try await Self.world(throughCloudKit: throughCloudKit, articles: [("a1", Self.lisbon), ("a2", Self.lisbon), ("a3", Self.lisbon)])
        try await alice.engine.takedown(PublicArticle.self, recordName: "a1")
        await alice.sync()
        let first = try await reader.engine.query(ServerQuery<PublicArticle>().limit(2))
        #expect(first.models.count == 2 && first.models.allSatisfy { $0.publicationLifecycle.state == .listed }, "\(first.models.map(\.recordName))")
        var names = first.models.map(\.recordName)
        if let next = first.next { names += try await reader.engine.query(ServerQuery<PublicArticle>().limit(2), after: next).models.map(\.recordName) }
        #expect(names.sorted() == ["a2", "a3"])
        let asked = try #require(reader.gateway.queries.last)
        #expect(asked.conditions.contains { $0.field == RecordFieldNames.publicationState && $0.values == [.string("listed")] })
    }

    /// Any page size an app passes is answered, `Int.max` included: the cloud chooses a page's
    /// size up to its own largest (Apple, `CKQueryOperation.maximumResults`: "CloudKit
    /// dynamically determines the actual number"). So is any zone-changes page size in the
    /// configuration. Breaking it (issue 57): `Int.max + 1` traps inside LocalCloud.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anyPageSizeIsAnswered(throughCloudKit: Bool) async throws {
        let (_, _, reader) = try await Self.world(throughCloudKit: throughCloudKit, articles: [("a1", Self.lisbon), ("a2", Self.belem)])
        for size in [Int.max, Int.min, 0] {
            let page = try await reader.engine.query(ServerQuery<PublicArticle>().limit(size))
            #expect(!page.models.isEmpty, "\(size)")
        }
        let notes = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try notes.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n1", title: "Milk"))
        await phone.sync()
        for (name, size) in [("alice-laptop", Int.max), ("alice-watch", Int.min)] {
            let device = try notes.device(name, account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: size))
            await device.sync()
            #expect(try device.store.fetch(Note.self, recordName: "n1")?.title == "Milk", "\(size)")
        }
    }
}
