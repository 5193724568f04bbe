import Foundation
import SyncRuntime

/// Each list's open items, counted and their prices summed, for 1,000 lists over 100,000 items:
/// `store.fetch(query.groupedByParent(count, sum))` (its SQL, its groups made) beside the SQLite
/// C API running `GROUP BY` over the same table and reading the same figures, in CPU time, the
/// median of interleaved runs.
enum CountsBenchmark {
    static let listCount = 1_000
    static let itemCount = 100_000
    static let runs = 5
    static let repeats = 5
    static let within = 1.5

    /// 1,000 lists and 100,000 items, every item in a list.
    static func makeStore(_ url: URL) throws -> SyncStore {
        let store = try SyncStore(url: url)
        try store.save((0..<listCount).map { BenchList(recordName: "list-\($0)", title: "List \($0)") })
        for first in stride(from: 0, to: itemCount, by: 1_000) {
            try store.save((first..<first + 1_000).map { index in
                BenchItem(recordName: "item-\(index)", parent: RecordReference(recordName: "list-\(index % listCount)"), text: "Item \(index)", done: index % 3 == 0, price: Double(index % 97) / 4)
            })
        }
        return store
    }

    static func run() -> Bool {
        print("counts: open items and their prices per list, \(listCount) lists over \(itemCount) items, beside the C API's GROUP BY (median of \(runs) interleaved runs, CPU time)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("counts-bench-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let store = try makeStore(url)
            let count = Aggregate<BenchItem, Int>.count
            let price = Aggregate<BenchItem, Double>.sum(\.price)
            let grouped = Query<BenchItem>().filter(\.done == false).groupedByParent(count, price)
            let floor = SQLiteFloor(url)
            let select = floor.prepare("SELECT _parent, COUNT(*), TOTAL(price) FROM model_BenchItem WHERE done = 0 GROUP BY _parent ORDER BY _parent")
            var typed: [Double] = [], direct: [Double] = []
            for _ in 0..<runs {
                typed.append(try Measurement.seconds {
                    for _ in 0..<repeats {
                        let groups = try store.fetch(grouped)
                        precondition(groups.count == listCount)
                    }
                } / Double(repeats))
                direct.append(Measurement.seconds {
                    for _ in 0..<repeats {
                        var groups = 0
                        while select.step() {
                            _ = (select.text(0), select.integer(1), select.real(2))
                            groups += 1
                        }
                        precondition(groups == listCount)
                    }
                } / Double(repeats))
            }
            return Measurement.besideTheCAPI("store.fetch(groupedByParent)", typed, cAPI: "C API's GROUP BY", direct, within: within)
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
