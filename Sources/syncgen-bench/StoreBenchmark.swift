import Foundation
import SyncRuntime
import SyncLocalCloud

/// Local store writes (typed models: encoding, the typed row, the history entry) beside the
/// SQLite C API inserting the same rows (the model's row and its history entry) into tables the
/// store made, with its indexes, both in transactions of 1,000, on file: the median of three
/// interleaved runs, in CPU time. Then the store's file after the saves, and after the engine
/// has pushed them (server versions kept, history pruned), beside the same rows in a plain table.
enum StoreBenchmark {
    static let rowCount = 100_000
    static let batch = 1_000
    /// `SyncStore.save` takes at most this many times the C API's time.
    static let target = 1.2
    static let runs = 3
    /// The store's file at most this many times the same rows in a plain table.
    static let fileTarget = 1.15

    static func run() async -> Bool {
        print("store: \(rowCount) models written in transactions of \(batch), on file, beside the C API inserting the same rows (median of \(runs) interleaved runs, CPU time)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let notes = (0..<rowCount).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: $0 % 2 == 0) }
            // The store's own tables, made by the store: the floor copies their shape.
            let shape = folder.appendingPathComponent("shape.sqlite")
            try SyncStore(url: shape).save(BenchNote(recordName: "shape"))
            var floorSeconds: [Double] = [], storeSeconds: [Double] = []
            for run in 0..<runs {
                floorSeconds.append(floor(notes, at: folder.appendingPathComponent("floor-\(run).sqlite"), shape: shape))
                storeSeconds.append(try store(notes, at: folder.appendingPathComponent("store-\(run).sqlite")))
            }
            let (floorMedian, storeMedian) = (Measurement.median(floorSeconds), Measurement.median(storeSeconds))
            let ratio = storeMedian / floorMedian
            print(String(format: "  C API inserts         %9.0f rows/s   %8.3f s", Double(rowCount) / floorMedian, floorMedian))
            print(String(format: "  SyncStore.save        %9.0f rows/s   %8.3f s   %.2fx the C API", Double(rowCount) / storeMedian, storeMedian, ratio))
            print(String(format: "  target: within %.1fx the C API: %@", target, Measurement.verdict(ratio <= target)))
            print(String(format: "  peak memory: %.1f MiB", Measurement.peakMemoryMiB()))
            // The file: the store's after the saves (models, history, indexes), beside the same
            // rows in a plain table keyed by name with an index on the queryable field, as a
            // record library would keep them (issue 50's target: within 1.15x of that).
            let storeBytes = fileBytes(folder.appendingPathComponent("store-0.sqlite"))
            let plainBytes = plainTable(notes, at: folder.appendingPathComponent("plain.sqlite"))
            let pushedBytes = try await pushed(folder.appendingPathComponent("store-0.sqlite"), folder: folder)
            let (before, after) = (Double(storeBytes) / Double(max(plainBytes, 1)), Double(pushedBytes) / Double(max(plainBytes, 1)))
            print(String(format: "  the file after the saves: %.1f MiB, beside %.1f MiB for the rows in a plain table: %.2fx", Double(storeBytes) / 1_048_576, Double(plainBytes) / 1_048_576, before))
            print(String(format: "  the file after their push: %.1f MiB: %.2fx", Double(pushedBytes) / 1_048_576, after))
            let fileMet = before <= fileTarget && after <= fileTarget
            print(String(format: "  target: the file within %.2fx the plain table, before and after the push: %@", fileTarget, Measurement.verdict(fileMet)))
            return ratio <= target && fileMet
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    /// The floor: the rows' values, ready, inserted by prepared statements into tables of the
    /// store's shape (copied from `shape`), a history entry each, as the store writes them.
    private static func floor(_ notes: [BenchNote], at url: URL, shape: URL) -> Double {
        let floor = SQLiteFloor(url)
        floor.copyTables(["model_BenchNote", "history"], from: shape)
        let insertRow = floor.prepare("INSERT INTO model_BenchNote (_name, _owner, _parent, _modified, _extra, title, body, rank, done) VALUES (?, ?, NULL, ?, NULL, ?, ?, ?, ?)")
        let insertHistory = floor.prepare("INSERT INTO history (type, name, kind, author, tombstone, at) VALUES (?, ?, 0, 'app', NULL, ?)")
        return Measurement.seconds {
            for first in stride(from: 0, to: notes.count, by: batch) {
                floor.transaction {
                    for index in first..<min(first + batch, notes.count) {
                        let note = notes[index]
                        insertRow.bind(1, note.recordName)
                        insertRow.bind(2, "")  // the user's own row keeps no owner's name
                        insertRow.bind(3, Double(index))
                        insertRow.bind(4, note.title)
                        insertRow.bind(5, note.body)
                        insertRow.bind(6, note.rank)
                        insertRow.bind(7, Int64(note.done ? 1 : 0))
                        insertRow.run()
                        insertHistory.bind(1, BenchNote.recordType)
                        insertHistory.bind(2, note.recordName)
                        insertHistory.bind(3, Double(index))
                        insertHistory.run()
                    }
                }
            }
        }
    }

    /// The rows alone, in a table keyed by name with an index on `rank`; the file's bytes once
    /// closed.
    private static func plainTable(_ notes: [BenchNote], at url: URL) -> Int64 {
        do {
            let floor = SQLiteFloor(url)
            floor.execute("CREATE TABLE note (name TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, rank INTEGER NOT NULL, done INTEGER NOT NULL); CREATE INDEX note_rank ON note (rank)")
            let insert = floor.prepare("INSERT INTO note (name, title, body, rank, done) VALUES (?, ?, ?, ?, ?)")
            for first in stride(from: 0, to: notes.count, by: batch) {
                floor.transaction {
                    for note in notes[first..<min(first + batch, notes.count)] {
                        insert.bind(1, note.recordName)
                        insert.bind(2, note.title)
                        insert.bind(3, note.body)
                        insert.bind(4, note.rank)
                        insert.bind(5, Int64(note.done ? 1 : 0))
                        insert.run()
                    }
                }
            }
        }
        return fileBytes(url)
    }

    /// The bytes of the store at `url` once the engine has pushed every change in it (to a
    /// LocalCloud in memory) and closed it.
    private static func pushed(_ url: URL, folder: URL) async throws -> Int64 {
        let cloud = try LocalCloud.inMemory(configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        let engine = SyncEngine(store: try SyncStore(url: url), cloud: try cloud.device("bench", account: "bench"), schema: SyncSchema.self)
        guard case .completed = await engine.sync() else { throw CloudError(.serviceUnavailable, "the push failed") }
        return fileBytes(url)
    }

    /// A database's bytes: the file and what its log still holds.
    private static func fileBytes(_ url: URL) -> Int64 {
        [url, URL(fileURLWithPath: url.path + "-wal")].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    private static func store(_ notes: [BenchNote], at url: URL) throws -> Double {
        let store = try SyncStore(url: url)
        try store.save(BenchNote(recordName: "first"))  // the table is made once, not timed
        return try Measurement.seconds {
            for first in stride(from: 0, to: notes.count, by: batch) {
                try store.save(Array(notes[first..<min(first + batch, notes.count)]))
            }
        }
    }
}
