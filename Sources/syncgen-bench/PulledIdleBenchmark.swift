import Foundation
import SyncRuntime
import SyncLocalCloud

/// The idle passes right after a device pulled a big account, beside the same passes of a device
/// that pulled the same and then ran many passes: the pull's own bookkeeping must not weigh on the
/// passes after it.
enum PulledIdleBenchmark {
    static let records = 100_000
    static let passes = 11
    static let caughtUpAfter = 60
    static let maxRatio = 2.0

    static func run() async -> Bool {
        print("idle pass after a big pull: the \(passes) passes right after pulling \(records) records, beside a device caught up (\(caughtUpAfter) passes later) (median of interleaved passes, range)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pulled-idle-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let cloud = try LocalCloud.inMemory(configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
            let writer = try engine("writer", in: folder, cloud: cloud)
            try writer.store.save(EngineBenchmark.notes(0..<records))
            guard case .completed = await writer.engine.sync() else { throw CloudError(.serviceUnavailable, "the writer's push failed") }
            let justPulled = try engine("just-pulled", in: folder, cloud: cloud)
            let caughtUp = try engine("caught-up", in: folder, cloud: cloud)
            for device in [justPulled, caughtUp] {
                guard case .completed = await device.engine.sync() else { throw CloudError(.serviceUnavailable, "a pull failed") }
            }
            for _ in 0..<caughtUpAfter { _ = await caughtUp.engine.sync() }
            let timings = await Measurement.interleaved(runs: passes, [justPulled.engine, caughtUp.engine].map(IdlePassBenchmark.idlePass))
            print("  right after the pull   \(timings[0].description)")
            print("  caught up              \(timings[1].description)")
            let ratio = timings[0].median / timings[1].median
            let met = ratio <= maxRatio
            print(String(format: "  target: within %.1fx of caught up (%.2fx): %@", maxRatio, ratio, Measurement.verdict(met)))
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    private static func engine(_ name: String, in folder: URL, cloud: LocalCloud) throws -> (store: SyncStore, engine: SyncEngine) {
        let store = try SyncStore(url: folder.appendingPathComponent("\(name).sqlite"))
        let configuration = SyncConfiguration(assetCacheRoot: folder.appendingPathComponent("\(name)-assets"))
        return (store, SyncEngine(store: store, cloud: try cloud.device(name, account: "bench"), schema: SyncSchema.self, configuration: configuration))
    }
}
