import Foundation
import SyncRuntime
import SyncLocalCloud

/// Push and pull of 1k, 10k and 100k changes between two devices through LocalCloud (stores on
/// file), and a 100-change push into a store of 100k records beside one into an empty store:
/// the cost follows the changes, not the store. The engine's own time is the pass's CPU time less
/// the CPU time inside the cloud's requests (`TimedGateway`): LocalCloud's server work is
/// CloudKit's, not the device's. Beside it, the floor: the SQLite C API writing the three rows a
/// synced change leaves on a device (its model row, its server version, its history entry) into
/// tables of the store's shape, in one transaction per page of 200.
enum EngineBenchmark {
    /// The engine's own time of a push and of a pull at most this many times the floor's.
    static let target = 2.0

    static let runs = 5

    static func run() async -> Bool {
        print("engine: push from one device, pull on another, through LocalCloud (stores and cloud on file; CPU time)")
        print("  changes   push, all (engine)    pull, all (engine)    engine push/s   engine pull/s")
        var ok = true
        var engineSeconds: (push: Double, pull: Double) = (0, 0)
        var floor: [Double] = []
        for count in [1_000, 10_000, 100_000] {
            do {
                // The 10,000-change figures are the median of interleaved runs beside the floor.
                var samples: [(push: Double, pushCloud: Double, pull: Double, pullCloud: Double)] = []
                for _ in 0..<(count == 10_000 ? runs : 1) {
                    samples.append(try await pushAndPull(count))
                    if count == 10_000 { floor.append(floorPageWrites(count)) }
                }
                let all = (push: Measurement.median(samples.map(\.push)), pull: Measurement.median(samples.map(\.pull)))
                let engine = (push: Measurement.median(samples.map { $0.push - $0.pushCloud }), pull: Measurement.median(samples.map { $0.pull - $0.pullCloud }))
                print(String(format: "  %7d   %7.2f s (%6.2f s)   %7.2f s (%6.2f s)   %13.0f   %13.0f",
                    count, all.push, engine.push, all.pull, engine.pull, Double(count) / engine.push, Double(count) / engine.pull))
                if count == 10_000 { engineSeconds = engine }
            } catch {
                print("  \(count): failed: \(error)")
                ok = false
            }
        }
        if !floor.isEmpty {
            let floorSeconds = Measurement.median(floor)
            let (push, pull) = (engineSeconds.push / floorSeconds, engineSeconds.pull / floorSeconds)
            print(String(format: "  C API, a model row, a server version and a history entry per change, 200 a transaction: %.3f s for 10,000 (median of %d)", floorSeconds, floor.count))
            print(String(format: "  at 10,000 (median of %d): the engine's push takes %.2fx and its pull %.2fx the C API's time", runs, push, pull))
            let met = push <= target && pull <= target
            print(String(format: "  target: push and pull within %.0fx the C API: %@", target, Measurement.verdict(met)))
            ok = ok && met
        }
        print(String(format: "  peak memory: %.1f MiB", Measurement.peakMemoryMiB()))
        do {
            let empty = try await smallPush(into: 0)
            let full = try await smallPush(into: 100_000)
            let ratio = full / empty
            print(String(format: "  100-change push into an empty store: %.1f ms; into a 100,000-record store: %.1f ms (%.2fx)", empty * 1000, full * 1000, ratio))
            let met = ratio < 2
            print("  target: about the same cost (under 2x): \(Measurement.verdict(met))")
            ok = ok && met
        } catch {
            print("  small push failed: \(error)")
            ok = false
        }
        return ok
    }

    /// The floor: per change a model row, a server version and a history entry, by prepared
    /// statements into tables of the store's shape (made by a store, copied), a page of 200 per
    /// transaction, on file.
    private static func floorPageWrites(_ count: Int) -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-floor-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shape = folder.appendingPathComponent("shape.sqlite")
        try! SyncStore(url: shape).save(BenchNote(recordName: "shape"))
        let floor = SQLiteFloor(folder.appendingPathComponent("floor.sqlite"))
        floor.copyTables(["model_BenchNote", "sync_records", "history"], from: shape)
        let writeRow = floor.prepare("INSERT OR REPLACE INTO model_BenchNote (_name, _owner, _parent, _modified, _extra, title, body, rank, done) VALUES (?, ?, NULL, ?, NULL, ?, ?, ?, 0)")
        let writeVersion = floor.prepare("INSERT OR REPLACE INTO sync_records (zone_owner, zone, name, type, change_tag, fields, encrypted, modified, system_fields) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let writeHistory = floor.prepare("INSERT INTO history (type, name, kind, author, tombstone, at) VALUES (?, ?, 0, 'engine', NULL, ?)")
        let notes = notes(0..<count)
        let (fields, systemFields) = (Data(repeating: 7, count: 160), Data(repeating: 9, count: 120))
        return Measurement.seconds {
            for first in stride(from: 0, to: count, by: 200) {
                floor.transaction {
                    for note in notes[first..<min(first + 200, count)] {
                        writeRow.bind(1, note.recordName)
                        writeRow.bind(2, "")  // the user's own row keeps no owner's name
                        writeRow.bind(3, Double(note.rank))
                        writeRow.bind(4, note.title)
                        writeRow.bind(5, note.body)
                        writeRow.bind(6, note.rank)
                        writeRow.run()
                        writeVersion.bind(1, "")  // as the store keeps the user's zone
                        writeVersion.bind(2, SyncConstants.defaultSyncZoneName)
                        writeVersion.bind(3, note.recordName)
                        writeVersion.bind(4, BenchNote.recordType)
                        writeVersion.bind(5, "tag-\(note.rank)")
                        writeVersion.bind(6, fields)
                        writeVersion.bind(7, Data())
                        writeVersion.bind(8, Double(note.rank))
                        writeVersion.bind(9, systemFields)
                        writeVersion.run()
                        writeHistory.bind(1, BenchNote.recordType)
                        writeHistory.bind(2, note.recordName)
                        writeHistory.bind(3, Double(note.rank))
                        writeHistory.run()
                    }
                }
            }
        }
    }

    private struct Setup {
        let folder: URL
        let cloud: LocalCloud
        let writer: SyncStore
        let writerEngine: SyncEngine
        let writerGateway: TimedGateway

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads")))
            writer = try SyncStore(url: folder.appendingPathComponent("writer.sqlite"))
            writerGateway = TimedGateway(try cloud.device("writer", account: "bench"))
            writerEngine = SyncEngine(store: writer, cloud: writerGateway, schema: SyncSchema.self)
        }

        func reader() throws -> (SyncStore, SyncEngine, TimedGateway) {
            let store = try SyncStore(url: folder.appendingPathComponent("reader-\(UUID().uuidString).sqlite"))
            let gateway = TimedGateway(try cloud.device("reader-\(UUID().uuidString)", account: "bench"))
            return (store, SyncEngine(store: store, cloud: gateway, schema: SyncSchema.self), gateway)
        }
    }

    static func notes(_ range: Range<Int>) -> [BenchNote] {
        range.map { BenchNote(recordName: "note-\($0)", title: "Note \($0)", body: String(repeating: "b", count: 80), rank: Int64($0), done: false) }
    }

    /// Wall times of a push and a pull of `count` changes, and the time each spent in the cloud.
    private static func pushAndPull(_ count: Int) async throws -> (push: Double, pushCloud: Double, pull: Double, pullCloud: Double) {
        let setup = try await Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        _ = await setup.writerEngine.sync()
        for start in stride(from: 0, to: count, by: 1_000) { try setup.writer.save(notes(start..<min(start + 1_000, count))) }
        let cloudBefore = setup.writerGateway.seconds
        let pushStart = Measurement.now()
        guard case .completed = await setup.writerEngine.sync() else { throw CloudError(.serviceUnavailable, "push failed") }
        let push = Measurement.since(pushStart)
        let pushCloud = setup.writerGateway.seconds - cloudBefore
        let (readerStore, readerEngine, readerGateway) = try setup.reader()
        let pullStart = Measurement.now()
        guard case .completed = await readerEngine.sync() else { throw CloudError(.serviceUnavailable, "pull failed") }
        let pull = Measurement.since(pullStart)
        let pulled = try readerStore.count(BenchNote.self)
        precondition(pulled == count, "pulled \(pulled) of \(count)")
        return (push, pushCloud, pull, readerGateway.seconds)
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
        let start = Measurement.now()
        guard case .completed = await setup.writerEngine.sync() else { throw CloudError(.serviceUnavailable, "push failed") }
        return Measurement.since(start)
    }
}
