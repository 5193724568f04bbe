import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud
import SyncStorage

/// Moving an app's data in (`SyncEngine.importModels`): notes the app reads from its old store,
/// some with a cover image, imported in batches, resumable, pushed as the app's first upload.
@Suite("Engine: importing an app's old data")
struct EngineImportTests {
    /// The old store's notes: ids 1...count, every third with a cover file in `folder`.
    static func oldNotes(_ count: Int, covers folder: URL) throws -> [ImportedModel<Note>] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (1...count).map { id in
            let note = Note(recordName: "old-\(id)", title: "Note \(id)", body: "Written before syncgen")
            guard id % 3 == 0 else { return ImportedModel(note) }
            let url = folder.appendingPathComponent("cover-\(id).png")
            try picture(100 + id).write(to: url)
            return ImportedModel(note, files: [ImportedFile(\Note.cover, url: url)])
        }
    }

    static func importAuthored(_ store: SyncStore) throws -> [HistoryEntry] {
        try store.transaction { try $0.unpushedChanges(limit: nil).changes }.filter { $0.author == SyncStore.importAuthor.storedValue }
    }

    /// 250 notes in batches of 100: progress after each batch, every note and cover stored, and
    /// the next pass uploads them all, the covers after their records.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anImportSavesInBatchesAndIsPushed(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("phone", account: "alice")
        let notes = try Self.oldNotes(250, covers: world.assetFolder.appendingPathComponent("old-covers"))
        var seen: [ImportProgress] = []
        let done = try phone.engine.importModels(notes, as: "notes-v1", batchSize: 100) { seen.append($0) }
        #expect(seen.map(\.read) == [100, 200, 250])
        #expect(done == ImportProgress(read: 250, imported: 250, skipped: 0))
        #expect(try phone.store.count(Query<Note>()) == 250)
        #expect(try phone.store.fetch(Note.self, recordName: "old-3")?.cover?.byteSize == 103)
        await phone.sync()
        let zone = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        #expect(zone?.records.count == 250)
        #expect(try world.counter("assetBytes.uploaded") == (1...250).filter { $0 % 3 == 0 }.reduce(0) { $0 + 100 + $1 })
        // Called again (the next launch): nothing more is read or saved.
        #expect(try phone.engine.importModels(notes, as: "notes-v1", batchSize: 100) == done)
        #expect(try phone.store.transaction { try $0.hasUnpushedChanges() } == false)
    }

    /// The import is killed after each commit it makes (a batch's save, a file's attachment, a
    /// batch's settling), then run again over a store opened anew: each run ends with every note
    /// once, every cover attached, each note saved by the import once, and the counts exact.
    /// Breaking it (a batch settled in the transaction that saves it, before its files): a kill
    /// before the files leaves notes without their covers.
    @Test func aKillAtEveryCommitFinishesWithEachRecordOnce() async throws {
        let world = try SyncWorld()
        let notes = try Self.oldNotes(7, covers: world.assetFolder.appendingPathComponent("old-covers"))
        func run(crashingAfter crashPoint: Int?) throws -> Int {
            let url = world.assetFolder.appendingPathComponent("import-\(crashPoint.map(String.init) ?? "whole").sqlite")
            let store = try SyncStore(url: url, clock: world.clock)
            let device = try world.device("phone-\(crashPoint.map(String.init) ?? "whole")", account: "alice", store: store)
            let before = store.writeCommits
            if let crashPoint { store.crash(afterCommits: crashPoint) }
            _ = try? device.engine.importModels(notes, as: "notes-v1", batchSize: 3)
            let commits = store.writeCommits - before
            let reopened = try world.device(device.name, account: "alice", store: SyncStore(url: url, clock: world.clock))
            let done = try reopened.engine.importModels(notes, as: "notes-v1", batchSize: 3)
            let context = "kill after \(crashPoint.map(String.init) ?? "no") commits"
            #expect(done == ImportProgress(read: 7, imported: 7, skipped: 0), "\(context)")
            #expect(try reopened.store.count(Query<Note>()) == 7, "\(context)")
            let saves = try Self.importAuthored(reopened.store).filter { $0.kind == .save }
            #expect(Dictionary(grouping: saves, by: \.recordName).values.allSatisfy { $0.count == 1 } && saves.count == 7, "\(context): \(saves.map(\.recordName))")
            for id in [3, 6] {
                #expect(try reopened.store.fetch(Note.self, recordName: "old-\(id)")?.cover?.byteSize == Int64(100 + id), "\(context): old-\(id)")
            }
            return commits
        }
        let commits = try run(crashingAfter: nil)
        #expect(commits >= 5, "the import made only \(commits) commits")
        for crashPoint in 0..<commits { _ = try run(crashingAfter: crashPoint) }
    }

    /// The laptop syncs the notes the phone imported, then imports the same old data: every
    /// note is there already, so it saves nothing, attaches nothing and pushes nothing.
    @Test func notesAnotherDeviceImportedAreSkipped() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        let laptop = try world.device("laptop", account: "alice")
        let notes = try Self.oldNotes(12, covers: world.assetFolder.appendingPathComponent("old-covers"))
        _ = try phone.engine.importModels(notes, as: "notes-v1")
        await phone.sync()
        await laptop.sync()
        let done = try laptop.engine.importModels(notes, as: "notes-v1")
        #expect(done == ImportProgress(read: 12, imported: 0, skipped: 12))
        #expect(try laptop.store.transaction { try $0.hasUnpushedChanges() } == false)
        await laptop.sync()
        #expect(try world.counter("assetBytes.uploaded") == (1...12).filter { $0 % 3 == 0 }.reduce(0) { $0 + 100 + $1 })
    }

    /// The guide's flow (docs/MovingToSyncgen.md): an old app's own SQLite file read with
    /// `SQLiteFile` and imported. The file is only read: a statement that writes is refused,
    /// naming the file, and the file's bytes are the same after the import.
    @Test func anOldSQLiteFileIsReadAndImported() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        let oldStore = world.assetFolder.appendingPathComponent("OldApp.sqlite")
        try FileManager.default.createDirectory(at: world.assetFolder, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(.file(oldStore))
            try old.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, created REAL); INSERT INTO notes (title, created) VALUES ('Groceries', 1000), ('Plumber', 2000), (NULL, 3000)")
        }
        let before = try Data(contentsOf: oldStore)
        let file = try SQLiteFile(url: oldStore)
        let rows = try file.read(sql: "SELECT id, title, created FROM notes ORDER BY id")
        let notes = rows.lazy.map { row in
            Note(recordName: "note-\(row.integer("id") ?? 0)", title: row.text("title") ?? "Untitled", createdAt: Date(timeIntervalSince1970: row.double("created") ?? 0))
        }
        let done = try phone.engine.importModels(notes, as: "notes-from-version-1", batchSize: 2)
        #expect(done == ImportProgress(read: 3, imported: 3, skipped: 0))
        #expect(try phone.store.fetch(Note.self, recordName: "note-3")?.title == "Untitled")
        #expect(try phone.store.fetch(Note.self, recordName: "note-2")?.createdAt == Date(timeIntervalSince1970: 2000))
        #expect(throws: LocalStoreError.self) { try file.read(sql: "DELETE FROM notes") }
        #expect(try Data(contentsOf: oldStore) == before)
        #expect(throws: LocalStoreError.self) { try SQLiteFile(url: world.assetFolder.appendingPathComponent("missing.sqlite")) }
    }
}
