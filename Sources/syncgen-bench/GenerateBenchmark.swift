import SyncGenerator

/// Generation time for synthetic schemas of 1,000 and 10,000 models in one file (validated once,
/// beforehand): the median of interleaved runs, and the growth between the two sizes.
enum GenerateBenchmark {
    static let target = 1.0
    static let maxGrowth = 12.0
    /// Five in CI's quick mode, whose one figure is a ratio a stray slow run must not move.
    static var runs: Int { Bench.quick ? 5 : 3 }

    static func run() -> Bool {
        print("generate: Swift for synthetic schemas in one file (20 fields per model), validated beforehand (median of \(runs) interleaved runs, range)")
        print("  models  output bytes               generate")
        let generator = CodeGenerator()
        let inputs = [1_000, 10_000].map { count in
            let sources = SyntheticSchema.sources(modelCount: count)
            let files = sources.map { CodeGenerator.SchemaFile(path: $0.path, relativePath: String($0.path.dropFirst("Schema/".count))) }
            return (count, SchemaPipeline().validate(sources).schema!, files)
        }
        let thousand = SyntheticSchema.sources(modelCount: 1_000)
        let measured = Measurement.interleaved(runs: runs, inputs.map { _, schema, files in { _ = try generator.generate(schema, files: files) } } + [{ _ = SchemaPipeline().validate(thousand) }])
        let (timings, validateThousand) = (Array(measured.dropLast()), measured.last!)
        for ((count, schema, files), timing) in zip(inputs, timings) {
            let bytes = try! generator.generate(schema, files: files).reduce(0) { $0 + $1.contents.utf8.count }
            print("  \(Measurement.pad(count, 6)) \(Measurement.pad(bytes, 13)) \(timing.description)")
        }
        if Bench.quick { return Measurement.checkGrowth(timings, of: "the models", allowed: Bench.quickMaxGrowth) }
        let growth = timings[1].median / timings[0].median
        let fast = timings[0].median + validateThousand.median < target
        print("  target: validate + generate 1,000 models under \(Int(target * 1000)) ms: \(Measurement.verdict(fast))")
        print(String(format: "  target: 10x the models at most %.0fx the time (%.1fx): %@", maxGrowth, growth, Measurement.verdict(growth <= maxGrowth)))
        return fast && growth <= maxGrowth
    }
}
