import Foundation
@_spi(SyncgenGenerated) import SyncCore
import GeneratedCoverage
import SyncLocalCloud
import SyncRuntime
import SyncStorage
import Testing

/// The contract between the generator and the runtime, type by type: every type of the schema
/// language (`ScalarType`, alone and in a list) has a field in the coverage schema
/// (Tests/GeneratedCoverage/Schema/Coverage.yaml), whose generated code compiles warning-free, and
/// whose value crosses every layer and comes back as it went: the record, the store's codec, the
/// store, LocalCloud and the CloudKit mapping. A type added without its facts does not compile (the
/// facts' switch is exhaustive); one added without a coverage field fails the first test.
@Suite("Field types: every type through every layer")
struct FieldTypeContractTests {
    /// Every field type of every coverage model.
    static var coveredTypes: Set<FieldDescriptor.ValueType> {
        Set(GeneratedCoverage.SyncSchema.models.flatMap { $0.fieldDescriptors.map(\.type) })
    }

    @Test func theCoverageSchemaHasAFieldOfEveryType() {
        for scalar in ScalarType.allCases {
            #expect(Self.coveredTypes.contains(.scalar(scalar)), "Coverage.yaml has no field of type \(scalar.rawValue)")
            if scalar.facts.isListElement {
                #expect(Self.coveredTypes.contains(.list(.scalar(scalar))), "Coverage.yaml has no list of \(scalar.rawValue)")
            }
        }
    }

    /// The coverage model of every type but asset, with a value in every field that is none of
    /// its defaults, through the store's codec: every value decodes to the one encoded.
    @Test func everyValueCrossesTheCodec() throws {
        let record = GeneratedBridgeTests.filledData().makeRecord()
        let decoded = try FieldsCodec.decode(FieldsCodec.encode(record.fields))
        #expect(decoded == record.fields)
        #expect(Set(decoded.map(\.name)) == Set(record.fields.map(\.name)))
    }

    /// The same model saved in a device's store, read back equal; synced to another device
    /// through LocalCloud (and through the CloudKit gateway over the stand-in), read there equal
    /// but for what never travels (a local-only value keeps its default there, a server-owned one
    /// is the server's).
    @Test(arguments: SyncWorld.cloudKitPaths)
    func everyValueCrossesTheStoreAndTheCloud(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let models = GeneratedCoverage.SyncSchema.models
        let phone = try world.device("alice-phone", account: "alice", models: models)
        let laptop = try world.device("alice-laptop", account: "alice", models: models)
        var saved = GeneratedBridgeTests.filledData()
        saved.views = 0
        try phone.store.save(saved)
        #expect(try phone.store.fetch(DataModel.self, recordName: saved.recordName) == saved)
        await phone.sync()
        await laptop.sync()
        var expected = saved
        expected.cursor = 3
        #expect(try laptop.store.fetch(DataModel.self, recordName: saved.recordName) == expected)
    }

    /// A store and a LocalCloud file an earlier release wrote (Tests/SyncRuntimeTests/Fixtures,
    /// before the types had one table) open and read the same: the store's columns and the
    /// codec's bytes of every type are what they were, and a new device syncing from the old
    /// cloud reads every value. Breaking it (two of the codec's tags swapped, `date` and
    /// `bytes`): the kept store's list of dates reads as a list of bytes, and the fetch throws.
    /// (A type's `storedForm` changed breaks no kept store: a table's columns are read from the
    /// store's own catalog, `model_columns`.)
    @Test func filesAnEarlierReleaseWroteReadTheSame() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        for name in ["store.sqlite", "cloud.localcloud"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        var saved = GeneratedBridgeTests.filledData()
        saved.views = 0
        let store = try SyncStore(url: folder.appendingPathComponent("store.sqlite"))
        #expect(try store.fetch(DataModel.self, recordName: saved.recordName) == saved)
        #expect(try !store.hasUnpushedChanges())

        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.localcloud"))
        let laptopStore = try SyncStore(url: nil)
        let laptop = SyncEngine(
            store: laptopStore, cloud: try cloud.device("alice-laptop", account: "alice"), models: GeneratedCoverage.SyncSchema.models,
            configuration: SyncConfiguration(assetCacheRoot: folder.appendingPathComponent("cache")), reachability: nil)
        #expect(await laptop.sync() == .completed)
        var expected = saved
        expected.cursor = 3
        #expect(try laptopStore.fetch(DataModel.self, recordName: saved.recordName) == expected)
    }
}
