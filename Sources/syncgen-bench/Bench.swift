import Foundation

/// `swift run -c release syncgen-bench [validate]`: the project's performance figures, each
/// printed beside its baseline and target. Exits 1 when a target is missed.
@main
enum Bench {
    static func main() {
        let selected = Set(CommandLine.arguments.dropFirst())
        let all = ["validate": ValidateBenchmark.run]
        var allMet = true
        for (name, benchmark) in all.sorted(by: { $0.key < $1.key }) where selected.isEmpty || selected.contains(name) {
            allMet = benchmark() && allMet
            print()
        }
        exit(allMet ? 0 : 1)
    }
}
