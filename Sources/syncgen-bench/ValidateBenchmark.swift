import SyncGenerator

/// Load + validate time for synthetic schemas of 10, 100 and 1,000 models, beside the cost of the
/// YAML parse alone (the baseline: what libyaml needs just to read the same bytes).
enum ValidateBenchmark {
    static let target = 0.5

    static func run() -> Bool {
        print("validate: load + parse + validate synthetic schemas (20 fields per model), best of 5")
        print("  models    bytes      yaml only     validate   per model   growth (x10 models)")
        var previous: Double?
        var largest = 0.0
        for count in [10, 100, 1_000] {
            let sources = SyntheticSchema.sources(modelCount: count)
            let bytes = sources.reduce(0) { $0 + $1.bytes.count }
            let pipeline = SchemaPipeline()
            let check = pipeline.validate(sources)
            precondition(check.schema != nil, "synthetic schema must be valid: \(check.diagnostics.prefix(3))")
            let loader = YAMLLoader()
            let yamlOnly = Measurement.bestSeconds {
                for source in sources { _ = loader.load(source.bytes, file: source.path) }
            }
            let seconds = Measurement.bestSeconds { _ = pipeline.validate(sources) }
            let growth = previous.map { String(format: "%6.1fx", seconds / $0) } ?? "      -"
            print("  \(Measurement.pad(count, 6)) \(Measurement.pad(bytes, 8)) \(Measurement.milliseconds(yamlOnly)) \(Measurement.milliseconds(seconds)) \(String(format: "%8.3f ms", seconds * 1000 / Double(count)))   \(growth)")
            previous = seconds
            largest = seconds
        }
        let verdict = largest < target ? "met" : "MISSED"
        print("  target: 1,000 models under \(Int(target * 1000)) ms: \(verdict); growth near 10x per 10x models is linear")
        print(String(format: "  peak memory: %.1f MiB", Measurement.peakMemoryMiB()))
        return largest < target
    }
}
