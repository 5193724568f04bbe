import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
import Testing
@testable import SyncLocalCloud
#if !canImport(CloudKit)
import CloudKitGateway
import CloudKitStandIn
#endif

/// A query's conditions and sorts as the cloud answers them, straight from LocalCloud and through
/// the CloudKit gateway (its stand-in here), each rule citing Apple's page.
@Suite("Server queries: what the cloud answers")
struct ServerQueryCloudTests {
    enum Path: CaseIterable {
        case localCloud, throughCloudKit
    }

    /// The cloud as a device reaches it on `path`.
    private static func gateway(_ device: LocalCloudDevice, _ path: Path) -> any CloudGateway {
        switch path {
        case .localCloud: return device
        case .throughCloudKit:
            #if !canImport(CloudKit)
            return CloudKitGateway(container: CKContainer(device: device))
            #else
            return device
            #endif
        }
    }

    /// A device's cloud on `path` (a LocalCloud `configure` says) whose public database holds
    /// `records`.
    private static func cloud(
        _ path: Path, holding records: [SyncRecord], configure: (inout LocalCloud.Configuration) -> Void = { _ in }
    ) async throws -> any CloudGateway {
        let harness = try CloudHarness(.memory, configure: configure)
        let cloud = gateway(try harness.device("phone", "alice"), path)
        try await cloud.save(records, in: .public)
        return cloud
    }

    private static let recipes: [SyncRecord] = [
        ("soup", "Green soup", 20, "thai"), ("curry", "Green curry", 45, "thai"), ("salad", "Salad", 10, "greek"),
        ("stew", "Stew", 90, "irish"), ("pie", "Pie", 60, "irish"),
    ].map { name, title, minutes, cuisine in
        record(name, type: "Recipe", in: SyncConstants.publicZone, fields: ["title": .string(title), "minutes": .int64(Int64(minutes)), "cuisine": .string(cuisine)])
    }

    /// Every record of the query, page after page by its cursors.
    private static func all(_ query: RecordQuery, _ cloud: any CloudGateway) async throws -> [String] {
        var query = query
        var names: [String] = []
        repeat {
            let page = try await cloud.query(query, in: .public)
            names += page.records.map(\.id.recordName)
            query.cursor = page.cursor
        } while query.cursor != nil
        return names
    }

    /// Apple, `CKQuery`, "Predicate Rules for Query Objects": the comparison operators (`==`,
    /// `!=`, `<`, `<=`, `>`, `>=`), `BEGINSWITH` on strings and `IN` on a constant list, joined
    /// with `AND`. Each condition keeps what it says, and together they all hold.
    @Test(arguments: Path.allCases)
    func eachConditionKeepsWhatItSays(_ path: Path) async throws {
        let cloud = try await Self.cloud(path, holding: Self.recipes)
        let byName = [FieldSort("minutes")]
        func names(_ conditions: [FieldCondition]) async throws -> [String] {
            try await Self.all(RecordQuery(recordType: "Recipe", conditions: conditions, sorts: byName), cloud)
        }
        #expect(try await names([FieldCondition("cuisine", .equal, [.string("thai")])]) == ["soup", "curry"])
        #expect(try await names([FieldCondition("cuisine", .notEqual, [.string("thai")])]) == ["salad", "pie", "stew"])
        #expect(try await names([FieldCondition("minutes", .less, [.int64(45)])]) == ["salad", "soup"])
        #expect(try await names([FieldCondition("minutes", .lessOrEqual, [.int64(45)])]) == ["salad", "soup", "curry"])
        #expect(try await names([FieldCondition("minutes", .greater, [.int64(45)])]) == ["pie", "stew"])
        #expect(try await names([FieldCondition("minutes", .greaterOrEqual, [.int64(45)])]) == ["curry", "pie", "stew"])
        #expect(try await names([FieldCondition("title", .beginsWith, [.string("Green")])]) == ["soup", "curry"])
        #expect(try await names([FieldCondition("title", .beginsWith, [.string("green")])]).isEmpty, "BEGINSWITH without [c] minds case")
        // A text range compares case aside, as text equality does ("String-based comparisons are
        // case-insensitive"): by bytes, "green curry" would sort after every capital. Breaking
        // it (seen failing): a range by bytes keeps none of these, or all.
        #expect(try await names([FieldCondition("title", .less, [.string("h")])]) == ["soup", "curry"])
        #expect(try await names([FieldCondition("title", .greaterOrEqual, [.string("s")])]) == ["salad", "stew"])
        #expect(try await names([FieldCondition("title", .lessOrEqual, [.string("green SOUP")])]) == ["soup", "curry"])
        #expect(try await names([FieldCondition("title", .greater, [.string("PIE")])]) == ["salad", "stew"])
        #expect(try await names([FieldCondition("cuisine", .isIn, [.string("greek"), .string("irish")])]) == ["salad", "pie", "stew"])
        #expect(try await names([FieldCondition("cuisine", .equal, [.string("irish")]), FieldCondition("minutes", .less, [.int64(70)])]) == ["pie"])
    }

    /// Apple, `CKQuery`, "Sample Predicate Format Strings": "String-based comparisons are
    /// case-insensitive, but otherwise, all comparisons must be an exact match"; a reference
    /// matches "when the ID in the locally created CKRecord.Reference object is the same ID as in
    /// the specified field" (its delete action aside); and "the `CONTAINS` operator is only for
    /// testing list membership". Breaking it (seen failing): comparing text exactly, or a
    /// reference with its action, leaves "soup" out.
    @Test(arguments: Path.allCases)
    func textEqualsCaseAsideReferencesByIDAndListsByMember(_ path: Path) async throws {
        let chef = SyncReference(recordName: "chef-1", action: .deleteSelf)
        let cloud = try await Self.cloud(path, holding: Self.recipes.map { recipe in
            var recipe = recipe
            if recipe.id.recordName == "soup" {
                recipe.fields["chef"] = .reference(chef)
                recipe.fields["tags"] = .list([.string("Vegan"), .string("quick")])
            }
            return recipe
        })
        func names(_ condition: FieldCondition) async throws -> [String] {
            try await Self.all(RecordQuery(recordType: "Recipe", conditions: [condition], sorts: [FieldSort("minutes")]), cloud)
        }
        #expect(try await names(FieldCondition("cuisine", .equal, [.string("THAI")])) == ["soup", "curry"])
        #expect(try await names(FieldCondition("cuisine", .notEqual, [.string("Thai")])) == ["salad", "pie", "stew"])
        #expect(try await names(FieldCondition("cuisine", .isIn, [.string("Greek")])) == ["salad"])
        #expect(try await names(FieldCondition("chef", .equal, [.reference(SyncReference(recordName: "chef-1"))])) == ["soup"])
        #expect(try await names(FieldCondition("chef", .isIn, [.reference(SyncReference(recordName: "chef-1"))])) == ["soup"])
        #expect(try await names(FieldCondition("tags", .contains, [.string("vegan")])) == ["soup"])
        #expect(try await names(FieldCondition("tags", .contains, [.string("slow")])).isEmpty)
    }

    /// Apple, `NSSortDescriptor(key:ascending:)` as `CKQuery.sortDescriptors` takes them: a
    /// descending sort reverses the order, and the cursor (`CKQueryOperation.Cursor`) continues
    /// it page after page.
    @Test(arguments: Path.allCases)
    func aDescendingSortPagesWithItsCursor(_ path: Path) async throws {
        let cloud = try await Self.cloud(path, holding: Self.recipes)
        let query = RecordQuery(recordType: "Recipe", sorts: [FieldSort("minutes", ascending: false)], resultsLimit: 2)
        #expect(try await Self.all(query, cloud) == ["stew", "pie", "curry", "soup", "salad"])
    }

    /// Apple, `CKRecord.allTokens()`: a record's text is broken "apart at whitespace boundaries"
    /// into words; a search (`ALL tokenize(%@, 'Cdl') IN allTokens`, the `Cdl` options: case and
    /// accents aside) keeps the records holding every word it names, whole words only, in the
    /// fields the deployed schema marks `SEARCHABLE` (every text field where none is deployed).
    @Test(arguments: Path.allCases)
    func aTextSearchKeepsRecordsHoldingEveryWord(_ path: Path) async throws {
        let cloud = try await Self.cloud(path, holding: Self.recipes + [record("cafe", type: "Recipe", in: SyncConstants.publicZone, fields: ["title": .string("Café au lait"), "minutes": .int64(5)])])
        func search(_ text: String) async throws -> [String] {
            try await Self.all(RecordQuery(recordType: "Recipe", conditions: [FieldCondition("", .allTokens, [.string(text)])], sorts: [FieldSort("minutes")]), cloud)
        }
        #expect(try await search("GREEN") == ["soup", "curry"])
        #expect(try await search("green   curry") == ["curry"])
        #expect(try await search("gre").isEmpty, "whole words only")
        #expect(try await search("cafe AU") == ["cafe"], "accents and case aside")
        #expect(try await search("thai") == ["soup", "curry"], "every text field, with no schema deployed")
        // Apple, `CKQuery`, "Indexes and Full-Text Search": "CloudKit ignores the following words
        // if they appear in the token strings" (a, an, and, the, with...).
        #expect(try await search("the green soup") == ["soup"], "'the' is ignored")
        #expect(try await search("the and").isEmpty, "ignored words alone find nothing")
    }

    /// With a deployed schema, a search reads only the fields it marks `SEARCHABLE`, and a record
    /// type with none refuses it (`invalidArguments`).
    @Test(arguments: Path.allCases)
    func aTextSearchReadsTheSearchableFields(_ path: Path) async throws {
        let cloud = try await Self.cloud(path, holding: Self.recipes + [record("p", type: "Plain", in: SyncConstants.publicZone, fields: ["title": .string("Green")])]) { configuration in
            configuration.deployedIndexes = ["Recipe": ["title": ["SEARCHABLE"], "minutes": ["SORTABLE"]], "Plain": ["title": ["QUERYABLE"]]]
        }
        let words = { (text: String) in [FieldCondition("", .allTokens, [.string(text)])] }
        #expect(try await Self.all(RecordQuery(recordType: "Recipe", conditions: words("green"), sorts: [FieldSort("minutes")]), cloud) == ["soup", "curry"])
        #expect(try await Self.all(RecordQuery(recordType: "Recipe", conditions: words("thai")), cloud).isEmpty, "cuisine is not searchable")
        #expect(await cloudError { _ = try await cloud.query(RecordQuery(recordType: "Plain", conditions: words("green")), in: .public) }?.code == .invalidArguments)
    }

    /// Apple, `CKQuery`, "Predicate Rules for Query Objects": a location field is compared by its
    /// distance from a place, `distanceToLocation:fromLocation:(field, place) < radius`, in
    /// meters (`CLLocation.distance(from:)`, along the Earth's curve). A record without the field
    /// is not near anything.
    @Test(arguments: Path.allCases)
    func aDistanceKeepsTheRecordsWithinItsRadius(_ path: Path) async throws {
        let places: [(String, Double, Double)] = [("lisbon", 38.7223, -9.1393), ("sintra", 38.8029, -9.3817), ("porto", 41.1579, -8.6291)]
        let cloud = try await Self.cloud(path, holding: places.map { name, latitude, longitude in
            record(name, type: "Shop", in: SyncConstants.publicZone, fields: ["place": .location(SyncLocation(latitude: latitude, longitude: longitude))])
        } + [record("nowhere", type: "Shop", in: SyncConstants.publicZone, fields: ["title": .string("online")])])
        let lisbon = SyncLocation(latitude: 38.7223, longitude: -9.1393)
        func near(_ meters: Double) async throws -> [String] {
            try await Self.all(RecordQuery(recordType: "Shop", conditions: [FieldCondition("place", .withinDistance, [.location(lisbon), .double(meters)])]), cloud).sorted()
        }
        // Sintra is about 22.7 km from Lisbon, Porto about 274 km.
        #expect(try await near(1_000) == ["lisbon"])
        #expect(try await near(30_000) == ["lisbon", "sintra"])
        #expect(try await near(300_000) == ["lisbon", "porto", "sintra"])
        let malformed = RecordQuery(recordType: "Shop", conditions: [FieldCondition("place", .withinDistance, [.location(lisbon)])])
        #expect(await cloudError { _ = try await cloud.query(malformed, in: .public) }?.code == .invalidArguments)
    }

    /// Apple, `CKQuery`, "Predicate Rules for Query Objects": "Location indexes have a
    /// resolution of no less than 10 km". LocalCloud answers as coarsely by default (the
    /// harsher reading): a record up to 10 km beyond the radius matches too; with a resolution of
    /// 0 it answers exactly. Breaking it (an exact answer by default): the engine's trim of a
    /// page to the exact radius goes untested.
    @Test(arguments: Path.allCases)
    func aDistanceIsAsCoarseAsCloudKitsIndex(_ path: Path) async throws {
        let places: [(String, Double, Double)] = [("lisbon", 38.7223, -9.1393), ("sintra", 38.8029, -9.3817), ("porto", 41.1579, -8.6291)]
        let records = places.map { name, latitude, longitude in
            record(name, type: "Shop", in: SyncConstants.publicZone, fields: ["place": .location(SyncLocation(latitude: latitude, longitude: longitude))])
        }
        let lisbon = SyncLocation(latitude: 38.7223, longitude: -9.1393)
        let fifteenKilometers = RecordQuery(recordType: "Shop", conditions: [FieldCondition("place", .withinDistance, [.location(lisbon), .double(15_000)])])
        let coarse = try await Self.cloud(path, holding: records)
        #expect(try await Self.all(fifteenKilometers, coarse).sorted() == ["lisbon", "sintra"], "Sintra, 22.7 km away, is within 15 km and the 10 km resolution")
        let exact = try await Self.cloud(path, holding: records) { $0.locationResolution = 0 }
        #expect(try await Self.all(fifteenKilometers, exact) == ["lisbon"])
    }

    /// A page size past what the cloud serves (`Int.max` included) is answered with pages of the
    /// cloud's own size, never a crash (Apple, `CKQueryOperation.maximumResults`: "CloudKit
    /// dynamically determines the actual number"). Breaking it: `Int.max + 1` traps.
    @Test(arguments: Path.allCases)
    func anyPageSizeIsAnswered(_ path: Path) async throws {
        let cloud = try await Self.cloud(path, holding: Self.recipes)
        for limit in [Int.max, Int.max - 1, 0, -1, Int.min] {
            let page = try await cloud.query(RecordQuery(recordType: "Recipe", resultsLimit: limit), in: .public)
            #expect(!page.records.isEmpty, "\(limit)")
            #expect(try await Self.all(RecordQuery(recordType: "Recipe", sorts: [FieldSort("minutes")], resultsLimit: limit), cloud).count == 5, "\(limit)")
        }
    }

    /// A query its deployed schema has no index for fails with `invalidArguments`: a condition on
    /// a field not marked `QUERYABLE`, a sort by one not marked `SORTABLE` (the `.ckdb` schema's
    /// index kinds; CloudKit's answer says "Field '…' is not marked queryable"). Those the
    /// indexes allow are answered.
    @Test(arguments: Path.allCases)
    func aQueryWithoutItsIndexIsRefused(_ path: Path) async throws {
        let cloud = try await Self.cloud(path, holding: Self.recipes) { configuration in
            configuration.deployedIndexes = ["Recipe": ["title": ["QUERYABLE"], "minutes": ["QUERYABLE", "SORTABLE"]]]
        }
        let unqueryable = await cloudError { _ = try await cloud.query(RecordQuery(recordType: "Recipe", conditions: [FieldCondition("cuisine", .equal, [.string("thai")])]), in: .public) }
        #expect(unqueryable?.code == .invalidArguments)
        let green = [FieldCondition("title", .beginsWith, [.string("Green")])]
        let unsortable = await cloudError { _ = try await cloud.query(RecordQuery(recordType: "Recipe", conditions: green, sorts: [FieldSort("title")]), in: .public) }
        #expect(unsortable?.code == .invalidArguments && unsortable?.message.contains("sortable") == true)
        let answered = RecordQuery(recordType: "Recipe", conditions: green, sorts: [FieldSort("minutes")])
        #expect(try await Self.all(answered, cloud) == ["soup", "curry"])
    }

    /// A query with no condition asks for every record by ID: CloudKit answers it only where the
    /// record type's `___recordID` is QUERYABLE ("Field 'recordName' is not marked queryable"),
    /// which the `.ckdb` export declares on public types and the generated `deployedIndexes`
    /// with it. Breaking it (the rule left out): a catalog whose deployed schema lacks the index
    /// refreshes here and fails on iCloud.
    @Test(arguments: Path.allCases)
    func aQueryWithNoConditionNeedsTheRecordIDIndex(_ path: Path) async throws {
        let everything = RecordQuery(recordType: "Recipe", sorts: [FieldSort("minutes")])
        let withoutIt = try await Self.cloud(path, holding: Self.recipes) { $0.deployedIndexes = ["Recipe": ["minutes": ["QUERYABLE", "SORTABLE"]]] }
        let refused = await cloudError { _ = try await withoutIt.query(everything, in: .public) }
        #expect(refused?.code == .invalidArguments && refused?.message.contains("recordName") == true)
        let withIt = try await Self.cloud(path, holding: Self.recipes) {
            $0.deployedIndexes = ["Recipe": ["minutes": ["QUERYABLE", "SORTABLE"], "___recordID": ["QUERYABLE"]]]
        }
        #expect(try await Self.all(everything, withIt) == ["salad", "soup", "curry", "pie", "stew"])
    }
}

/// The engine's `query(_:after:)`: a page of a public model's records as the cloud answers a
/// typed query, read a page at a time by its cursor, written nowhere.
@Suite("Server queries: through the engine")
struct ServerQueryEngineTests {
    /// A reader pages through the public notes whose title begins with "Soup", newest first,
    /// two a page: each page's models come in order, the last page has no cursor, and nothing
    /// is stored on the reader. The page asks for every field but the cover's contents.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aReaderPagesThroughAQueryHoldingOnlyItsPage(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice")
        let reader = try world.device("reader", account: "carol")
        for (index, title) in ["Soup 1", "Salad", "Soup 2", "Soup 3", "Stew"].enumerated() {
            world.clock.advance(by: 60)
            let note = Note(recordName: "n\(index)", title: title, createdAt: world.clock.now, cover: AssetReference(suffix: "jpg", byteSize: 10))
            try alice.store.save(note)
            try await alice.engine.publish(note)
        }
        await alice.sync()
        let query = ServerQuery<PublishedNote>().filter(.hasPrefix(\.title, "Soup")).sorted(by: \.createdAt, .descending).limit(2)
        let first = try await reader.engine.query(query)
        #expect(first.models.map(\.title) == ["Soup 3", "Soup 2"])
        let cursor = try #require(first.next)
        let second = try await reader.engine.query(query, after: cursor)
        #expect(second.models.map(\.title) == ["Soup 1"] && second.next == nil && second.unreadable.isEmpty)
        #expect(second.models.first?.cover == AssetReference(suffix: "jpg", byteSize: 10), "the markers come, the file does not")
        #expect(try reader.store.fetchAll(PublishedNote.self).isEmpty, "a page is written nowhere")
        let asked = reader.gateway.queries.filter { $0.recordType == "PublishedNote" && !$0.conditions.isEmpty }.map(\.desiredKeys)
        #expect(try await reader.engine.query(ServerQuery<PublishedNote>().matching("soup")).models.count == 3, "a search by word")
        #expect(asked.count == 2 && asked.allSatisfy { $0?.contains("assetSuffix") == true && $0?.contains("assetData") == false }, "\(asked)")
    }
}
