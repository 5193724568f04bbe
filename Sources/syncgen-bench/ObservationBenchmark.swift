import Foundation
import SyncRuntime

/// How long after a commit an observer of a query has its new results, beside the time the
/// query itself takes to read them, interleaved in one run: the median of both over many
/// commits (each commit saves one model into a store of `rowCount`). The difference is what
/// observation adds to the read it has to do anyway.
enum ObservationBenchmark {
    static let rowCount = 10_000
    static let commits = 101

    static func run() async -> Bool {
        print("observation: a query of \(rowCount) models observed across \(commits) commits, beside the query read alone")
        do {
            let store = try SyncStore(url: nil)
            try store.save((0..<rowCount).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", rank: Int64($0), done: $0 % 2 == 0) })
            let query = Query<BenchNote>().filter(\.done == false).sorted(by: \.rank, .descending).limit(100)
            var results = store.observe(query).makeAsyncIterator()
            _ = try await results.next()
            var latencies: [Double] = [], reads: [Double] = []
            for index in 0..<commits {
                try store.save(BenchNote(recordName: "new-\(index)", title: "New", rank: Int64(rowCount + index), done: false))
                let committed = DispatchTime.now().uptimeNanoseconds
                guard let emitted = try await results.next(), emitted.first?.recordName == "new-\(index)" else {
                    print("  failed: the observer missed commit \(index)")
                    return false
                }
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - committed) / 1e9)
                let readStart = DispatchTime.now().uptimeNanoseconds
                _ = try store.fetch(query)
                reads.append(Double(DispatchTime.now().uptimeNanoseconds - readStart) / 1e9)
            }
            let (latency, read) = (Measurement.median(latencies), Measurement.median(reads))
            print("  the query read alone        \(Measurement.milliseconds(read)) (median)")
            print("  commit to observed results  \(Measurement.milliseconds(latency)) (median), \(String(format: "%.2f", latency / read)) times the read")
            return true
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
