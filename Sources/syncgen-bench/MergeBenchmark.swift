import Foundation
import SyncCore
import SyncRuntime
import SyncLocalCloud

/// A record both devices changed, merged by the engine: a 100 KB text with 1% of its words changed
/// on each side (`merge: text`), and a counter each side changed (`merge: counter`), each beside a
/// last-writer-wins merge of the same record (the same fields, no `merge:`). The figure is what
/// the device pays for the conflict: the CPU time of the pass that meets it (its push refused,
/// the server's version merged, the merge pushed) less the time inside the cloud's requests, the
/// median of interleaved runs. The merge alone (`RecordMerge`, no store, no cloud) is printed
/// beside it. Then three 1 MB texts merged, with the memory that takes.
enum MergeBenchmark {
    static let runs = 5
    /// Text merge over last-writer-wins, and counter over last-writer-wins, at most.
    static let textWithin = 20.0
    static let counterWithin = 1.2
    /// The most memory a merge of three 1 MB texts may take above the process's, in MiB: the
    /// texts' bytes held again and a few bytes a token, not a table the square of anything.
    static let largeTextMemory = 24.0

    static func run() async -> Bool {
        print("merge: a record two devices changed, merged in a sync pass, beside a last-writer-wins merge of the same record (median of \(runs) interleaved runs, CPU time less the cloud's)")
        var ok = true
        do {
            let text = Texts(bytes: 100_000)
            precondition(TextMerge.merge(ancestor: text.base, local: text.mine, server: text.theirs, localIsLater: nil).text == text.both, "the bench's edits do not merge cleanly")
            let textTimings = try await interleaved([
                { try await conflictPass(BenchDocument.self, body: (text.base, text.mine, text.theirs), copies: (12, 12, 12), expect: (text.both, 12)) },
                { try await conflictPass(BenchDraft.self, body: (text.base, text.mine, text.theirs), copies: (12, 12, 12), expect: (text.theirs, 12)) },
            ])
            ok = report("100 KB text, 1% changed each side", merged: textTimings[0], lastWriterWins: textTimings[1], within: textWithin) && ok
            let counterTimings = try await interleaved([
                { try await conflictPass(BenchDocument.self, body: ("Eggs", "Eggs", "Eggs"), copies: (12, 11, 11), expect: ("Eggs", 10)) },
                { try await conflictPass(BenchDraft.self, body: ("Eggs", "Eggs", "Eggs"), copies: (12, 11, 11), expect: ("Eggs", 11)) },
            ])
            ok = report("a counter, each side took one", merged: counterTimings[0], lastWriterWins: counterTimings[1], within: counterWithin) && ok
            mergeAlone(text)
        } catch {
            print("  failed: \(error)")
            ok = false
        }
        return largeTexts() && ok
    }

    /// A 100 KB text in words, and two edits of it: each changes 1% of the words, in other places.
    struct Texts {
        var base: String
        var mine: String
        var theirs: String
        var both: String

        init(bytes: Int, seed: UInt64 = 61) {
            var random = seed
            var words: [String] = []
            var length = 0
            while length < bytes {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let word = Self.vocabulary[Int(random >> 33) % Self.vocabulary.count]
                words.append(word)
                length += word.utf8.count + 1
            }
            func edited(_ every: Int, _ at: Int, _ mark: String) -> [String] {
                words.indices.map { $0 % every == at ? words[$0] + mark : words[$0] }
            }
            let join = { (words: [String]) in words.joined(separator: " ") }
            base = join(words)
            mine = join(edited(100, 0, "é"))
            theirs = join(edited(100, 50, "s"))
            both = join(words.indices.map { $0 % 100 == 0 ? words[$0] + "é" : $0 % 100 == 50 ? words[$0] + "s" : words[$0] })
        }

        static let vocabulary = [
            "the", "household", "eggs", "milk", "bread", "took", "one", "from", "dozen", "shared", "list", "note", "typo", "fixed",
            "Alice", "Bob", "offline", "phone", "kitchen", "morning", "evening", "bought", "two", "three", "and", "or", "but", "café",
        ]
    }

    /// The CPU time of the pass in which the second device meets the first's change, less the
    /// cloud's: both start from `ancestor`, the first pushes `mine`, the second then syncs
    /// `theirs`. Checks the record each ends with.
    private static func conflictPass<Model: BenchMergeModel>(
        _ type: Model.Type, body: (String, String, String), copies: (Int64, Int64, Int64), expect: (String, Int64)
    ) async throws -> Double {
        let cloud = try LocalCloud.inMemory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try SyncStore(url: folder.appendingPathComponent("first.sqlite"))
        let second = try SyncStore(url: folder.appendingPathComponent("second.sqlite"))
        let firstEngine = SyncEngine(store: first, cloud: try cloud.device("first", account: "bench"), schema: SyncSchema.self)
        let gateway = TimedGateway(try cloud.device("second", account: "bench"))
        let secondEngine = SyncEngine(store: second, cloud: gateway, schema: SyncSchema.self)
        try first.save(Model(recordName: "doc", body: body.0, copies: copies.0))
        try await completed(firstEngine.sync())
        try await completed(secondEngine.sync())
        try first.save(Model(recordName: "doc", body: body.1, copies: copies.1))
        try await completed(firstEngine.sync())
        try second.save(Model(recordName: "doc", body: body.2, copies: copies.2))
        let cloudBefore = gateway.seconds
        let start = Measurement.now()
        try await completed(secondEngine.sync())
        let seconds = Measurement.since(start) - (gateway.seconds - cloudBefore)
        guard let merged = try second.fetch(Model.self, recordName: "doc") else { throw CloudError(.unknownItem, "the record is gone") }
        precondition(merged.body == expect.0 && merged.copies == expect.1, "\(Model.self) merged to another record")
        return seconds
    }

    private static func completed(_ result: SyncEngine.PassResult) throws {
        guard case .completed = result else { throw CloudError(.serviceUnavailable, "the pass did not complete: \(result)") }
    }

    private static func interleaved(_ bodies: [() async throws -> Double]) async throws -> [[Double]] {
        var samples = Array(repeating: [Double](), count: bodies.count)
        for _ in 0..<runs {
            for (index, body) in bodies.enumerated() { samples[index].append(try await body()) }
        }
        return samples
    }

    private static func report(_ label: String, merged: [Double], lastWriterWins: [Double], within: Double) -> Bool {
        let (merge, lww) = (Measurement.median(merged), Measurement.median(lastWriterWins))
        print("  \(label)")
        print("    last writer wins   \(Measurement.milliseconds(lww))")
        print("    merged             \(Measurement.milliseconds(merge))   \(String(format: "%.2f", merge / lww))x")
        let met = merge / lww <= within
        print("    target: within \(within)x the last-writer-wins pass: \(Measurement.verdict(met))")
        return met
    }

    /// The merge alone, for scale: `RecordMerge` on the three records, no store and no cloud.
    private static func mergeAlone(_ text: Texts) {
        let records = { (type: any BenchMergeModel.Type, body: (String, String, String), copies: (Int64, Int64, Int64)) in
            (type.init(recordName: "doc", body: body.0, copies: copies.0).makeRecord(),
             type.init(recordName: "doc", body: body.1, copies: copies.1).makeRecord(),
             type.init(recordName: "doc", body: body.2, copies: copies.2).makeRecord())
        }
        let cases: [(String, any BenchMergeModel.Type, (String, String, String), (Int64, Int64, Int64))] = [
            ("text merge", BenchDocument.self, (text.base, text.mine, text.theirs), (12, 12, 12)),
            ("last writer wins", BenchDraft.self, (text.base, text.mine, text.theirs), (12, 12, 12)),
            ("counter merge", BenchDocument.self, ("Eggs", "Eggs", "Eggs"), (12, 11, 11)),
            ("last writer wins", BenchDraft.self, ("Eggs", "Eggs", "Eggs"), (12, 11, 11)),
        ]
        let bodies: [() throws -> Void] = cases.map { _, type, body, copies in
            let (ancestor, local, server) = records(type, body, copies)
            let rules = type.mergeRules(policy: .lastWriterWins)
            return { for _ in 0..<10 { _ = RecordMerge.merge(ancestor: ancestor, local: local, server: server, rules: rules) } }
        }
        let timings = Measurement.interleaved(runs: runs, bodies)
        print("  the merge alone (RecordMerge, no store or cloud), for scale:")
        for (index, (label, _, _, _)) in cases.enumerated() {
            print("    \(index < 2 ? "100 KB text" : "counter    ")  \(label.padding(toLength: 17, withPad: " ", startingAt: 0)) \(String(format: "%10.3f ms", timings[index].median * 100))")
        }
    }

    /// Three 1 MB texts, each side with 1% of its words changed: the time, and the memory above
    /// what the process held before (the texts themselves made first).
    private static func largeTexts() -> Bool {
        let text = Texts(bytes: 1_000_000)
        Measurement.resetPeakMemory()
        let before = Measurement.currentMemoryMiB()
        var merged = ""
        let seconds = Measurement.seconds {
            merged = TextMerge.merge(ancestor: text.base, local: text.mine, server: text.theirs, localIsLater: nil).text
        }
        let memory = Measurement.peakMemoryMiB() - before
        let kept = merged == text.both
        print(String(format: "  three 1 MB texts, 1%% changed each side: merged in %.1f ms, %.1f MiB above the process's memory; both sides' edits kept: %@",
            seconds * 1000, memory, kept ? "yes" : "NO"))
        let met = kept && memory <= largeTextMemory
        print(String(format: "  target: both sides' edits kept, within %.0f MiB: %@", largeTextMemory, Measurement.verdict(met)))
        return met
    }
}

/// The two models the bench merges, built alike.
protocol BenchMergeModel: SyncModel {
    init(recordName: String, ownerName: String, body: String, copies: Int64)
    var body: String { get }
    var copies: Int64 { get }
}

extension BenchMergeModel {
    init(recordName: String, body: String, copies: Int64) {
        self.init(recordName: recordName, ownerName: SyncConstants.currentUserOwnerName, body: body, copies: copies)
    }
}

extension BenchDocument: BenchMergeModel {}
extension BenchDraft: BenchMergeModel {}
