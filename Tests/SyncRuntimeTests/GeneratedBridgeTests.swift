import Foundation
@_spi(SyncgenGenerated) import SyncCore
import GeneratedCoverage
import Testing
import SyncRuntime
import SyncLocalCloud

// The coverage models are named after standard types; these names keep the tests readable.
typealias DataModel = GeneratedCoverage.Data
typealias TaskModel = GeneratedCoverage.Task
typealias DateModel = GeneratedCoverage.Date


/// The generated bridge, exercised: the golden files are compiled into GeneratedCoverage and this target.
@Suite("Generated bridge: encode, decode, project")
struct GeneratedBridgeTests {
    /// A `Data` model (the coverage model of every type) with a value in every field.
    static func filledData() -> DataModel {
        DataModel(
            recordName: "data-1", text: "hello", count: 42, ratio: 1.5, flag: false,
            stamp: Date(timeIntervalSince1970: 1_000), created: Date(timeIntervalSince1970: 2_000),
            blob: Foundation.Data([1, 2, 3]), place: SyncLocation(latitude: 48.1, longitude: 11.6),
            maybeText: "maybe", maybeCount: 7, maybeRatio: 0.5, maybeFlag: true,
            maybeStamp: Date(timeIntervalSince1970: 3_000), maybeBlob: Foundation.Data([9]),
            maybePlace: SyncLocation(latitude: 1, longitude: 2), words: ["x", "y"], numbers: [1, 2],
            ratios: [0.1], flags: [true, false], stamps: [Date(timeIntervalSince1970: 4_000)],
            blobs: [Foundation.Data([4])], places: [SyncLocation(latitude: 3, longitude: 4)],
            maybeWords: ["z"], link: URL(string: "https://example.com/a%20b?q=1#top")!,
            identifier: UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!, maybeLink: URL(fileURLWithPath: "/tmp/x y"),
            maybeIdentifier: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
            links: [URL(string: "mailto:someone@example.com")!, URL(string: "https://例え.jp/パス")!],
            identifiers: [UUID(uuidString: "f81d4fae-7dec-11d0-a765-00a0c91e6bf6")!], type: .`default`, task: .closed,
            maybeState: .off, states: [.low, .unknown("medium")], default: "keyword", class: 5, in: true, secret: "s3cret",
            secretBytes: Foundation.Data([7]), cursor: 99, views: 12)
    }

    @Test func everyTypeRoundTripsThroughARecord() throws {
        var original = Self.filledData()
        let record = original.makeRecord()
        let decoded = try DataModel(record: record)
        // Local-only and server-owned values do not travel up: the decoded copy has their defaults.
        #expect(decoded.cursor == 3 && decoded.views == 0)
        original.cursor = 3
        original.views = 0
        #expect(decoded == original)
    }

    /// A row may name a computed property (a hand-written model's): it has no offset in the model,
    /// and every direction goes through its key path. Breaking it: reaching every property at an
    /// offset (`ModelField.Property`) would read and write memory that is not the property.
    @Test func aComputedPropertyFieldTravelsThroughItsKeyPath() throws {
        #expect(MemoryLayout<ComputedTitleNote>.offset(of: \ComputedTitleNote.title) == nil)
        let note = ComputedTitleNote(words: ["buy", "milk"])
        let record = note.makeRecord()
        #expect(record.fields["title"] == .string("buy milk"))
        #expect(try ComputedTitleNote(record: record).words == ["buy", "milk"])
        var restored = ComputedTitleNote(emptyRecordNamed: "computed", ownerName: note.ownerName)
        try restored.applyStoredFields(from: SyncRecord(recordType: "Note", id: record.id, fields: note.encodeStoredFields()))
        #expect(restored == note)
    }

    @Test func storedFieldsRoundTripEveryField() throws {
        let original = Self.filledData()
        var restored = DataModel(emptyRecordNamed: original.recordName, ownerName: original.ownerName)
        let stored = SyncRecord(recordType: DataModel.recordType, id: original.makeRecord().id, fields: original.encodeStoredFields())
        try restored.applyStoredFields(from: stored)
        #expect(restored == original)  // local-only and server-owned values included
        var published = GeneratedPublishingTests.article().makeProjection()
        published.publicationLifecycle.reviewNote = "kept"
        published.bookmarked = true
        var copy = PublicArticle(emptyRecordNamed: published.recordName, ownerName: published.ownerName)
        try copy.applyStoredFields(from: SyncRecord(recordType: PublicArticle.recordType, id: published.makeRecord().id, fields: published.encodeStoredFields()))
        #expect(copy == published)
        let item = ListItem(recordName: "i", parent: RecordReference(recordName: "list"), assignee: RecordReference(recordName: "m"))
        var itemCopy = ListItem(emptyRecordNamed: "i", ownerName: item.ownerName)
        try itemCopy.applyStoredFields(from: SyncRecord(recordType: ListItem.recordType, id: item.makeRecord().id, fields: item.encodeStoredFields()))
        #expect(itemCopy == item)
    }

    @Test func boolsTravelAsInt64AndReferencesAsNames() {
        let task = TaskModel(recordName: "t", title: "T", data: RecordReference(recordName: "d"), related: [RecordReference(recordName: "t2")])
        let fields = task.encodeRemoteFields().values
        #expect(Self.filledData().encodeRemoteFields().values["flag"] == .int64(0))
        #expect(fields["data"] == .reference(SyncReference(recordName: "d", action: .deleteSelf)))  // trap: T3.7
        #expect(fields["related"] == .list([.reference(SyncReference(recordName: "t2", action: .none))]))
        #expect(fields["maybeData"] == nil)
    }

    @Test func encryptedFieldsGoToTheEncryptedSetAndLocalOnlyAndServerOwnedNowhere() {
        let encoded = Self.filledData().encodeRemoteFields()
        #expect(encoded.encryptedValues.names.sorted() == ["secret", "secretBytes"])
        #expect(encoded.values["secret"] == nil)
        #expect(encoded.values["cursor"] == nil && encoded.encryptedValues["cursor"] == nil)
        #expect(encoded.values["views"] == nil)
    }

    @Test func pullNeverOverwritesLocalOnlyAndAlwaysTakesServerOwned() throws {
        var local = Self.filledData()
        var record = local.makeRecord()
        record.fields["cursor"] = .int64(1)  // a stray value from another client must not win
        record.fields["views"] = .int64(500)
        try local.applyRemoteFields(from: record)
        #expect(local.cursor == 99)
        #expect(local.views == 500)
    }

    @Test func missingRemoteValuesClearOptionalsAndKeepRequiredFields() throws {
        var local = Self.filledData()
        let empty = SyncRecord(recordType: DataModel.recordType, id: RecordID(recordName: "data-1", zoneID: local.zoneID()))
        try local.applyRemoteFields(from: empty)
        #expect(local.maybeText == nil && local.maybeCount == nil && local.maybeWords == nil && local.in == nil)
        #expect(local.text == "hello" && local.count == 42 && local.words == ["x", "y"])
    }

    @Test func aWrongTypedRemoteFieldIsAnErrorNamingRecordAndField() {
        var record = Self.filledData().makeRecord()
        record.fields["count"] = .string("forty-two")
        #expect(throws: FieldDecodingError(recordType: "Data", recordName: "data-1", field: "count", expected: "int64", found: "string")) {
            _ = try DataModel(record: record)
        }
        let error = FieldDecodingError(recordType: "Data", recordName: "data-1", field: "count", expected: "int64", found: "string")
        #expect(error.description == "Data record 'data-1': field 'count' holds string, expected int64")
    }

    @Test func aWrongTypedListElementIsAnError() {
        var record = Self.filledData().makeRecord()
        record.fields["numbers"] = .list([.int64(1), .string("two")])
        #expect(throws: FieldDecodingError.self) { _ = try DataModel(record: record) }
        var task = TaskModel(recordName: "t", title: "T", data: RecordReference(recordName: "d")).makeRecord()
        task.fields["related"] = .list([.string("not a reference")])
        #expect(throws: FieldDecodingError.self) { _ = try TaskModel(record: task) }
    }

    @Test func tombstoneKeyPathsReadTheModelsOwnValues() {  // trap: T6.1, T6.2
        let note = Note(recordName: "n-1", ownerName: "alice")
        let kept = Note.tombstoneKeyPaths.map { ($0.name, note[keyPath: $0.keyPath]) }
        #expect(kept.map(\.0) == ["recordName", "ownerName"])
        #expect(kept.map(\.1) == ["n-1", "alice"])
    }

    @Test func parentTravelsAsTheRecordsParent() throws {  // trap: T3.6
        let item = ListItem(recordName: "i", ownerName: "bob", parent: RecordReference(recordName: "list"), assignee: .unset)
        let record = item.makeRecord()
        #expect(record.parentRecordName == "list")
        #expect(record.parentID == RecordID(recordName: "list", zoneID: record.id.zoneID))
        #expect(record.fields["parent"] == nil)
        #expect(try ListItem(record: record).parent == RecordReference(recordName: "list"))
        #expect(ListItem.parentRecordType == "SharedList")
    }

    @Test func anUnsetRequiredReferenceIsNotUploaded() {
        let item = ListItem(assignee: .unset)
        #expect(item.encodeRemoteFields().values["assignee"] == nil)
    }

    @Test func recordTypeAndScopesComeFromTheSchema() {
        #expect(TaskModel.recordType == "TaskRecord")
        #expect(DateModel.syncScopes == [.private, .shared])
        #expect(PublicArticle.syncScopes == [.public])
        #expect(Note.syncScopes == [.private])
    }

    /// Each asset field travels as its markers under its own keys: the first field under the
    /// deployed ones, the second under its name before them. Breaking it: give every asset row
    /// the first keys, and the banner's markers overwrite the cover's.
    @Test func assetMarkersTravelAndTheFileDoesNot() throws {
        var article = Article(
            recordName: "a", headline: "H", author: RecordReference(recordName: "au"), cover: AssetReference(suffix: "jpg", byteSize: 1234),
            banner: AssetReference(suffix: "png", byteSize: 56, digest: "ab"), privateNotes: "")
        let upload = article.encodeRemoteFields()
        let fields = upload.values
        #expect(fields["assetSuffix"] == .string("jpg") && fields["assetSize"] == .int64(1234) && upload.emptyKeys.contains("assetDigest"))
        #expect(fields["bannerAssetSuffix"] == .string("png") && fields["bannerAssetSize"] == .int64(56) && fields["bannerAssetDigest"] == .string("ab"))
        #expect(fields["cover"] == nil && fields["banner"] == nil && fields["assetData"] == nil && fields["bannerAssetData"] == nil)
        let decoded = try Article(record: article.makeRecord())
        #expect(decoded.cover == AssetReference(suffix: "jpg", byteSize: 1234) && decoded.banner == article.banner)
        #expect(Article.assetFields.map(\.name) == ["cover", "banner"] && Article.assetFields.map(\.recordKeys) == [.first, AssetRecordKeys(field: "banner")])
        let detached = article.setAssetReference(nil, "cover")
        #expect(detached && article.cover == nil && article.banner != nil)
        #expect(article.encodeRemoteFields().emptyKeys.isSuperset(of: AssetRecordKeys.first.all))
    }
}

@Suite("Generated publishing and catalog conformances")
struct GeneratedPublishingTests {
    static func article() -> Article {
        Article(
            recordName: "art", headline: "Headline", subtitle: "Sub", author: RecordReference(recordName: "au"),
            coauthors: [RecordReference(recordName: "co")], cover: AssetReference(suffix: "png", byteSize: 10),
            privateNotes: "do not publish")
    }

    @Test func projectionCopiesExactlyTheDeclaredFields() {
        let projection = Self.article().makeProjection()
        #expect(projection.recordName == "art")
        #expect(projection.ownerName == SyncConstants.currentUserOwnerName)
        #expect(projection.headline == "Headline" && projection.subtitle == "Sub")
        #expect(projection.author == RecordReference<PublicAuthor>(recordName: "au"))
        #expect(projection.coauthors == [RecordReference<PublicAuthor>(recordName: "co")])
        #expect(projection.cover == AssetReference(suffix: "png", byteSize: 10))
        let published = projection.encodeRemoteFields().values
        #expect(published["privateNotes"] == nil)
        #expect(!published.values.contains(.string("do not publish")))
    }

    @Test func aNilOptionalKeepsThePublishedValue() {  // trap: T10.4
        var projection = Self.article().makeProjection()
        var draft = Self.article()
        draft.subtitle = nil
        draft.cover = nil
        draft.headline = "New"
        draft.project(onto: &projection)
        #expect(projection.subtitle == "Sub" && projection.cover == AssetReference(suffix: "png", byteSize: 10))
        #expect(projection.headline == "New")
    }

    @Test func projectionKeepsItsOwnServerOwnedAndLocalOnlyFields() {
        var projection = Self.article().makeProjection()
        projection.likes = 7
        projection.bookmarked = true
        Self.article().project(onto: &projection)
        #expect(projection.likes == 7 && projection.bookmarked)
    }

    /// Reads the catalog requirements the way the runtime does: from generic code.
    private func catalogSettings<Model: PublicCatalogModel>(_ type: Model.Type) -> ([String], PublicationState) {
        (Model.catalogDesiredKeys, Model.initialPublicationState)
    }

    @Test func catalogSettingsAreRequirementsSeenFromGenericCode() {  // trap: T11.1, T12.4, T12.5
        let (keys, state) = catalogSettings(PublicAuthor.self)
        #expect(keys == ["name"] + RecordFieldNames.publicationLifecycleFields)
        #expect(state == .delisted)
        let (articleKeys, articleState) = catalogSettings(PublicArticle.self)
        #expect(articleKeys.contains("assetSuffix") && articleKeys.contains("assetSize") && !articleKeys.contains("assetData"))
        #expect(articleKeys.contains("bannerAssetSuffix") && articleKeys.contains("bannerAssetDigest") && !articleKeys.contains("bannerAssetData"))
        #expect(articleKeys.contains("likes") && !articleKeys.contains("bookmarked") && !articleKeys.contains("cover"))
        #expect(articleState == .listed)
        #expect(PublicAuthor().publicationLifecycle.state == .delisted)
    }

    /// A field the schema gave up (`deprecated:`) is carried: the value an older app version
    /// wrote decodes, saves, reads back from the store and encodes again, and the initializer
    /// no longer takes it. (Reading the property warns; this test never does.) Breaking it (the
    /// field left out of the field table, as if removed): the value is gone from what this
    /// version writes back.
    @Test func aGivenUpFieldIsCarriedThroughEverySave() throws {
        var older = Author(recordName: "author-1", name: "Ada", email: "ada@example.com").makeRecord()
        older.fields["nickname"] = .string("Countess")
        older.fields["mentor"] = .reference(SyncReference(recordName: "author-0", action: .none))
        let decoded = try Author(record: older)
        #expect(decoded.makeRecord().fields["nickname"] == .string("Countess"))
        let store = try SyncStore(url: nil)
        try store.save(decoded)
        let stored = try #require(try store.fetch(Author.self, recordName: "author-1"))
        #expect(stored.makeRecord().fields["nickname"] == .string("Countess"))
        #expect(stored.makeRecord().fields["mentor"] == .reference(SyncReference(recordName: "author-0", action: .none)))
        #expect(Author(name: "Grace").makeRecord().fields["nickname"] == .string(""), "a new model starts at the empty value")
    }

    @Test func reviewFieldsAreNeverUploadedButAlwaysRead() throws {  // trap: T11.4
        var projection = Self.article().makeProjection()
        projection.publicationLifecycle = PublicationLifecycle(state: .listed, version: 3, publishedAt: Date(timeIntervalSince1970: 5), reviewState: "approved", reviewNote: "ok", reviewedVersion: 2)
        var record = projection.makeRecord()
        for field in RecordFieldNames.publicationServerFields {
            #expect(record.fields[field] == nil, "\(field) was uploaded")
        }
        #expect(record.fields["publicationVersion"] == .int64(3))
        record.fields["reviewState"] = .string("rejected")
        record.fields["reviewNote"] = .string("spam")
        try projection.applyRemoteFields(from: record)
        #expect(projection.publicationLifecycle.reviewState == "rejected" && projection.publicationLifecycle.reviewNote == "spam")
        #expect(projection.publicationLifecycle.reviewedVersion == nil)
        #expect(projection.publicationLifecycle.version == 3)
    }

    @Test func shareRootsExposeATitle() {
        #expect(SharedList(title: "Groceries").shareTitle == "Groceries")
        #expect(DateModel(name: "Party").shareTitle == "Party")
    }

    /// Fields named after what generated code names itself (its locals, members, parameters,
    /// the model and its parent) each reach their own value, in every direction of the bridge.
    @Test func fieldsNamedLikeGeneratedCodeKeepTheirValues() throws {
        var collider = Collider(recordName: "c", fields: "f", record: "r", value: "v", projection: "p", syncFields: "s", init: "i", hash: 7, `inout`: RecordReference(recordName: "other"), Collider: "self-named")
        let attached = collider.setAssetReference(AssetReference(suffix: "png", byteSize: 3), "newValue")
        #expect(attached)
        #expect(collider.newValue == AssetReference(suffix: "png", byteSize: 3))
        let decoded = try Collider(record: collider.makeRecord())
        #expect(decoded.fields == "f" && decoded.record == "r" && decoded.value == "v" && decoded.projection == "p" && decoded.syncFields == "s")
        #expect(decoded.`init` == "i" && decoded.hash == 7 && decoded.inout.recordName == "other" && decoded.Collider == "self-named")
        #expect(decoded.newValue?.suffix == "png")
        #expect(collider.makeProjection().projection == "p")
        #expect(Collider.childTypes.map { $0.recordType } == ["ColliderPart"])
        let part = ColliderPart(parent: RecordReference(recordName: "c"), ColliderPart: "own", Collider: RecordReference(recordName: "c"))
        let partBack = try ColliderPart(record: part.makeRecord())
        #expect(partBack.ColliderPart == "own" && partBack.Collider?.recordName == "c" && partBack.parentRecordName == "c")
    }

    @Test func theSchemaListsEveryModel() {  // trap: T1.1
        #expect(GeneratedCoverage.SyncSchema.models.map { $0.recordType } == ["Data", "TaskRecord", "Date", "Author", "PublicAuthor", "Article", "PublicArticle", "Empty", "Collider", "ColliderPart", "PublicCollider", "Household", "Chore", "Recipe", "PublicRecipe"])
        #expect(SyncSchema.models.map { $0.recordType } == ["SharedList", "Member", "ListItem", "Note", "PublishedNote", "JournalEntry"])
    }
}
