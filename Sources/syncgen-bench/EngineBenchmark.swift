import Foundation
import SyncRuntime
import SyncLocalCloud

/// Push and pull of 1k, 10k and 100k changes between two devices through LocalCloud (stores on
/// file), and a 100-change push into a store of 100k records beside one into an empty store:
/// the cost follows the changes, not the store.
enum EngineBenchmark {
    static func run() async -> Bool {
        print("engine: push from one device, pull on another, through LocalCloud (stores and cloud on file)")
        print("  changes       push        pull    push changes/s   pull changes/s   peak RSS")
        var ok = true
        for count in [1_000, 10_000, 100_000] {
            do {
                let (push, pull) = try await pushAndPull(count)
                print(String(format: "  %7d  %9.2f s  %9.2f s   %14.0f   %14.0f   %7.1f MiB", count, push, pull, Double(count) / push, Double(count) / pull, Measurement.peakMemoryMiB()))
            } catch {
                print("  \(count): failed: \(error)")
                ok = false
            }
        }
        do {
            let empty = try await smallPush(into: 0)
            let full = try await smallPush(into: 100_000)
            let ratio = full / empty
            print(String(format: "  100-change push into an empty store: %.1f ms; into a 100,000-record store: %.1f ms (%.2fx)", empty * 1000, full * 1000, ratio))
            let met = ratio < 2
            print("  target: about the same cost (under 2x): \(met ? "met" : "MISSED")")
            ok = ok && met
        } catch {
            print("  small push failed: \(error)")
            ok = false
        }
        return ok
    }

    private struct Setup {
        let folder: URL
        let cloud: LocalCloud
        let writer: SyncStore
        let writerEngine: SyncEngine

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
            writer = try SyncStore(url: folder.appendingPathComponent("writer.sqlite"))
            writerEngine = SyncEngine(store: writer, cloud: try cloud.device("writer", account: "bench"), schema: SyncSchema.self)
        }

        func reader() throws -> (SyncStore, SyncEngine) {
            let store = try SyncStore(url: folder.appendingPathComponent("reader-\(UUID().uuidString).sqlite"))
            return (store, SyncEngine(store: store, cloud: try cloud.device("reader-\(UUID().uuidString)", account: "bench"), schema: SyncSchema.self))
        }
    }

    static func notes(_ range: Range<Int>) -> [BenchNote] {
        range.map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: false) }
    }

    private static func pushAndPull(_ count: Int) async throws -> (Double, Double) {
        let setup = try await Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        _ = await setup.writerEngine.sync()
        for start in stride(from: 0, to: count, by: 1_000) { try setup.writer.save(notes(start..<min(start + 1_000, count))) }
        Measurement.resetPeakMemory()
        let pushStart = DispatchTime.now().uptimeNanoseconds
        guard case .completed = await setup.writerEngine.sync() else { throw CloudError(.serviceUnavailable, "push failed") }
        let push = Double(DispatchTime.now().uptimeNanoseconds - pushStart) / 1e9
        let (readerStore, readerEngine) = try setup.reader()
        let pullStart = DispatchTime.now().uptimeNanoseconds
        guard case .completed = await readerEngine.sync() else { throw CloudError(.serviceUnavailable, "pull failed") }
        let pull = Double(DispatchTime.now().uptimeNanoseconds - pullStart) / 1e9
        let pulled = try readerStore.count(BenchNote.self)
        precondition(pulled == count, "pulled \(pulled) of \(count)")
        return (push, pull)
    }

    /// The time to push 100 new changes from a store that already holds `existing` synced records.
    private static func smallPush(into existing: Int) async throws -> Double {
        let setup = try await Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        for start in stride(from: 0, to: existing, by: 1_000) { try setup.writer.save(notes(start..<min(start + 1_000, existing))) }
        // Push them, then sync once more so the pushed records' own echo has been pulled: the
        // store is now simply large and in sync.
        _ = await setup.writerEngine.sync()
        _ = await setup.writerEngine.sync()
        try setup.writer.save(notes(existing..<existing + 100))
        let start = DispatchTime.now().uptimeNanoseconds
        guard case .completed = await setup.writerEngine.sync() else { throw CloudError(.serviceUnavailable, "push failed") }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
