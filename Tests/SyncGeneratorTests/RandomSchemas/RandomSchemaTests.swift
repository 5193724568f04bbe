import Foundation
import Testing
import SyncGenerator

/// The generator's promise, checked on schemas nobody wrote by hand: whatever `validate` passes,
/// `generate` turns into Swift that compiles warning-free in Swift 6 mode (internal and public
/// access) and gives every field the type the schema says; whatever it refuses, it refuses with
/// every diagnostic pointing into the files, and with the error each planted fault calls for.
///
/// Seeds 1 to 300 run every time. `SYNCGEN_SCHEMA_SEED=N` runs one seed alone (a failure names
/// its seed and the command); `SYNCGEN_SCHEMA_COUNT=K` runs K seeds (from
/// `SYNCGEN_SCHEMA_FIRST_SEED`, 1 by default) for a longer search.
@Suite("Random schemas: what validates compiles, what is refused is located")
struct RandomSchemaTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["SYNCGEN_SCHEMA_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["SYNCGEN_SCHEMA_COUNT"].flatMap(UInt64.init) ?? 300
        let first = environment["SYNCGEN_SCHEMA_FIRST_SEED"].flatMap(UInt64.init) ?? 1
        return Array(first..<(first + count))
    }()

    /// Schemas compiled together, as one module: their model names must not meet.
    static let schemasPerModule = 25

    /// Breaking it: put `\Note.title` back for `\Self.title` in the field table, or let a model be
    /// called `Projection`, and seeds fail with the compiler's errors (a field named after its
    /// model, a draft's reference to `Projection` typed as its projection).
    @Test func validSchemasCompileAndRefusalsAreLocated() async throws {  // trap: T21.7, T21.8
        var valid: [Generated] = []
        var refused = 0
        for seed in Self.seeds {
            let random = RandomSchema(seed: seed)
            let result = validate(random.files)
            guard let schema = result.schema else {
                refused += 1
                checkRefusal(random, result)
                continue
            }
            if !random.faults.isEmpty {
                Issue.record("\(Self.header(random)) validated, though \(random.faults) was planted in it\n\(random.listing)")
                continue
            }
            checkLocated(random, result.diagnostics)
            let access: CodeGenerator.AccessLevel = seed % 2 == 0 ? .public : .internal
            let files = random.files.keys.map { CodeGenerator.SchemaFile(path: $0, relativePath: $0) }
            valid.append(Generated(random: random, schema: schema, access: access, files: try CodeGenerator(accessLevel: access).generate(schema, files: files)))
        }
        let modules = Self.modules(valid)
        let compiler = try GeneratedCodeCompiler()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Two compilers at a time: the machines this runs on have two cores.
            for (index, module) in modules.enumerated() {
                if index >= 2 { try await group.next() }
                group.addTask { try await Self.compile(module, with: compiler) }
            }
            try await group.waitForAll()
        }
        print("random schemas: \(Self.seeds.count) (seeds \(Self.seeds.first!)-\(Self.seeds.last!)): \(valid.count) valid, compiled as \(modules.count) modules; \(refused) refused, every diagnostic located")
    }

    /// One seed's name in a failure, with the command that runs it alone.
    static func header(_ schema: RandomSchema) -> String {
        "seed \(schema.seed) (run it alone: SYNCGEN_SCHEMA_SEED=\(schema.seed) swift test --filter RandomSchemaTests)"
    }

    // MARK: - Refusals

    private func checkRefusal(_ schema: RandomSchema, _ result: SchemaPipeline.Result) {
        checkLocated(schema, result.diagnostics)
        let reported = Set(result.diagnostics.map(\.code))
        // A file that does not parse hides what else is wrong in it: then only its own error is owed.
        let masking: Set<DiagnosticCode> = [.yamlSyntax, .tagUnsupported, .mergeKeyUnsupported, .unsupportedVersion, .wrongValueKind]
        let owed = schema.faults.contains { masking.contains($0.code) } ? schema.faults.filter { masking.contains($0.code) } : schema.faults
        for fault in owed where !reported.contains(fault.code) {
            Issue.record("\(Self.header(schema)): \(fault.what) was planted but \(fault.code.rawValue) was not reported\n\(result.rendered)\n\(schema.listing)")
        }
    }

    /// Every diagnostic and note points at a line and column inside the file it names, and its
    /// text shows no raw control or reordering character.
    private func checkLocated(_ schema: RandomSchema, _ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            let places = [(diagnostic.message, diagnostic.location)] + diagnostic.notes.map { ($0.message, $0.location) }
            for (message, location) in places {
                guard let text = schema.files[location.file] else {
                    Issue.record("\(Self.header(schema)): \(diagnostic.code.rawValue) names no file of the schema: \(location)\n\(schema.listing)")
                    continue
                }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let lineLength = location.line >= 1 && location.line <= lines.count ? lines[location.line - 1].unicodeScalars.count : -1
                if lineLength < 0 || location.column < 1 || location.column > lineLength + 1 {
                    Issue.record("\(Self.header(schema)): \(diagnostic.code.rawValue) points outside its file, at \(location): \(message)\n\(schema.listing)")
                }
            }
            // As printed (text, then JSON), a diagnostic shows controls and reordering characters escaped.
            for printed in [DiagnosticTextRenderer.render(diagnostic), DiagnosticJSONRenderer.render([diagnostic])]
            where printed.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.properties.generalCategory == .format }) {
                Issue.record("\(Self.header(schema)): \(diagnostic.code.rawValue) prints a raw control character: \(printed.debugDescription)")
            }
        }
    }

    // MARK: - Compiling

    /// A valid schema and what the generator made of it.
    struct Generated {
        var random: RandomSchema
        var schema: Schema
        var access: CodeGenerator.AccessLevel
        var files: [GeneratedFile]
    }

    /// Schemas compiled as one module, each schema's files renamed apart.
    struct Module: Sendable {
        var name: String
        var schemas: [UInt64: RandomSchema] = [:]
        var files: [String: String] = [:]
        var modelNames: Set<String> = []
    }

    /// Valid schemas grouped into modules (the first module their model names fit in, so no two
    /// declare one type), with each schema's `SyncSchema` renamed after its seed and its
    /// expectations beside it.
    static func modules(_ valid: [Generated]) -> [Module] {
        var modules: [Module] = []
        for item in valid {
            let (random, schema, generated) = (item.random, item.schema, item.files)
            let names = Set(schema.models.map(\.name))
            var index = modules.firstIndex { $0.schemas.count < schemasPerModule && $0.modelNames.isDisjoint(with: names) }
            if index == nil {
                var module = Module(name: "RandomSchemas\(modules.count + 1)")
                module.files["Expectations.swift"] = CompiledExpectations.support()
                modules.append(module)
                index = modules.count - 1
            }
            let schemaType = "SyncSchema\(random.seed)"
            for file in generated {
                let contents = file.name == GeneratedFileNaming.schemaListFile
                    ? file.contents.replacingOccurrences(of: "enum \(SwiftNaming.schemaTypeName):", with: "enum \(schemaType):")
                    : file.contents
                modules[index!].files["S\(random.seed)_\(file.name)"] = contents
            }
            modules[index!].files["S\(random.seed)_Expectations.swift"] = CompiledExpectations.file(
                for: schema, module: modules[index!].name, schemaType: schemaType, function: "expectations\(random.seed)", access: item.access)
            modules[index!].schemas[random.seed] = random
            modules[index!].modelNames.formUnion(names)
        }
        return modules
    }

    /// The compiler's output cut into its diagnostics, each with the source lines it quotes.
    private static func diagnosticBlocks(_ output: String) -> [String] {
        var blocks: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.range(of: #"^\S+\.swift:\d+:\d+: (error|warning)"#, options: .regularExpression) != nil || blocks.isEmpty {
                blocks.append(String(line))
            } else {
                blocks[blocks.count - 1] += "\n" + line
            }
        }
        return blocks
    }

    /// Compiles a module; a failure is reported against each schema whose files the compiler
    /// complained of.
    private static func compile(_ module: Module, with compiler: GeneratedCodeCompiler) async throws {
        guard let output = try await compiler.compile(module: module.name, files: module.files) else { return }
        let blamed = module.schemas.values.filter { output.contains("S\($0.seed)_") }
        let blocks = diagnosticBlocks(output)
        for schema in blamed.isEmpty ? Array(module.schemas.values) : blamed {
            let own = blocks.filter { $0.hasPrefix("S\(schema.seed)_") }
            Issue.record("\(header(schema)): the generated code does not compile clean\n\(own.prefix(8).joined(separator: "\n"))\n\(schema.listing)")
        }
        if blamed.isEmpty { Issue.record("\(module.name) does not compile:\n\(output.prefix(4000))") }
    }
}
