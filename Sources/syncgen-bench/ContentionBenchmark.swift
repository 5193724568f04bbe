import Foundation
import SyncRuntime
import SyncLocalCloud

/// A screen's read while sync writes: the wall-time latency of an indexed query for 100 models on
/// one task while the engine pulls 100,000 records in pages on another, beside the same query with
/// nothing else running (p50 and p99 of each). The store the query reads already holds 100,000
/// models of its own, so every answer has 100 rows. Target: the busy p99 within 2x of the idle p99
/// (reads run on reader connections, beside the transactions sync holds on the writer).
enum ContentionBenchmark {
    static let pulled = 100_000
    static let target = 2.0
    static let idleQueries = 400

    static func run() async -> Bool {
        print("contention: a 100-row query's latency while the engine pulls \(pulled) records, beside the same query idle (wall time)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contention-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let cloud = try LocalCloud.file(
                at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
            let writer = try SyncStore(url: folder.appendingPathComponent("writer.sqlite"))
            let writerEngine = SyncEngine(store: writer, cloud: try cloud.device("writer", account: "bench"), schema: SyncSchema.self)
            for start in stride(from: 0, to: pulled, by: 1_000) { try writer.save(EngineBenchmark.notes(start..<min(start + 1_000, pulled))) }
            guard case .completed = await writerEngine.sync() else { throw CloudError(.serviceUnavailable, "push failed") }

            let reader = try SyncStore(url: folder.appendingPathComponent("reader.sqlite"))
            for start in stride(from: 0, to: pulled, by: 1_000) {
                try reader.save((start..<min(start + 1_000, pulled)).map {
                    BenchNote(recordName: "local-\($0)", title: "Local \($0)", rank: Int64(-1 - $0), done: false)
                })
            }
            let query = Query<BenchNote>().filter(\.rank >= -50_100 && \.rank < -50_000).sorted(by: \.rank)
            let answer = try reader.fetch(query)
            precondition(answer.count == 100, "the query answers \(answer.count) models")
            let idle = try (0..<idleQueries).map { _ in try latency(of: query, in: reader) }

            let readerEngine = SyncEngine(store: reader, cloud: try cloud.device("reader", account: "bench"), schema: SyncSchema.self)
            let finished = Locked(false)
            let pulling = Task {
                let result = await readerEngine.sync()
                finished.withLock { $0 = true }
                return result
            }
            var busy: [Double] = []
            while !finished.withLock({ $0 }) {
                busy.append(try latency(of: query, in: reader))
                await Task.yield()
            }
            guard case .completed = await pulling.value else { throw CloudError(.serviceUnavailable, "pull failed") }
            let (idle50, idle99) = (percentile(idle, 0.5), percentile(idle, 0.99))
            let (busy50, busy99) = (percentile(busy, 0.5), percentile(busy, 0.99))
            print("  idle, \(idle.count) queries     p50 \(Measurement.milliseconds(idle50))   p99 \(Measurement.milliseconds(idle99))")
            print("  during the pull, \(busy.count) queries   p50 \(Measurement.milliseconds(busy50))   p99 \(Measurement.milliseconds(busy99))   \(String(format: "%.1f", busy99 / idle99))x the idle p99")
            let met = busy99 <= target * idle99
            print(String(format: "  target: p99 during the pull within %.0fx the idle p99: %@", target, Measurement.verdict(met)))
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    private static func latency(of query: Query<BenchNote>, in store: SyncStore) throws -> Double {
        let start = Measurement.wallNow()
        let found = try store.fetch(query)
        precondition(found.count == 100)
        return Measurement.wallNow() - start
    }

    private static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
