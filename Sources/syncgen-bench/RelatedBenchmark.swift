import Foundation
import SyncRuntime

/// 100,000 items each with its list: `store.fetch(query, with: \.parent)` (one statement, both
/// models made) beside the SQLite C API running a join of the same tables and reading every
/// column of both, in CPU time, the median of interleaved runs.
enum RelatedBenchmark {
    static let runs = 5
    static let within = 1.5

    static func run() -> Bool {
        print("related: \(CountsBenchmark.itemCount) items each with its list, beside the C API's join (median of \(runs) interleaved runs, CPU time)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("related-bench-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let store = try CountsBenchmark.makeStore(url)
            let floor = SQLiteFloor(url)
            let join = floor.prepare("""
                SELECT i._name, i._owner, i._parent, i.text, i.done, i.price, l._name, l._owner, l.title
                FROM model_BenchItem AS i LEFT JOIN model_BenchList AS l ON l._name = i._parent ORDER BY i._name
                """)
            var typed: [Double] = [], direct: [Double] = []
            for _ in 0..<runs {
                typed.append(try Measurement.seconds {
                    let rows = try store.fetch(Query<BenchItem>(), with: \.parent)
                    precondition(rows.count == CountsBenchmark.itemCount && rows.allSatisfy { $0.target != nil })
                })
                direct.append(Measurement.seconds {
                    var rows = 0
                    while join.step() {
                        _ = (join.text(0), join.text(1), join.text(2), join.text(3), join.integer(4), join.real(5), join.text(6), join.text(7), join.text(8))
                        rows += 1
                    }
                    precondition(rows == CountsBenchmark.itemCount)
                })
            }
            return Measurement.besideTheCAPI("store.fetch(_:with:)", typed, cAPI: "C API's join", direct, within: within)
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
