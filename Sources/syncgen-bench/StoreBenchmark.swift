import Foundation
import SyncRuntime
import SyncStorage
import SyncLocalCloud

/// Local store writes (typed models: encoding, the row, the history entry) beside raw SQLite
/// inserts of the same rows, in the same run, both in transactions of 1,000, on file.
enum StoreBenchmark {
    static let rowCount = 100_000
    static let batch = 1_000
    static let target = 0.5

    static func run() -> Bool {
        print("store: \(rowCount) models written in transactions of \(batch), on file, beside raw inserts of the same rows")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let notes = (0..<rowCount).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: $0 % 2 == 0) }
            // The raw baseline: the same rows, already encoded, straight into the same table (with
            // the same indexes) by plain SQL.
            let raw = try SQLiteDatabase(.file(folder.appendingPathComponent("raw.sqlite")))
            try raw.execute("""
                CREATE TABLE models (type TEXT NOT NULL, name TEXT NOT NULL, owner TEXT NOT NULL, parent TEXT, fields BLOB NOT NULL, modified REAL NOT NULL, PRIMARY KEY (type, name));
                CREATE INDEX models_by_name ON models (name);
                CREATE INDEX models_by_owner ON models (owner, type);
                """)
            let rows = notes.map { FieldsCodec.encode($0.encodeStoredFields()) }
            let rawStart = DispatchTime.now().uptimeNanoseconds
            for start in stride(from: 0, to: rowCount, by: batch) {
                try raw.transaction {
                    for index in start..<min(start + batch, rowCount) {
                        try raw.query("INSERT INTO models (type, name, owner, parent, fields, modified) VALUES (?, ?, ?, NULL, ?, ?)",
                            [.text(BenchNote.recordType), .text(notes[index].recordName), .text(SyncConstants.currentUserOwnerName), .blob(rows[index]), .real(Double(index))])
                    }
                }
            }
            let rawSeconds = Double(DispatchTime.now().uptimeNanoseconds - rawStart) / 1e9
            let store = try SyncStore(url: folder.appendingPathComponent("store.sqlite"))
            let storeStart = DispatchTime.now().uptimeNanoseconds
            for start in stride(from: 0, to: rowCount, by: batch) {
                try store.save(Array(notes[start..<min(start + batch, rowCount)]))
            }
            let storeSeconds = Double(DispatchTime.now().uptimeNanoseconds - storeStart) / 1e9
            let ratio = rawSeconds / storeSeconds
            print(String(format: "  raw sqlite3 inserts   %9.0f rows/s", Double(rowCount) / rawSeconds))
            print(String(format: "  SyncStore.save        %9.0f rows/s   %.2f of the raw rate", Double(rowCount) / storeSeconds, ratio))
            print("  target: at least \(target) of the raw rate: \(ratio >= target ? "met" : "MISSED")")
            return ratio >= target
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
