import Foundation
import SyncRuntime

/// An indexed query returning 100 of 100,000 models, three ways in one run, interleaved, the
/// median of each: the typed query (SQL over the model's table, by the field's index), the same
/// question as `fetchAll(where:sortedBy:)` (every row decoded, filtered in Swift), and the SQLite
/// C API selecting the same rows by the same index (reading their columns into Swift values,
/// making no models), in CPU time.
enum QueryBenchmark {
    static let rowCount = 100_000
    static let runs = 5
    /// The indexed query and its floor are repeated this many times per run (each figure is one
    /// of them): one alone is too short for a clock to weigh.
    static let repeats = 200
    static let fasterThanFetchAll = 50.0
    /// Issue 50 moved it from 1.5x: at 1.8-1.9x the query already takes about half GRDB's time,
    /// and the last step would need a row reader generated for each model.
    static let withinFloor = 2.0

    static func run() -> Bool {
        print("query: 100 of \(rowCount) models by an indexed field, sorted (median of \(runs) interleaved runs, CPU time)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let store = try SyncStore(url: url)
            let notes = (0..<rowCount).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: $0 % 2 == 0) }
            for first in stride(from: 0, to: rowCount, by: 1_000) { try store.save(Array(notes[first..<first + 1_000])) }
            let (low, high): (Int64, Int64) = (50_000, 50_100)
            let query = Query<BenchNote>().filter(\.rank >= low && \.rank < high).sorted(by: \.rank)
            let floor = SQLiteFloor(url)
            let select = floor.prepare("SELECT _name, _owner, title, body, rank, done FROM model_BenchNote WHERE rank >= ? AND rank < ? ORDER BY rank")
            var typed: [Double] = [], scanned: [Double] = [], direct: [Double] = []
            for _ in 0..<runs {
                typed.append(try Measurement.seconds {
                    for _ in 0..<repeats { let found = try store.fetch(query); precondition(found.count == 100) }
                } / Double(repeats))
                scanned.append(try Measurement.seconds {
                    let found = try store.fetchAll(BenchNote.self, where: { $0.rank >= low && $0.rank < high }, sortedBy: { $0.rank < $1.rank })
                    precondition(found.count == 100)
                })
                direct.append(Measurement.seconds {
                    for _ in 0..<repeats {
                        var count = 0
                        select.bind(1, low)
                        select.bind(2, high)
                        while select.step() {
                            _ = (select.text(0), select.text(1), select.text(2), select.text(3), select.integer(4), select.integer(5))
                            count += 1
                        }
                        precondition(count == 100)
                    }
                } / Double(repeats))
            }
            let (typedQuery, fetchAll, sqlite) = (Measurement.median(typed), Measurement.median(scanned), Measurement.median(direct))
            print("  C API by the index          \(Measurement.milliseconds(sqlite))")
            print("  store.fetch(query)          \(Measurement.milliseconds(typedQuery))   \(String(format: "%.2f", typedQuery / sqlite))x the C API")
            print("  fetchAll(where:sortedBy:)   \(Measurement.milliseconds(fetchAll))   \(String(format: "%.0f", fetchAll / typedQuery)) times the query")
            let met = fetchAll / typedQuery >= fasterThanFetchAll && typedQuery / sqlite <= withinFloor
            print("  targets: at least \(Int(fasterThanFetchAll)) times faster than fetchAll(where:), within \(withinFloor)x the C API: \(Measurement.verdict(met))")
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
