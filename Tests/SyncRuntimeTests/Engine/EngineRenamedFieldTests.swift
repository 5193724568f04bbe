import Foundation
import GeneratedCoverage
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Fields renamed in Swift and kept in CloudKit (`recordKey:`). `Recipe` (GeneratedCoverage)
/// calls its fields `title`, `servings`, `steps` and `diagram`, stored under the keys the app's
/// first version used (`name`, `portions`, `method`, the asset `sketch`); `RecipeVersion1` is
/// that first version's generated type, kept as it was generated. Devices running either share
/// the records: nothing either wrote is lost, and the merges, the natural key and the asset work
/// across the two. Each engine test runs through LocalCloud's port and through the CloudKit
/// gateway over the stand-in.
///
/// Breaking it (the generator writing a field's Swift name as its key, as it did before
/// `recordKey:`: `.field("title", \Self.title)` in Coverage.syncgen.swift): the values the first
/// version wrote read as empty, and what the renamed version writes never reaches it.
@Suite("Engine: fields renamed in Swift, kept in CloudKit")
struct EngineRenamedFieldTests {
    static let bread = RecipeVersion1(recordName: "bread", name: "Bread", portions: 4, method: "Mix flour and water. Bake.")

    static func recipe(_ device: SyncWorld.Device, _ name: String = "bread") throws -> Recipe? {
        try device.store.fetch(Recipe.self, recordName: name)
    }

    static func firstVersion(_ device: SyncWorld.Device, _ name: String = "bread") throws -> RecipeVersion1? {
        try device.store.fetch(RecipeVersion1.self, recordName: name)
    }

    /// Alice's phone, still on the first version, and her laptop, on the renamed one.
    static func twoVersions(throughCloudKit: Bool) throws -> (SyncWorld, phone: SyncWorld.Device, laptop: SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: [RecipeVersion1.self])
        let laptop = try world.device("alice-laptop", account: "alice", models: [Recipe.self])
        return (world, phone, laptop)
    }

    // MARK: - The bridge and the store

    /// A record the first version wrote decodes into the renamed properties, and the renamed
    /// version's record is the first version's, key for key.
    @Test func aRecordOfTheFirstVersionReadsIntoTheRenamedProperties() throws {
        let record = Self.bread.makeRecord()
        let renamed = try Recipe(record: record)
        #expect(renamed.title == "Bread" && renamed.servings == 4 && renamed.steps == "Mix flour and water. Bake.")
        var back = renamed.makeRecord()
        #expect(Set(back.fields.names) == Set(record.fields.names))
        #expect(try RecipeVersion1(record: back) == Self.bread)
        back.fields["portions"] = .int64(6)
        #expect(try Recipe(record: back).servings == 6)
        #expect(Recipe.uniqueKeys == [["name"]])
        #expect(Recipe.serverFields.title.name == "name")
        #expect(PublicRecipe.catalogDesiredKeys == ["dish"])
        #expect(Recipe(title: "Soup").makeProjection().makeRecord().fields["dish"] == .string("Soup"))
    }

    /// A store the first version filled, opened by the renamed version: every value is in its
    /// renamed property, and a query by the renamed key path finds it (the column kept its key).
    @Test func aStoreTheFirstVersionWroteKeepsEveryValue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("renamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        do {
            let store = try SyncStore(url: url)
            try store.save(Self.bread)
        }
        let store = try SyncStore(url: url)
        let renamed = try #require(try store.fetch(Recipe.self, recordName: "bread"))
        #expect(renamed.title == "Bread" && renamed.servings == 4 && renamed.steps == "Mix flour and water. Bake.")
        #expect(try store.fetch(Query<Recipe>().filter(\.title == "Bread")).map(\.recordName) == ["bread"])
        var edited = renamed
        edited.title = "Sourdough"
        try store.save(edited)
        #expect(try store.fetch(RecipeVersion1.self, recordName: "bread")?.name == "Sourdough")
    }

    // MARK: - Through the engine

    /// The phone still runs the first version; the laptop the renamed one. What the phone wrote
    /// the laptop reads, and the laptop's edits (a count, a word of the steps) reach the phone;
    /// concurrent changes merge as the schema says (the count adds up, both texts' edits stay).
    @Test(arguments: SyncWorld.cloudKitPaths)
    func twoAppVersionsShareTheRecordsAndTheirMerges(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try Self.twoVersions(throughCloudKit: throughCloudKit)
        try phone.store.save(Self.bread)
        await phone.sync()
        await laptop.sync()
        var onLaptop = try #require(try Self.recipe(laptop))
        #expect(onLaptop.title == "Bread" && onLaptop.servings == 4 && onLaptop.steps == "Mix flour and water. Bake.")

        // Offline on both: the laptop doubles the bread, the phone takes one portion off; each
        // edits a different sentence of the steps.
        onLaptop.servings += 4
        onLaptop.steps = "Mix flour, salt and water. Bake."
        try laptop.store.save(onLaptop)
        var onPhone = try #require(try Self.firstVersion(phone))
        onPhone.portions -= 1
        onPhone.method = "Mix flour and water. Bake for an hour."
        try phone.store.save(onPhone)
        await phone.sync()
        await laptop.sync()
        await phone.sync()

        let steps = "Mix flour, salt and water. Bake for an hour."
        #expect(try Self.recipe(laptop)?.servings == 7 && Self.recipe(laptop)?.steps == steps)
        #expect(try Self.firstVersion(phone)?.portions == 7 && Self.firstVersion(phone)?.method == steps)
        let cloud = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["bread"]
        #expect(cloud?.fields["portions"] == .int64(7) && cloud?.fields["name"] == .string("Bread"))
        #expect(cloud?.fields["servings"] == nil && cloud?.fields["title"] == nil, "no value went up under a Swift name")
    }

    /// The same dish created offline on both versions is one record once they sync: the
    /// natural key compares the key both store (`name`), whatever the Swift property is called.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aDishCreatedOnBothVersionsBecomesOneRecord(throughCloudKit: Bool) async throws {
        let (_, phone, laptop) = try Self.twoVersions(throughCloudKit: throughCloudKit)
        try phone.store.save(RecipeVersion1(recordName: "from-phone", name: "Soup", portions: 2))
        try laptop.store.save(Recipe(recordName: "from-laptop", title: "Soup", servings: 3))
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        await laptop.sync()
        #expect(try laptop.store.fetch(Query<Recipe>()).count == 1)
        #expect(try phone.store.fetch(Query<RecipeVersion1>()).count == 1)
        #expect(try laptop.store.fetch(Query<Recipe>()).first?.recordName == phone.store.fetch(Query<RecipeVersion1>()).first?.recordName)
    }

    /// A file the first version attached to `sketch` is the renamed version's `diagram`: it
    /// travels under the keys the record key gives (`sketchAssetData`...), and downloads there.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aFileAttachedByTheFirstVersionIsTheRenamedField(throughCloudKit: Bool) async throws {
        let (_, phone, laptop) = try Self.twoVersions(throughCloudKit: throughCloudKit)
        try phone.store.save(Self.bread)
        try await phone.engine.attachAsset(picture(300), suffix: "png", to: \RecipeVersion1.sketch, recordName: "bread")
        await phone.sync()
        await laptop.sync()
        #expect(try Self.recipe(laptop)?.diagram?.byteSize == 300)
        #expect(try Self.recipe(laptop)?.photo == nil)
        try await laptop.engine.requestAssetDownload(for: \Recipe.diagram, recordName: "bread")
        await laptop.sync()
        let url = try #require(try await laptop.engine.assetFileURL(for: \Recipe.diagram, recordName: "bread"))
        #expect(try Data(contentsOf: url) == picture(300))
    }
}
