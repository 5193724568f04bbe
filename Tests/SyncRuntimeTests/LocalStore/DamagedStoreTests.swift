import Foundation
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncStorage
import SyncTesting

/// A store SQLite finds damaged, opened with `SyncStore(healing:)`: real damaged files (the header
/// zeroed, a page in the middle overwritten, the file cut short, a log left without its file).
/// The damaged file is moved aside and kept as it was, a new store takes its place, the app's
/// unpushed changes that can still be read are carried into it, and the report names what came
/// back and what did not. A store that cannot be opened at all runs in memory.
@Suite("Local store: a damaged store heals")
struct DamagedStoreTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A store at `url` holding two notes the cloud has (written by sync) and the app's unpushed
    /// changes: a new note, an edited one, a deleted one, and a journal entry. Closed when this
    /// returns: every page is in the file, and no log is left.
    static func storeWithWaitingChanges(at url: URL) throws {
        try fill(url) { try writeWaitingChanges($0) }
    }

    /// Writes a store at `url`, then leaves every page in its file: the store closed, and its log
    /// copied into the file and removed (a store's readers may close after its writer, and a
    /// reader cannot do that).
    static func fill(_ url: URL, _ body: (SyncStore) throws -> Void) throws {
        try body(try SyncStore(url: url))
        try SQLiteDatabase(.file(url)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    static func writeWaitingChanges(_ store: SyncStore) throws {
        try store.write(author: .sync) { writer in
            for name in ["synced", "edited", "deleted"] { try writer.save(Note(recordName: name, title: "From the cloud")) }
        }
        try store.save(Note(recordName: "new", title: "Written offline"))
        try store.save(Note(recordName: "edited", title: "Edited offline"))
        try store.delete(try #require(try store.fetch(Note.self, recordName: "deleted")))
        try store.save(JournalEntry(recordName: "monday", text: "Slept well"))
    }

    static let waitingChanges: Set<RecordKey> = [RecordKey("Note", "new"), RecordKey("Note", "edited"), RecordKey("Note", "deleted"), RecordKey("JournalEntry", "monday")]

    static func overwrite(_ url: URL, at offset: Int, with bytes: Data) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: bytes)
    }

    /// The page where a table's rows begin (its root page) and the file's page size.
    static func rootPage(of table: String, in url: URL) throws -> (page: Int, size: Int) {
        let database = try SQLiteDatabase(.file(url), readOnly: true)
        let page = try database.query("SELECT rootpage FROM sqlite_master WHERE name = ?", [.text(table)])[0].integer(0)
        let size = try database.query("PRAGMA page_size")[0].integer(0)
        return (Int(page), Int(size))
    }

    static func report(of store: SyncStore) throws -> StoreRecovery {
        let reports = try store.recoveries()
        try #require(reports.count == 1, "\(reports)")
        return reports[0]
    }

    /// The damaged file is kept byte for byte where the report says.
    static func expectKept(_ report: StoreRecovery, as damaged: Data) throws {
        let kept = try #require(report.damagedFile)
        #expect(FileManager.default.contents(atPath: kept.path) == damaged, "the damaged file is kept as it was")
    }

    /// The header zeroed (SQLite's "file is not a database"): the file is moved aside untouched,
    /// the new store works, and nothing could be read, which the report says. Breaking it (no
    /// healing): the opening throws, as `SyncStore(url:)` does, and the app has no store.
    @Test func aFileWithItsHeaderZeroedIsSetAsideAndANewStoreTakesItsPlace() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        try Self.storeWithWaitingChanges(at: url)
        try Self.overwrite(url, at: 0, with: Data(count: 100))
        let damaged = try #require(FileManager.default.contents(atPath: url.path))
        #expect(throws: LocalStoreError.self) { try SyncStore(url: url) }

        let store = SyncStore(healing: url)
        let report = try Self.report(of: store)
        #expect(report.outcome == .rebuilt)
        #expect(report.recovered.isEmpty)
        #expect(report.notRecovered.count == 1 && report.notRecovered[0].contains("nothing could be read"), "\(report)")
        try Self.expectKept(report, as: damaged)
        try store.save(Note(recordName: "after", title: "Works"))
        #expect(try store.fetchAll(Note.self).map(\.recordName) == ["after"])
        #expect(try store.hasUnpushedChanges())
    }

    /// A page in the middle overwritten (the journal's table): SQLite opens the file, and meets
    /// the damage only when it reads that page. The read throws `.corrupt` and leaves a note
    /// beside the file; the next healing opening checks the file, sets it aside, and carries the
    /// notes' waiting changes into the new store, naming the journal entry it could not read.
    /// Breaking it (no note left by the failed read): the damaged store opens again as it is.
    @Test func aPageOverwrittenInTheMiddleCostsOnlyTheRecordsOnIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        try Self.storeWithWaitingChanges(at: url)
        let (page, size) = try Self.rootPage(of: "model_JournalEntry", in: url)
        try Self.overwrite(url, at: (page - 1) * size, with: Data(repeating: 0xA5, count: size))

        do {
            let store = SyncStore(healing: url)
            #expect(try store.recoveries().isEmpty, "nothing read the damaged page yet")
            #expect(try store.fetch(Note.self, recordName: "synced")?.title == "From the cloud")
            #expect {
                try store.fetchAll(JournalEntry.self)
            } throws: { ($0 as? LocalStoreError)?.reason == .corrupt }
        }
        #expect(DamagedStoreFile(url: url).note?.contains("malformed") == true)
        try SQLiteDatabase(.file(url)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let damaged = try #require(FileManager.default.contents(atPath: url.path))
        let store = SyncStore(healing: url)
        let report = try Self.report(of: store)
        #expect(report.outcome == .rebuilt)
        #expect(Set(report.recovered) == Self.waitingChanges.subtracting([RecordKey("JournalEntry", "monday")]), "\(report)")
        #expect(report.notRecovered.count == 1 && report.notRecovered[0].hasPrefix("JournalEntry monday"), "\(report.notRecovered)")
        try Self.expectKept(report, as: damaged)
        #expect(try store.fetchAll(Note.self).map(\.recordName).sorted() == ["edited", "new"], "the cloud's records come with the next pull")
        #expect(try store.fetch(Note.self, recordName: "edited")?.title == "Edited offline")
        let waiting = try store.sqliteTransaction { try $0.unpushedChanges(limit: nil).changes }
        #expect(Set(waiting.map { "\($0.recordType) \($0.recordName) \($0.kind)" }) == ["Note new save", "Note edited save", "Note deleted deletion"])
        #expect(waiting.allSatisfy { $0.author == StoreAuthor.app.storedValue })
    }

    /// The file cut short (a copy interrupted, a disk that lost its end): the store heals, and
    /// what it carries over is what the file still held, each record as it was saved; what it
    /// could not read is named, or, when the cut took the part of the file that tells the
    /// waiting changes from the rest, said so. Breaking it (a read that fails taken for no
    /// change): the report says nothing was lost.
    @Test(arguments: [0.3, 0.6, 0.9])
    func aFileCutShortKeepsWhatItStillHolds(keeping share: Double) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        let saved = (0..<300).map { Note(recordName: String(format: "n%03d", $0), title: String(repeating: "x", count: 200) + "\($0)") }
        try Self.fill(url) { try $0.save(saved) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).intValue
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(Double(size) * share) / 4096 * 4096)
        try handle.close()

        do {
            // Whatever SQLite meets first (at the opening, or at a read) leaves the note.
            let store = SyncStore(healing: url)
            _ = try? store.fetchAll(Note.self)
        }
        let store = SyncStore(healing: url)
        let report = try Self.report(of: store)
        #expect(report.outcome == .rebuilt)
        #expect(!report.notRecovered.isEmpty, "\(report)")
        let named = report.notRecovered.filter { $0.hasPrefix("Note ") }.count
        #expect(report.recovered.count + named == 300 || report.notRecovered.contains { $0.contains("cannot be told") || $0.contains("nothing could be read") || $0.hasPrefix("history entries") }, "\(report)")
        let carried = try store.fetchAll(Note.self)
        #expect(carried.count == report.recovered.count)
        for note in carried { #expect(note == saved[Int(note.recordName.dropFirst())!], "\(note.recordName)") }
    }

    /// A log left without its file (a backup that kept `-wal` and lost the file): SQLite would
    /// replay it into a new, empty file. The log is set aside with its index, under the kept
    /// name, and the new store starts empty. Breaking it (no check for the lone log): the new
    /// store opens over the old log's pages.
    @Test func aLogLeftWithoutItsFileIsSetAside() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        let log = folder.appendingPathComponent("copy-of-the-log")
        do {
            let store = try SyncStore(url: url)
            try store.save(Note(recordName: "n", title: "Only in the log"))
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: log.path)
        }
        try FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(atPath: log.path, toPath: url.path + "-wal")
        let lone = try #require(FileManager.default.contents(atPath: url.path + "-wal"))

        let store = SyncStore(healing: url)
        let report = try Self.report(of: store)
        #expect(report.outcome == .rebuilt)
        #expect(report.problem.contains("a log of it is left"), "\(report.problem)")
        let kept = try #require(report.damagedFile)
        #expect(FileManager.default.contents(atPath: kept.path + "-wal") == lone)
        #expect(report.notRecovered.count == 1, "\(report.notRecovered)")
        #expect(try store.fetchAll(Note.self).isEmpty)
        try store.save(Note(recordName: "after", title: "Works"))
    }

    /// Damage noted by an earlier session that SQLite's check does not confirm (a file restored
    /// meanwhile): the store opens as it is, with no report, and the note goes.
    @Test func aNoteOfDamageTheCheckDoesNotConfirmIsForgotten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        try Self.storeWithWaitingChanges(at: url)
        DamagedStoreFile(url: url).noteDamage("an earlier session met damage")
        let store = SyncStore(healing: url)
        #expect(try store.recoveries().isEmpty)
        #expect(DamagedStoreFile(url: url).note == nil)
        #expect(try store.fetchAll(Note.self).count == 3)
    }

    /// What cannot be opened at all runs in memory, said in the report and the log, and what is
    /// at the path is left as it is: a folder, a file a newer version wrote. Breaking it (the
    /// error thrown): the app has no store.
    @Test func aStoreThatCannotBeOpenedRunsInMemory() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = RecordingLog()

        let aFolder = folder.appendingPathComponent("folder.sqlite")
        try FileManager.default.createDirectory(at: aFolder, withIntermediateDirectories: true)
        let inMemory = SyncStore(healing: aFolder, logHandler: log)
        let report = try Self.report(of: inMemory)
        #expect(report.outcome == .inMemory && report.problem.contains("folder"), "\(report)")
        try inMemory.save(Note(recordName: "n", title: "For this session"))
        #expect(try inMemory.fetchAll(Note.self).count == 1)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: aFolder.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(log.entries.map(\.level) == [.error] && log.entries.map(\.category) == [.store])

        let newer = folder.appendingPathComponent("newer.sqlite")
        try SyncStore(url: newer).save(Note(recordName: "n", title: "kept"))
        try SQLiteDatabase(.file(newer)).execute("INSERT INTO syncgen_migrations (name) VALUES ('aLaterVersionsStep')")
        let before = try #require(FileManager.default.contents(atPath: newer.path))
        let downgraded = SyncStore(healing: newer)
        #expect(try Self.report(of: downgraded).outcome == .inMemory)
        #expect(FileManager.default.contents(atPath: newer.path) == before)
    }

    /// The report stays until the app acknowledges it, across launches.
    @Test func theReportStaysUntilAcknowledged() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        try Self.storeWithWaitingChanges(at: url)
        try Self.overwrite(url, at: 0, with: Data(count: 100))
        _ = SyncStore(healing: url)
        let again = SyncStore(healing: url)
        #expect(try again.recoveries().count == 1)
        try again.acknowledgeRecoveries()
        #expect(try SyncStore(healing: url).recoveries().isEmpty)
    }

    final class RecordingLog: SyncLogHandler, Sendable {
        private let lines = Locked<[SyncLogEntry]>([])
        var entries: [SyncLogEntry] { lines.withLock { $0 } }
        func log(_ entry: SyncLogEntry) { lines.withLock { $0.append(entry) } }
    }
}
