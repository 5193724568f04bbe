import Foundation
import SyncRuntime

/// Reading every model of a type from a store on file: `fetchAll` (one array, filtered in place)
/// and `forEach` (a page at a time), each with the memory it takes beyond what the process held
/// before it, beside the models themselves (the same models built in memory, one array). Linux
/// only reports memory (`VmHWM`, reset between the steps); elsewhere the figures are 0.
enum FetchBenchmark {
    static let rowCount = 100_000
    /// `fetchAll` holds one array: at most this many times the models' own memory.
    static let fetchAllTarget = 1.3
    /// `forEach` holds a page: at most this share of the models' own memory.
    static let walkTarget = 0.1

    static func note(_ index: Int) -> BenchNote {
        BenchNote(recordName: "note-\(index)", title: "Note \(index)", body: String(repeating: "b", count: 80), rank: Int64(index), done: index % 2 == 0)
    }

    static func run() -> Bool {
        print("fetch: \(rowCount) models read from a store on file, the memory each way takes beyond what the process held before it")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try SyncStore(url: folder.appendingPathComponent("store.sqlite"))
            for first in stride(from: 0, to: rowCount, by: 1_000) {
                try store.save((first..<min(first + 1_000, rowCount)).map(note))
            }
            // The read connection's page cache (at most 2 MiB, as every SQLite connection keeps)
            // is filled first, as the writer's was by the saves: a fixed cost, not the reads'.
            try store.forEach(BenchNote.self) { _ in }
            // Smallest first: memory the allocator keeps from one step is reused by the next,
            // which then shows less than it took; a larger step still shows its own.
            var walked = 0
            let walk = try extra { try store.forEach(BenchNote.self) { _ in walked += 1 } }
            var fetched: [BenchNote] = []
            let fetchAll = try extra { fetched = try store.fetchAll(BenchNote.self) }
            var built: [BenchNote] = []
            let models = try extra { built = (0..<rowCount).map(note) }
            guard walked == rowCount, fetched.count == rowCount, built.count == rowCount else {
                print("  failed: read \(walked) and \(fetched.count) models of \(rowCount)")
                return false
            }
            print(String(format: "  the models, built in memory   %7.1f MiB", models))
            print(String(format: "  fetchAll                      %7.1f MiB   %.2fx the models", fetchAll, models > 0 ? fetchAll / models : 0))
            print(String(format: "  forEach (pages of 500)        %7.1f MiB   %.2fx the models", walk, models > 0 ? walk / models : 0))
            let met = models == 0 || (fetchAll <= fetchAllTarget * models && walk <= walkTarget * models)
            print(String(format: "  target: fetchAll within %.1fx the models, forEach within %.1fx: %@", fetchAllTarget, walkTarget, Measurement.verdict(met)))
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    /// The peak memory `body` reached beyond what the process held when it began, in MiB.
    private static func extra(_ body: () throws -> Void) throws -> Double {
        Measurement.resetPeakMemory()
        let before = Measurement.currentMemoryMiB()
        try body()
        return max(0, Measurement.peakMemoryMiB() - before)
    }
}
