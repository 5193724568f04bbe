import Foundation

/// `swift run -c release syncgen-bench [validate] [generate] [bridge] [localcloud] [store] [engine] [idle] [pulled-idle] [query] [observation]`: the project's performance figures, each
/// printed beside its baseline and target. Exits 1 when a target is missed.
@main
enum Bench {
    static func main() async {
        let selected = Set(CommandLine.arguments.dropFirst())
        let all: [(name: String, run: () async -> Bool)] = [
            ("validate", { ValidateBenchmark.run() }),
            ("generate", { GenerateBenchmark.run() }),
            ("bridge", { BridgeBenchmark.run() }),
            ("localcloud", { await LocalCloudBenchmark.run() }),
            ("store", { StoreBenchmark.run() }),
            ("engine", { await EngineBenchmark.run() }),
            ("idle", { await IdlePassBenchmark.run() }),
            ("pulled-idle", { await PulledIdleBenchmark.run() }),
            ("query", { QueryBenchmark.run() }),
            ("observation", { await ObservationBenchmark.run() }),
        ]
        var allMet = true
        for (name, benchmark) in all where selected.isEmpty || selected.contains(name) {
            allMet = await benchmark() && allMet
            print()
        }
        exit(allMet ? 0 : 1)
    }
}
