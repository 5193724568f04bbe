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

    /// A world whose cloud has the coverage schema deployed, as an app's container holds its own.
    static func world(throughCloudKit: Bool = false) throws -> SyncWorld {
        try SyncWorld(throughCloudKit: throughCloudKit) { $0.deployedIndexes = GeneratedCoverage.SyncSchema.deployedIndexes }
    }

    /// Alice's phone and laptop, syncing the coverage models.
    static func devices(in world: SyncWorld) throws -> (phone: SyncWorld.Device, laptop: SyncWorld.Device) {
        let models = GeneratedCoverage.SyncSchema.models
        return (try world.device("alice-phone", account: "alice", models: models), try world.device("alice-laptop", account: "alice", models: models))
    }

    /// The coverage model of every type with a value in every field, as a device saves it: no
    /// value of its server-owned field, which only the server sets.
    static func saved() -> DataModel {
        var data = GeneratedBridgeTests.filledData()
        data.views = 0
        return data
    }

    /// Whether values of a type compare, and how, is one fact (`ScalarTypeFacts.order`): the
    /// Swift types a query can sort and compare by (`QueryComparable`) are those of the types
    /// that have an order, and no other; each order is one its stored column keeps (text by its
    /// bytes, numbers as numbers: a type kept as text but ordered as a number would sort "10"
    /// before "9"); `max`/`min` merge only ordered values. Breaking it: a type given an order
    /// without its Swift type made comparable (or the reverse), as `url`, `uuid` and `enum` were.
    @Test func theComparableSwiftTypesAreThoseOfTheOrderedTypes() {
        for type in ScalarType.allCases {
            let swift: Any.Type = switch type {
            case .string: String.self
            case .int: Int64.self
            case .double: Double.self
            case .bool: Bool.self
            case .date: Foundation.Date.self
            case .data: Foundation.Data.self
            case .asset: AssetReference.self
            case .location: SyncLocation.self
            case .url: URL.self
            case .uuid: UUID.self
            case .enum: GeneratedCoverage.Data.TypeValue.self
            }
            #expect((swift is any QueryComparable.Type) == (type.facts.order != nil), "\(type)")
            let keptBy: Set<ScalarTypeFacts.StoredForm> = switch type.facts.order {
            case .utf8?: [.text]
            case .numeric?: [.integer, .real]
            case .chronological?: [.date]
            case nil: Set([ScalarTypeFacts.StoredForm.text, .integer, .real, .bytes, .date, .encoded])
            }
            #expect(keptBy.contains(type.facts.storedForm), "\(type) is ordered as its column keeps it")
            #expect(!type.facts.mergesByExtreme || type.facts.order != nil, "\(type)")
            #expect(type.facts.isSortable == (type.facts.order != nil), "\(type)")
        }
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
        let world = try Self.world(throughCloudKit: throughCloudKit)
        let (phone, laptop) = try Self.devices(in: world)
        let saved = Self.saved()
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
        var saved = Self.saved()
        // Fields the coverage model gained after the files were written hold what a record
        // without them decodes to: its unset value, nil, nothing in a list.
        let blank = DataModel(emptyRecordNamed: saved.recordName, ownerName: saved.ownerName)
        saved.link = blank.link
        saved.identifier = blank.identifier
        (saved.maybeLink, saved.maybeIdentifier, saved.links, saved.identifiers) = (nil, nil, [], [])
        (saved.type, saved.task, saved.maybeState, saved.states) = (blank.type, blank.task, nil, blank.states)
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

    /// A uuid goes up in lowercase, RFC 9562's canonical form, and one another client wrote in
    /// uppercase reads back the same; a url goes up as its absolute string.
    @Test func aUUIDTravelsLowercaseAndReadsEitherCase() throws {
        let data = GeneratedBridgeTests.filledData()
        var record = data.makeRecord()
        #expect(record.fields["identifier"] == .string("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(record.fields["link"] == .string("https://example.com/a%20b?q=1#top"))
        record.fields["identifier"] = .string("6BA7B810-9DAD-11D1-80B4-00C04FD430C8")
        #expect(try DataModel(record: record).identifier == data.identifier)
    }

    /// A string that is no URL (an unbalanced bracket) or no UUID, written by another client, is
    /// an error naming the record and the field and what the field holds, never a value made up
    /// in its place.
    @Test(arguments: [("link", "http://[::1", "url"), ("identifier", "not-a-uuid", "uuid"), ("links", "", "list of url")])
    func aStringThatIsNoURLOrUUIDIsAnErrorNamingTheField(field: String, text: String, expected: String) {
        var record = GeneratedBridgeTests.filledData().makeRecord()
        record.fields[field] = field == "links" ? .list([.string(text)]) : .string(text)
        #expect(throws: FieldDecodingError(recordType: "Data", recordName: "data-1", field: field, expected: expected, found: field == "links" ? "list of string" : "string")) {
            _ = try DataModel(record: record)
        }
    }

    /// Another client writes a string that is no URL into a url field: the laptop's pull goes
    /// on without that record, sets it aside where the app sees it (`recordUnreadable`, the
    /// field and what it holds named) and makes up no value in its place; the other records
    /// arrive; the phone's next good version ends it. Breaking it (no retry without the
    /// records the models cannot read): the pull fails at that page at every pass, and nothing
    /// after it ever arrives.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aURLAnotherClientSpoiltIsSetAsideNotReplaced(throughCloudKit: Bool) async throws {
        let world = try Self.world(throughCloudKit: throughCloudKit)
        let (phone, laptop) = try Self.devices(in: world)
        var good = Self.saved()
        var other = good
        other.recordName = "data-2"
        try phone.store.save([good, other])
        await phone.sync()
        laptop.gateway.hooks.withLock {
            $0.zoneChanges = { page in
                var page = page
                for index in page.changedRecords.indices where page.changedRecords[index].id.recordName == "data-1" {
                    page.changedRecords[index].fields["link"] = .string("http://[::1")
                }
                return page
            }
        }
        let events = laptop.recordEvents()
        await laptop.sync()
        #expect(try laptop.store.fetch(DataModel.self, recordName: "data-1") == nil)
        #expect(try laptop.store.fetch(DataModel.self, recordName: "data-2")?.link == good.link)
        let setAside = try #require(try await laptop.engine.unreadableRecords().first)
        #expect(setAside.id.recordName == "data-1" && setAside.isSetAside)
        // Set aside at once, with no fetch: said so, never as fetches that failed (issue 57:
        // "3 fetchs failed, set aside"). Breaking it: the count stands for the reason.
        #expect(setAside.isUnreadableByThisVersion && setAside.failedFetches == 0)
        #expect("\(setAside)".contains("this app version cannot read it, set aside") && !"\(setAside)".contains("fetch"), "\(setAside)")
        #expect(setAside.error.message.contains("field 'link' holds string, expected url"), "\(setAside.error)")
        #expect(await events.events().contains { if case .recordUnreadable(let record) = $0 { record.id.recordName == "data-1" } else { false } })
        laptop.gateway.hooks.withLock { $0 = RecordingGateway.Hooks() }
        good.link = URL(string: "https://example.com/mended")!
        try phone.store.save(good)
        await phone.sync()
        await laptop.sync()
        #expect(try laptop.store.fetch(DataModel.self, recordName: "data-1")?.link == good.link)
        #expect(try await laptop.engine.unreadableRecords().isEmpty)
    }

    /// An enum travels as its case's name; a name this version does not list (a newer version's
    /// case) decodes to `unknown` holding it, and encodes back to the same name.
    @Test func anEnumTravelsAsItsNameAndKeepsANameItDoesNotKnow() throws {
        var record = GeneratedBridgeTests.filledData().makeRecord()
        #expect(record.fields["type"] == .string("default"))
        #expect(record.fields["states"] == .list([.string("low"), .string("medium")]))
        record.fields["type"] = .string("archived")
        let decoded = try DataModel(record: record)
        #expect(decoded.type == .unknown("archived"))
        #expect(decoded.states == [.low, .unknown("medium")])
        #expect(decoded.makeRecord().fields["type"] == .string("archived"))
        #expect(DataModel.TypeValue(rawValue: "doing") == .doing && DataModel.TypeValue.allCases == [.todo, .doing, .default])
    }

    /// A newer version of the app saves a case this one does not list; this version reads it as
    /// `unknown`, edits another field of the record, and the case goes back to the cloud as it
    /// came: nothing reset, nothing lost.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aCaseANewerVersionAddedComesBackUnchanged(throughCloudKit: Bool) async throws {
        let world = try Self.world(throughCloudKit: throughCloudKit)
        let (phone, laptop) = try Self.devices(in: world)
        var newer = Self.saved()
        newer.type = .unknown("archived")
        try phone.store.save(newer)
        await phone.sync()
        await laptop.sync()
        var read = try #require(try laptop.store.fetch(DataModel.self, recordName: newer.recordName))
        #expect(read.type == .unknown("archived"))
        read.text = "edited by the older version"
        try laptop.store.save(read)
        await laptop.sync()
        await phone.sync()
        let back = try #require(try phone.store.fetch(DataModel.self, recordName: newer.recordName))
        #expect(back.type == .unknown("archived") && back.text == "edited by the older version")
        let cloud = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records[newer.recordName]
        #expect(cloud?.fields["type"] == .string("archived"))
    }

    /// The phone's edit meets a version in the cloud its model cannot read (another client wrote
    /// a string that is no URL): the conflict cannot be merged, so the change is set aside where
    /// the app sees it (`changeSetAside`, the field named), the pass ends, and the next pass does
    /// not send it again. Breaking it (merging onto the version as any conflict): the merge throws
    /// inside the push's transaction, and every pass fails at that push.
    @Test func aConflictWithAVersionTheModelCannotReadSetsTheChangeAside() async throws {
        let world = try Self.world()
        let (phone, _) = try Self.devices(in: world)
        var data = Self.saved()
        try phone.store.save(data)
        await phone.sync()
        data.text = "edited"
        try phone.store.save(data)
        let conflicted = Locked(false)
        let name = data.recordName
        phone.gateway.hooks.withLock {
            $0.modifyResult = { request, result in
                guard let sent = request.recordsToSave.first(where: { $0.id.recordName == name }), !conflicted.withLock({ $0 }) else { return result }
                conflicted.withLock { $0 = true }
                var server = sent
                server.fields["link"] = .string("http://[::1")
                var changed = result
                changed.savedRecords[sent.id] = .failure(CloudError(.serverRecordChanged, "changed elsewhere", serverRecord: server, clientRecord: sent))
                return changed
            }
        }
        let events = phone.recordEvents()
        #expect(await phone.engine.sync() == .completed)
        let setAside = try #require(try await phone.engine.failedChanges().first)
        #expect(setAside.recordName == data.recordName && setAside.error.message.contains("field 'link' holds string, expected url"), "\(setAside.error)")
        #expect(await events.events().contains { if case .changeSetAside = $0 { true } else { false } })
        #expect(try phone.store.fetch(DataModel.self, recordName: data.recordName)?.text == "edited")
        #expect(await phone.engine.sync() == .completed)
    }

    /// A query finds a url, a uuid and an enum by value, and an enum among a list's: each is
    /// compared as the name it is stored as (a uuid in lowercase whatever case built it).
    @Test func queriesFindURLsUUIDsAndEnumsByValue() throws {
        let store = try SyncStore(url: nil)
        var first = Self.saved()
        var second = Self.saved()
        second.recordName = "data-2"
        second.link = URL(string: "https://example.com/other")!
        second.identifier = UUID()
        second.type = .todo
        second.states = [.high]
        first.states = [.low]
        try store.save([first, second])
        let names = { (predicate: QueryPredicate<DataModel>) in try store.fetch(Query<DataModel>().filter(predicate)).map(\.recordName).sorted() }
        #expect(try names(\.link == URL(string: "https://example.com/other")!) == ["data-2"])
        #expect(try names(\.identifier == UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!) == ["data-1"])
        #expect(try names(\.type == .todo) == ["data-2"])
        #expect(try names(.contains(\.states, .high)) == ["data-2"])
        #expect(try names(\.maybeState == .off) == ["data-1", "data-2"])
    }
}
