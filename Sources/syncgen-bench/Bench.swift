import Foundation

/// `swift run -c release syncgen-bench [--quick] [validate] [lsp] [generate] [bridge] [localcloud] [store] [fetch] [update] [engine] [idle] [pulled-idle] [query] [catalog] [server-query] [observation] [contention] [merge] [import]`: the project's performance figures, each
/// printed beside its baseline and target. Exits 1 when a target is missed.
///
/// Each group runs in a process of its own (this program again, given that one group), so its
/// peak memory is its own and not what earlier groups left on the heap.
///
/// `--quick` is CI's: the groups that measure growth (validate, generate, catalog, idle) measure
/// only that, at their sizes or smaller, and check only that 10x the input costs at most
/// `quickMaxGrowth` times the CPU time (a ratio of two figures of one run, which a busy machine
/// does not move, where a quadratic path gives 100x). Their other targets are not checked.
@main
enum Bench {
    static let groups: [(name: String, run: @Sendable () async -> Bool)] = [
        ("validate", { ValidateBenchmark.run() }),
        ("lsp", { LanguageServerBenchmark.run() }),
        ("generate", { GenerateBenchmark.run() }),
        ("bridge", { BridgeBenchmark.run() }),
        ("localcloud", { await LocalCloudBenchmark.run() }),
        ("store", { await StoreBenchmark.run() }),
        ("fetch", { FetchBenchmark.run() }),
        ("update", { UpdateBenchmark.run() }),
        ("engine", { await EngineBenchmark.run() }),
        ("idle", { await IdlePassBenchmark.run() }),
        ("pulled-idle", { await PulledIdleBenchmark.run() }),
        ("query", { QueryBenchmark.run() }),
        ("search", { SearchBenchmark.run() }),
        ("counts", { CountsBenchmark.run() }),
        ("related", { RelatedBenchmark.run() }),
        ("catalog", { await CatalogBenchmark.run() }),
        ("server-query", { await ServerQueryBenchmark.run() }),
        ("observation", { await ObservationBenchmark.run() }),
        ("contention", { await ContentionBenchmark.run() }),
        ("merge", { await MergeBenchmark.run() }),
        ("import", { await ImportBenchmark.run() }),
    ]

    /// Growth only, for CI (`--quick`).
    static let quick = CommandLine.arguments.contains("--quick")
    /// What `--quick` allows for 10x the input: linear, with room for noise and caches. 13x was
    /// too little room on CI's machine: linear code measured 7-17x there (a catalog refresh's
    /// cost a record grows from 9 to 15 us at 10x the records, caches; a 18 ms small run moves
    /// the ratio most), and three CI runs of code no growth path changed failed at 13.6x, 14.1x
    /// and 15.3x. A path that costs the square of its input grows about 100x.
    static let quickMaxGrowth = 20.0
    /// The groups `--quick` runs when none is named.
    static let growthGroups = ["validate", "generate", "catalog", "idle"]

    static func main() async {
        var selected = Array(CommandLine.arguments.dropFirst().filter { $0 != "--quick" })
        if quick && selected.isEmpty { selected = growthGroups }
        if quick, let other = selected.first(where: { !growthGroups.contains($0) }) {
            print("syncgen-bench: --quick measures growth only, of \(growthGroups.joined(separator: " ")); not '\(other)'")
            exit(2)
        }
        if let unknown = selected.first(where: { name in !groups.contains { $0.name == name } }) {
            print("syncgen-bench: no group '\(unknown)'; the groups: \(groups.map(\.name).joined(separator: " "))")
            exit(2)
        }
        if selected.count == 1, let group = groups.first(where: { $0.name == selected[0] }) {
            exit(await group.run() ? 0 : 1)
        }
        var allMet = true
        for group in groups where selected.isEmpty || selected.contains(group.name) {
            allMet = runAlone(group.name) && allMet
            print()
            fflush(nil)  // what this process printed comes before the next group's lines
        }
        exit(allMet ? 0 : 1)
    }

    /// Runs one group in a new process of this program; whether its targets were met.
    private static func runAlone(_ name: String) -> Bool {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = quick ? ["--quick", name] : [name]
        do {
            try process.run()
        } catch {
            print("\(name): cannot start: \(error)")
            return false
        }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
