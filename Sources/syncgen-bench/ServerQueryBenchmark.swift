import Foundation
import SyncRuntime
import SyncLocalCloud

/// A server query's first page (50 records of a range, sorted) over 1,000 and over 100,000 public
/// records. LocalCloud answers the query (its time is printed), then the engine's own CPU time is
/// measured on that answer replayed (no server work in the process beside it: LocalCloud's pass
/// over 100,000 records would leave the caches cold for the engine), median of several calls.
/// The device reads the page, never the rest: the page costs the same whatever the records'
/// number (issue 51's proof).
enum ServerQueryBenchmark {
    static let sizes = [1_000, 100_000]
    static let pageSize = 50
    static let maxGrowth = 1.5
    static let runs = 9

    static func run() async -> Bool {
        print("server-query: the first page of \(pageSize) of a sorted range query, over a public model's records (median of \(runs) calls, the engine's own CPU time)")
        var own: [Int: Double] = [:]
        for size in sizes {
            do {
                let (engine, serving) = try await firstPages(over: size)
                own[size] = engine
                print(String(format: "  %7d records   engine %8.1f us a page   LocalCloud serving %9.1f us", size, engine * 1e6, serving * 1e6))
            } catch {
                print("  \(size): failed: \(error)")
                return false
            }
        }
        let growth = own[sizes[1]]! / own[sizes[0]]!
        let met = growth <= maxGrowth
        print(String(format: "  target: 100x the records, the page at most %.1fx the engine's time (%.2fx): %@", maxGrowth, growth, Measurement.verdict(met)))
        return met
    }

    /// The engine's own time of a first page over `size` records, and LocalCloud's serving it.
    private static func firstPages(over size: Int) async throws -> (engine: Double, serving: Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-query-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cloud = try LocalCloud.inMemory(configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
        let publisher = try cloud.device("publisher", account: "publisher")
        for first in stride(from: 0, to: size, by: 250) {
            let records = (first..<min(first + 250, size)).map { BenchCatalogItem(recordName: "item-\($0)", title: "Item \($0)", rank: Int64($0)).makeRecord() }
            let result = try await publisher.modify(ModifyRequest(recordsToSave: records), in: .public)
            if let failure = result.partialFailure { throw failure }
        }
        let gateway = TimedGateway(try cloud.device("reader", account: "reader"))
        let engine = SyncEngine(
            store: try SyncStore(url: nil), cloud: gateway, schema: SyncSchema.self,
            configuration: SyncConfiguration(assetCacheRoot: folder.appendingPathComponent("reader-assets")))
        let query = ServerQuery<BenchCatalogItem>().filter(\.rank >= Int64(size / 2)).sorted(by: \.rank).limit(pageSize)
        var serving: [Double] = []
        for _ in 0..<3 {
            let before = gateway.seconds
            let page = try await engine.query(query)
            precondition(page.models.count == pageSize && page.models.first?.rank == Int64(size / 2), "the page holds \(page.models.count) models")
            serving.append(gateway.seconds - before)
        }
        let answer = try await cloud.device("reader", account: "reader").query(
            RecordQuery(recordType: BenchCatalogItem.recordType, conditions: [FieldCondition("rank", .greaterOrEqual, [.int64(Int64(size / 2))])],
                        sorts: [FieldSort("rank")], desiredKeys: BenchCatalogItem.serverQueryKeys, resultsLimit: pageSize), in: .public)
        gateway.replayedPage.withLock { $0 = answer }
        var own: [Double] = []
        for _ in 0..<runs {
            own.append(try await Measurement.seconds { _ = try await engine.query(query) })
        }
        return (Measurement.median(own), Measurement.median(serving))
    }
}
