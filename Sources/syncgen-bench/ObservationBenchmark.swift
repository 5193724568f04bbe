import Foundation
import SyncRuntime

/// How long a save takes to reach an observer of a query as new results, beside the same save
/// followed by the same query read by hand, interleaved in one run: the medians over many saves
/// (each of one model into a store of `rowCount`). The ratio is what observation adds to the
/// read it has to do anyway.
enum ObservationBenchmark {
    static let rowCount = 10_000
    static let commits = 101

    static func run() async -> Bool {
        print("observation: a save to an observed query's new results (\(rowCount) models), beside the save and the query read by hand (medians of \(commits) each, interleaved)")
        do {
            let store = try SyncStore(url: nil)
            try store.save((0..<rowCount).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", rank: Int64($0), done: $0 % 2 == 0) })
            let query = Query<BenchNote>().filter(\.done == false).sorted(by: \.rank, .descending).limit(100)
            var results = store.observe(query).makeAsyncIterator()
            _ = try await results.next()
            var observed: [Double] = [], byHand: [Double] = []
            for index in 0..<commits {
                let name = "observed-\(index)"
                let start = Measurement.wallNow()
                try store.save(BenchNote(recordName: name, title: "New", rank: Int64(rowCount + 2 * index), done: false))
                guard let emitted = try await results.next(), emitted.first?.recordName == name else {
                    print("  failed: the observer missed save \(index)")
                    return false
                }
                observed.append(Measurement.wallNow() - start)
                let byHandStart = Measurement.wallNow()
                try store.save(BenchNote(recordName: "by-hand-\(index)", title: "New", rank: Int64(rowCount + 2 * index + 1), done: false))
                _ = try store.fetch(query)
                byHand.append(Measurement.wallNow() - byHandStart)
                // The by-hand save is observed too: taken off the stream before the next round.
                _ = try await results.next()
            }
            let (latency, baseline) = (Measurement.median(observed), Measurement.median(byHand))
            print("  save, then the query read by hand   \(Measurement.milliseconds(baseline))")
            print("  save, then the observed results     \(Measurement.milliseconds(latency))   \(String(format: "%.2f", latency / baseline)) times by hand")
            return true
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
