import Foundation
import SyncRuntime
import SyncStorage
import SyncLocalCloud

/// An idle engine pass (nothing to push, pull or transfer) with 10 and with 10,000 cached assets,
/// interleaved: the pass must cost the same whatever the cache holds.
enum IdlePassBenchmark {
    static let sizes = [10, 10_000]
    static let passes = 21
    static let maxRatio = 1.5

    static func run() async -> Bool {
        print("idle pass: an engine pass with nothing to do, with \(sizes.map(String.init).joined(separator: " and ")) cached assets (median of \(passes) interleaved passes, range)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idle-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let cloud = try LocalCloud.inMemory(configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
            var engines: [SyncEngine] = []
            for size in sizes {
                let url = folder.appendingPathComponent("store-\(size).sqlite")
                try SyncStore(url: url).save(EngineBenchmark.notes(0..<size))
                try cacheEntries(for: size, in: url)
                let configuration = SyncConfiguration(assetCacheRoot: folder.appendingPathComponent("assets-\(size)"))
                let engine = SyncEngine(store: try SyncStore(url: url), cloud: try cloud.device("device-\(size)", account: "bench-\(size)"), schema: SyncSchema.self, configuration: configuration)
                guard case .completed = await engine.sync() else { throw CloudError(.serviceUnavailable, "the first pass failed") }
                engines.append(engine)
            }
            let timings = await Measurement.interleaved(runs: passes, engines.map(idlePass))
            for (size, timing) in zip(sizes, timings) {
                print("  \(Measurement.pad(size, 6)) cached assets   \(timing.description)")
            }
            let ratio = timings[1].median / timings[0].median
            // Quick (CI): 1,000x the assets may not cost what even 10x the work would.
            let allowed = Bench.quick ? Bench.quickMaxGrowth : maxRatio
            let met = ratio <= allowed
            print(String(format: "  target: about the same cost (%.2fx, at most %.1fx): %@", ratio, allowed, Measurement.verdict(met)))
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    /// One measured pass of `engine`, which must go through.
    static func idlePass(_ engine: SyncEngine) -> () async throws -> Void {
        {
            guard case .completed = await engine.sync() else { throw CloudError(.serviceUnavailable, "an idle pass failed") }
        }
    }

    /// Gives each of the first `count` notes a cached asset entry, as a cache that downloaded
    /// them would hold (the files themselves an idle pass never opens).
    private static func cacheEntries(for count: Int, in url: URL) throws {
        let database = try SQLiteDatabase(.file(url))
        try database.transaction {
            for index in 0..<count {
                try database.query(
                    "INSERT INTO asset_cache (type, name, field, state, suffix, size, pinned, last_access, digest) VALUES (?, ?, 'cover', 'cached', 'jpg', 1000, 0, ?, '')",
                    [.text(BenchNote.recordType), .text("note-\(index)"), .real(Double(index))])
            }
        }
    }
}
