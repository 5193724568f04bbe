import Foundation
import SyncLocalCloud
import SyncRuntime

/// Moving an app's data in: 100,000 models imported (`SyncEngine.importModels`, in batches of
/// 1,000: each batch's stored names read, its models saved, its mark written and settled) beside
/// the same models saved in batches of 1,000 (`SyncStore.save`), each run into a new store file,
/// the median of five interleaved runs, CPU time.
enum ImportBenchmark {
    static let count = 100_000
    static let batch = 1_000
    static let target = 1.3
    static let runs = 5

    static func run() async -> Bool {
        print("import: \(count) models imported in batches of \(batch), beside saving them in batches (median of \(runs) interleaved runs, CPU time)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
            let notes = (0..<count).map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: false) }
            var round = 0
            func newStore(_ kind: String) throws -> SyncStore {
                round += 1
                return try SyncStore(url: folder.appendingPathComponent("\(kind)-\(round).sqlite"))
            }
            let timings = Measurement.interleaved(runs: runs, [
                {
                    let store = try newStore("saved")
                    for first in stride(from: 0, to: count, by: batch) { try store.save(Array(notes[first..<first + batch])) }
                },
                {
                    let store = try newStore("imported")
                    let engine = SyncEngine(store: store, cloud: try cloud.device("importer-\(round)", account: "bench"), schema: SyncSchema.self, reachability: nil)
                    let done = try engine.importModels(notes, as: "bench", batchSize: batch)
                    precondition(done.imported == count)
                },
            ]).map(\.median)
            let (saveTime, importTime) = (timings[0], timings[1])
            print(String(format: "  SyncStore.save, in batches  %8.1f ms", saveTime * 1000))
            print(String(format: "  SyncEngine.importModels     %8.1f ms   %.2fx the batch saves", importTime * 1000, importTime / saveTime))
            let met = importTime <= target * saveTime
            print(String(format: "  target: the import within %.1fx the batch saves: %@", target, Measurement.verdict(met)))
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }
}
