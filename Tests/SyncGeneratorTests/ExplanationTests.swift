import Foundation
import Testing
import SyncGenerator

/// Every diagnostic code's explanation holds to its word: its failing example is reported with
/// the code, its fixed example is not and validates (compared with the deployed schema, for the
/// codes that need one).
@Suite("Explanations: every code's examples fail and pass as they say")
struct ExplanationTests {
    /// The diagnostics of a schema file, compared with a baseline when there is one.
    static func diagnostics(_ yaml: String, baseline: String?) -> [Diagnostic] {
        let new = [SchemaSource(path: "Schema.yaml", text: yaml)]
        guard let baseline else { return validate(yaml).diagnostics }
        return BaselineCheck(baseline: [SchemaSource(path: "Deployed.yaml", text: baseline)], new: new).diagnostics
    }

    @Test(arguments: DiagnosticCode.allCases)
    func theFailingExampleFailsAndTheFixedOnePasses(_ code: DiagnosticCode) {
        let explanation = code.explanation
        #expect(!explanation.protects.isEmpty && !explanation.fact.isEmpty)
        let failing = Self.diagnostics(explanation.failing, baseline: explanation.baseline)
        #expect(failing.contains { $0.code == code }, "\(code.rawValue)'s failing example is not reported with it:\n\(DiagnosticTextRenderer.render(failing))")
        let fixed = Self.diagnostics(explanation.fixed, baseline: explanation.baseline)
        #expect(!fixed.contains { $0.code == code } && !fixed.hasErrors, "\(code.rawValue)'s fixed example does not pass:\n\(DiagnosticTextRenderer.render(fixed))")
    }

    /// docs/Diagnostics.md is the table, rendered: regenerated with `SYNCGEN_UPDATE_GOLDENS=1`.
    @Test func theDocumentationIsTheTable() throws {
        let url = repositoryRoot.appendingPathComponent("docs/Diagnostics.md")
        let rendered = ExplanationRenderer.markdown()
        if ProcessInfo.processInfo.environment["SYNCGEN_UPDATE_GOLDENS"] == "1" {
            try Data(rendered.utf8).write(to: url)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == rendered, "docs/Diagnostics.md is stale: run SYNCGEN_UPDATE_GOLDENS=1 swift test --filter ExplanationTests")
        for code in DiagnosticCode.allCases {
            #expect(rendered.contains("\n## \(code.rawValue)\n"), "\(code.rawValue) has no heading (its link's anchor)")
        }
    }

    /// The example schemas are YAML files (docs/DiagnosticExamples), one per code and role: a
    /// failing and a fixed schema for every code, and the deployed schema for a code that compares
    /// with one (SG15nn), nothing else.
    @Test func everyCodeHasItsExampleFilesAndNoFileIsStray() throws {
        let folder = repositoryRoot.appendingPathComponent("docs/DiagnosticExamples")
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        var expected: Set<String> = []
        for code in DiagnosticCode.allCases {
            expected.insert("\(code.rawValue).failing.yaml")
            expected.insert("\(code.rawValue).fixed.yaml")
            if code.rawValue.hasPrefix("SG15") { expected.insert("\(code.rawValue).baseline.yaml") }
        }
        #expect(present.subtracting(expected).isEmpty, "stray files: \(present.subtracting(expected).sorted())")
        #expect(expected.subtracting(present).isEmpty, "missing files: \(expected.subtracting(present).sorted())")
    }

    /// The example files, compiled into the generator (Generated/DiagnosticExamples.generated.swift, a switch the
    /// compiler holds to every code): regenerated with `SYNCGEN_UPDATE_GOLDENS=1`.
    @Test func theCompiledExamplesAreTheFiles() throws {
        let folder = repositoryRoot.appendingPathComponent("docs/DiagnosticExamples")
        func example(_ code: DiagnosticCode, _ role: String) throws -> String? {
            let url = folder.appendingPathComponent("\(code.rawValue).\(role).yaml")
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            var text = try String(contentsOf: url, encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }
        var lines = [
            "// Generated from docs/DiagnosticExamples by ExplanationTests: do not edit. Edit those files,",
            "// then run `SYNCGEN_UPDATE_GOLDENS=1 swift test --filter ExplanationTests`.",
            "",
            "extension DiagnosticCode {",
            "    /// The code's example schemas (``DiagnosticExamples``).",
            "    var examples: DiagnosticExamples {",
            "        switch self {",
        ]
        func literal(_ text: String) -> String {
            let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : String(repeating: " ", count: 16) + $0 }
            return "#\"\"\"\n" + body.joined(separator: "\n") + "\n" + String(repeating: " ", count: 16) + "\"\"\"#"
        }
        for code in DiagnosticCode.allCases {
            lines.append("        case .\(code):")
            lines.append("            DiagnosticExamples(")
            var arguments: [String] = []
            if let baseline = try example(code, "baseline") { arguments.append("baseline: " + literal(baseline)) }
            arguments.append("failing: " + literal(try example(code, "failing") ?? ""))
            arguments.append("fixed: " + literal(try example(code, "fixed") ?? ""))
            lines.append(arguments.map { String(repeating: " ", count: 16) + $0 }.joined(separator: ",\n") + ")")
        }
        lines += ["        }", "    }", "}", ""]
        let rendered = lines.joined(separator: "\n")
        let url = repositoryRoot.appendingPathComponent("Sources/SyncGenerator/Generated/DiagnosticExamples.generated.swift")
        if ProcessInfo.processInfo.environment["SYNCGEN_UPDATE_GOLDENS"] == "1" {
            try Data(rendered.utf8).write(to: url)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == rendered, "DiagnosticExamples.generated.swift is stale: run SYNCGEN_UPDATE_GOLDENS=1 swift test --filter ExplanationTests, build, and run it again")
    }
}
