import Foundation
import SyncRuntime
import SyncStorage
import SyncLocalCloud

/// Local store writes (typed models: encoding, the typed row, the history entry) beside raw
/// SQLite inserts of the same rows into a table of the same shape with the same indexes, a history
/// entry each too, both in transactions of 1,000, on file: the median of three interleaved runs.
enum StoreBenchmark {
    static let rowCount = 100_000
    static let batch = 1_000
    static let target = 0.5
    static let runs = 3

    static func run() -> Bool {
        print("store: \(rowCount) models written in transactions of \(batch), on file, beside raw inserts of the same rows (median of \(runs) interleaved runs)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let notes = (0..<rowCount).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: $0 % 2 == 0) }
            var rawSeconds: [Double] = [], storeSeconds: [Double] = []
            for run in 0..<runs {
                rawSeconds.append(try raw(notes, at: folder.appendingPathComponent("raw-\(run).sqlite")))
                storeSeconds.append(try store(notes, at: folder.appendingPathComponent("store-\(run).sqlite")))
            }
            let (rawMedian, storeMedian) = (Measurement.median(rawSeconds), Measurement.median(storeSeconds))
            let ratio = rawMedian / storeMedian
            print(String(format: "  raw sqlite3 inserts   %9.0f rows/s", Double(rowCount) / rawMedian))
            print(String(format: "  SyncStore.save        %9.0f rows/s   %.2f of the raw rate", Double(rowCount) / storeMedian, ratio))
            print("  target: at least \(target) of the raw rate: \(ratio >= target ? "met" : "MISSED")")
            return ratio >= target
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    /// The raw baseline: the rows' values, ready, straight into a table shaped as the store's,
    /// with its indexes, and a history entry each, by plain SQL.
    private static func raw(_ notes: [BenchNote], at url: URL) throws -> Double {
        let raw = try SQLiteDatabase(.file(url))
        try raw.execute("""
            CREATE TABLE model_BenchNote (_name TEXT PRIMARY KEY, _owner TEXT NOT NULL, _parent TEXT, _modified REAL NOT NULL, _extra BLOB,
                title TEXT, body TEXT, rank INTEGER, done INTEGER);
            CREATE INDEX model_BenchNote_by_owner ON model_BenchNote (_owner);
            CREATE INDEX model_BenchNote_by_parent ON model_BenchNote (_parent) WHERE _parent IS NOT NULL;
            CREATE INDEX model_BenchNote_by_rank ON model_BenchNote (rank, _name);
            CREATE TABLE history (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, kind INTEGER NOT NULL, author TEXT NOT NULL, tombstone BLOB, at REAL);
            """)
        let start = DispatchTime.now().uptimeNanoseconds
        for first in stride(from: 0, to: notes.count, by: batch) {
            try raw.transaction {
                for index in first..<min(first + batch, notes.count) {
                    let note = notes[index]
                    try raw.query("INSERT INTO model_BenchNote VALUES (?, ?, NULL, ?, NULL, ?, ?, ?, ?)",
                        [.text(note.recordName), .text(SyncConstants.currentUserOwnerName), .real(Double(index)),
                         .text(note.title), .text(note.body), .integer(note.rank), .integer(note.done ? 1 : 0)])
                    try raw.query("INSERT INTO history (type, name, kind, author, tombstone, at) VALUES (?, ?, 0, 'app', NULL, ?)",
                        [.text(BenchNote.recordType), .text(note.recordName), .real(Double(index))])
                }
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func store(_ notes: [BenchNote], at url: URL) throws -> Double {
        let store = try SyncStore(url: url)
        let start = DispatchTime.now().uptimeNanoseconds
        for first in stride(from: 0, to: notes.count, by: batch) {
            try store.save(Array(notes[first..<min(first + batch, notes.count)]))
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
