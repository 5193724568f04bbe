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
}
