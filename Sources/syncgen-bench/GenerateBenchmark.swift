import SyncGenerator

/// Validate + generate time for synthetic schemas of 10, 100 and 1,000 models.
enum GenerateBenchmark {
    static let target = 1.0

    static func run() -> Bool {
        print("generate: validate + generate Swift for synthetic schemas (20 fields per model), best of 5")
        print("  models  output bytes      validate     generate        total   growth (x10 models)")
        var previous: Double?
        var largest = 0.0
        for count in [10, 100, 1_000] {
            let sources = SyntheticSchema.sources(modelCount: count)
            let files = sources.map { CodeGenerator.SchemaFile(path: $0.path, relativePath: String($0.path.dropFirst("Schema/".count))) }
            let pipeline = SchemaPipeline()
            let generator = CodeGenerator()
            let schema = pipeline.validate(sources).schema!
            let bytes = try! generator.generate(schema, files: files).reduce(0) { $0 + $1.contents.utf8.count }
            let validate = Measurement.bestSeconds { _ = pipeline.validate(sources) }
            let generate = Measurement.bestSeconds { _ = try! generator.generate(schema, files: files) }
            let total = validate + generate
            let growth = previous.map { String(format: "%6.1fx", total / $0) } ?? "      -"
            print("  \(Measurement.pad(count, 6)) \(Measurement.pad(bytes, 13)) \(Measurement.milliseconds(validate)) \(Measurement.milliseconds(generate)) \(Measurement.milliseconds(total))   \(growth)")
            previous = total
            largest = total
        }
        print("  target: 1,000 models under \(Int(target * 1000)) ms: \(largest < target ? "met" : "MISSED")")
        return largest < target
    }
}
