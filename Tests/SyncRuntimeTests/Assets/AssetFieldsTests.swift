import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@testable import SyncStorage
import SyncRuntime

private extension SyncStore {
    func entries(_ type: String, _ name: String) throws -> [AssetCacheEntry] {
        try sqliteTransaction { try $0.assetEntries(recordType: type, recordName: name) }
    }

    func entriesFromBeforeFields() throws -> [AssetCacheEntry] {
        try sqliteTransaction { try $0.assetEntriesFromBeforeFields() }
    }
}

/// A model with several asset fields (the Notes example's `Note`: `cover` and `thumbnail`): each
/// field's file is attached, uploaded, downloaded, evicted and fingerprinted on its own, under
/// the record keys of its place among the model's asset fields.
@Suite("Asset cache: several asset fields per record")
struct AssetFieldsTests {
    /// Breaking it: key the cache by record alone, or upload every field under `assetData`, and
    /// the second attach replaces the first's file, or the laptop downloads the cover as the
    /// thumbnail.
    @Test func eachFieldsFileTravelsOnItsOwn() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        let laptop = try world.device("laptop", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Holiday"))
        try await phone.engine.attachAsset(picture(900), suffix: "jpg", to: \Note.cover, recordName: "n")
        try await phone.engine.attachAsset(picture(60, seed: 2), suffix: "png", to: \Note.thumbnail, recordName: "n")
        let stored = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        #expect(stored.cover?.byteSize == 900 && stored.thumbnail?.byteSize == 60 && stored.thumbnail?.suffix == "png")
        await phone.sync()
        #expect(try await phone.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .cached)
        #expect(try await phone.engine.assetEntry(for: \Note.thumbnail, recordName: "n")?.state == .cached)

        // In the cloud, the first field on the deployed keys, the second under its own name.
        let uploads = phone.gateway.modifies.flatMap(\.request.recordsToSave).filter { $0.id.recordName == "n" }
        #expect(uploads.contains { $0.assetContents(.first) != nil } && uploads.contains { $0.assetContents(AssetRecordKeys(field: "thumbnail")) != nil })
        #expect(try world.counter("assetBytes.uploaded") == 960)

        // The laptop learns of both files and downloads neither until asked; then only the one asked for.
        await laptop.sync()
        #expect(try await laptop.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .remote)
        #expect(try await laptop.engine.assetEntry(for: \Note.thumbnail, recordName: "n")?.reference == AssetReference(suffix: "png", byteSize: 60, digest: SHA256.hex(of: picture(60, seed: 2))))
        #expect(try world.counter("assetBytes.downloaded") == 0)
        try await laptop.engine.requestAssetDownload(for: \Note.thumbnail, recordName: "n")
        await laptop.sync()
        let thumbnail = try #require(try await laptop.engine.assetFileURL(for: \Note.thumbnail, recordName: "n"))
        #expect(try Data(contentsOf: thumbnail) == picture(60, seed: 2))
        #expect(try await laptop.engine.assetFileURL(for: \Note.cover, recordName: "n") == nil)
        #expect(try world.counter("assetBytes.downloaded") == 60)

        // A new cover leaves the laptop's thumbnail as it is, and marks only its cover stale.
        try await laptop.engine.requestAssetDownload(for: \Note.cover, recordName: "n")
        await laptop.sync()
        try await phone.engine.attachAsset(picture(700, seed: 3), suffix: "jpg", to: \Note.cover, recordName: "n")
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .remote)
        #expect(try await laptop.engine.assetEntry(for: \Note.thumbnail, recordName: "n")?.state == .cached)
        #expect(try Data(contentsOf: thumbnail) == picture(60, seed: 2))
        try await laptop.engine.requestAssetDownload(for: \Note.cover, recordName: "n")
        await laptop.sync()
        #expect(try Data(contentsOf: #require(try await laptop.engine.assetFileURL(for: \Note.cover, recordName: "n"))) == picture(700, seed: 3))
    }

    /// Breaking it: let detaching one field clear every asset key of the record, and the
    /// laptop's thumbnail is forgotten with the cover.
    @Test func detachingOneFieldLeavesTheOther() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        let laptop = try world.device("laptop", account: "alice")
        try phone.store.save(Note(recordName: "n"))
        try await phone.engine.attachAsset(picture(100), suffix: "jpg", to: \Note.cover, recordName: "n")
        try await phone.engine.attachAsset(picture(20, seed: 5), suffix: "jpg", to: \Note.thumbnail, recordName: "n")
        await phone.sync()
        await laptop.sync()
        var note = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        note.cover = nil
        try phone.store.save(note)
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.engine.assetEntry(for: \Note.cover, recordName: "n") == nil)
        #expect(try await laptop.engine.assetEntry(for: \Note.thumbnail, recordName: "n")?.byteSize == 20)
        #expect(try laptop.store.fetch(Note.self, recordName: "n")?.thumbnail?.byteSize == 20)
    }

    /// The public projection declares `cover` only: publishing copies that file, never the
    /// thumbnail. Breaking it: copy every asset field of the draft, and the projection gets an
    /// entry for a field it does not have.
    @Test func publishingCopiesTheFieldsTheProjectionDeclares() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Trip"))
        try await phone.engine.attachAsset(picture(300), suffix: "jpg", to: \Note.cover, recordName: "n")
        try await phone.engine.attachAsset(picture(30, seed: 4), suffix: "jpg", to: \Note.thumbnail, recordName: "n")
        try await phone.engine.publish(try #require(try phone.store.fetch(Note.self, recordName: "n")))
        await phone.sync()
        #expect(try await phone.engine.assetEntry(for: \PublishedNote.cover, recordName: "n")?.state == .cached)
        #expect(try phone.store.entries(PublishedNote.recordType, "n").map(\.key.field) == ["cover"])
        #expect(!PublishedNote.catalogDesiredKeys.contains { $0.hasPrefix("thumbnail") || $0.hasSuffix("Data") })
    }

    /// A key path that is no asset field of the model is refused, named.
    @Test func aPropertyThatIsNoAssetFieldIsRefused() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "n"))
        await #expect(throws: AssetError.notAnAssetField(AssetKey(recordType: "Note", recordName: "n", field: "\(\Note.noFile)"))) {
            try await phone.engine.attachAsset(picture(10), suffix: "jpg", to: \Note.noFile, recordName: "n")
        }
    }

    // MARK: - A store written while a model held one asset

    /// A store an earlier release wrote (the fixture, before asset fields) with an asset entry
    /// keyed by record alone, its file where that release put it. At the engine's start the entry
    /// becomes the first asset field's and its file moves to that field's place; a crash between
    /// the file's move and the entry's (`movedBeforeTheCrash`) resumes the same. A parked entry
    /// comes back named when its account signs in again. Breaking it: skip the naming at start,
    /// and the cover reads as no file; rename the entry before moving the file, and a crash
    /// between them loses the file.
    @Test(arguments: [false, true])
    func anEarlierSingleAssetStoreMovesToItsFirstField(movedBeforeTheCrash: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earlier-assets-\(UUID().uuidString)")
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache.appendingPathComponent("Note"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        let url = folder.appendingPathComponent("store.sqlite")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("store.sqlite"), to: url)
        do {
            // What the earlier release kept: an entry per record, and a parked one.
            let database = try SQLiteDatabase(.file(url))
            #expect(try !DatabaseMigrator.appliedSteps(database).contains("assetCache.field"), "the fixture predates asset fields")
            try database.execute("""
                INSERT INTO asset_cache (type, name, state, suffix, size, pinned, last_access, digest)
                    VALUES ('Note', 'n', 'cached', 'jpg', 5, 1, 0, '\(SHA256.hex(of: Data("cover".utf8)))');
                INSERT INTO parked_assets (account, type, name, state, suffix, size, pinned, last_access, digest)
                    VALUES ('_bob', 'Note', 'p', 'remote', 'png', 3, 0, 0, '');
                """)
        }
        try Data("cover".utf8).write(to: cache.appendingPathComponent("Note/n.jpg"))
        let store = try SyncStore(url: url)
        #expect(try store.entriesFromBeforeFields().map(\.key) == [AssetKey(recordType: "Note", recordName: "n", field: "")])
        try store.save(Note(recordName: "n"))
        if movedBeforeTheCrash {
            try AssetFileStore(root: cache).moveFile(
                of: AssetKey(recordType: "Note", recordName: "n", field: ""), to: AssetKey(\Note.cover, recordName: "n"), suffix: "jpg")
        }

        let world = try SyncWorld()
        // The fixture's account ("_alice"): the store is not parked away at the start.
        let phone = try world.device("phone", account: "alice", configuration: SyncConfiguration(assetCacheRoot: cache), store: store)
        try await phone.engine.transferAssets()
        #expect(try store.entriesFromBeforeFields().isEmpty)
        let entry = try await phone.engine.assetEntry(for: \Note.cover, recordName: "n")
        #expect(entry?.state == .cached && entry?.isPinned == true && entry?.byteSize == 5)
        let file = try #require(try await phone.engine.assetFileURL(for: \Note.cover, recordName: "n"))
        #expect(try Data(contentsOf: file) == Data("cover".utf8))
        #expect(file.deletingLastPathComponent().lastPathComponent == "Note.cover")
        #expect(try await phone.engine.assetEntry(for: \Note.thumbnail, recordName: "n") == nil)

        // Bob's parked entry comes back as his cover when he signs in.
        try world.cloud.signIn("phone", account: "bob")
        _ = await phone.engine.sync()
        let bobs = try await phone.engine.assetEntry(for: \Note.cover, recordName: "p")
        #expect(bobs?.state == .remote && bobs?.byteSize == 3)
        #expect(try store.entriesFromBeforeFields().isEmpty)
    }
}

extension Note {
    /// A property that holds a file's markers but is no asset field.
    var noFile: AssetReference? { nil }
}
