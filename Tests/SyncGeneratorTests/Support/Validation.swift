import Foundation
import Testing
import SyncGenerator

/// Runs the whole front end (load, parse, validate) on in-memory files.
func validate(_ files: [String: String]) -> SchemaPipeline.Result {
    SchemaPipeline().validate(files.map { SchemaSource(path: $0.key, text: $0.value) })
}

func validate(_ yaml: String, file: String = "Schema.yaml") -> SchemaPipeline.Result {
    validate([file: yaml])
}

/// A diagnostic as tests compare it: code, severity and place.
struct Finding: Hashable, CustomStringConvertible {
    var code: DiagnosticCode
    var severity: Severity
    var line: Int
    var column: Int

    init(_ code: DiagnosticCode, _ severity: Severity = .error, line: Int, column: Int) {
        self.code = code
        self.severity = severity
        self.line = line
        self.column = column
    }

    init(_ diagnostic: Diagnostic) {
        self.init(diagnostic.code, diagnostic.severity, line: diagnostic.location.line, column: diagnostic.location.column)
    }

    var description: String { "\(code.rawValue) \(severity) at \(line):\(column)" }
}

extension SchemaPipeline.Result {
    var findings: [Finding] { diagnostics.map(Finding.init) }
    var rendered: String { DiagnosticTextRenderer.render(diagnostics) }
}

/// The repository's root folder, for tests that read the docs or fixtures.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Every `*.yaml` file of a repository folder, named by its path below `namedBelow` (the
/// repository root by default).
func schemaSources(_ folder: String, namedBelow base: String = "") throws -> [SchemaSource] {
    let url = repositoryRoot.appendingPathComponent(base).appendingPathComponent(folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".yaml") }.sorted()
    return try names.map { name in
        SchemaSource(path: "\(folder)/\(name)", bytes: Array(try Data(contentsOf: url.appendingPathComponent(name))))
    }
}

func fixtureSources(_ folder: String) throws -> [SchemaSource] {
    try schemaSources(folder, namedBelow: "Tests/SyncGeneratorTests/Fixtures")
}
