/// ``DiagnosticCode/explanation`` as people read it: in a terminal (`syncgen explain`) and in
/// docs/Diagnostics.md, both from the one table.
package enum ExplanationRenderer {
    /// One code's explanation, for a terminal.
    package static func text(_ code: DiagnosticCode) -> String {
        let explanation = code.explanation
        var lines = ["\(code.rawValue) (\(code.severity.rawValue)): \(plain(code.summary))", ""]
        lines += ["What it protects against:"] + wrapped(explanation.protects) + [""]
        lines += ["Why:"] + wrapped(explanation.fact) + [""]
        if let baseline = explanation.baseline {
            lines += ["The deployed schema, both examples are compared with:"] + indented(baseline) + [""]
        }
        lines += ["Reported (\(code.rawValue)):"] + indented(explanation.failing) + [""]
        lines += ["Fixed:"] + indented(explanation.fixed)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every code, a line each: its code, severity and summary.
    package static func list() -> String {
        DiagnosticCode.allCases.map { code in
            let severity = code.severity.rawValue
            return "\(code.rawValue)  \(severity)\(String(repeating: " ", count: max(0, 7 - severity.count)))  \(plain(code.summary))"
        }
            .joined(separator: "\n") + "\n\nRun 'syncgen explain <code>' for what a code's rule protects against, with examples.\n"
    }

    /// docs/Diagnostics.md: every code's explanation, each under a heading of its code.
    package static func markdown() -> String {
        var text = """
            # Diagnostics explained

            Every code `syncgen validate` and `syncgen diff` report: what its rule protects
            against, the fact behind it, and a schema it refuses beside the same schema fixed.
            `syncgen explain <code>` prints the same; `--format json` diagnostics link here. This
            page is generated from the records the validator uses (one per code, in
            `Sources/SyncGenerator/Diagnostics/Codes/`) and the example schemas in
            [DiagnosticExamples](DiagnosticExamples/), and a test holds every example to its word.

            """
        for code in DiagnosticCode.allCases {
            let explanation = code.explanation
            var paragraphs = [
                "## \(code.rawValue)", "**\(code.severity.rawValue)**: \(code.summary)",
                "What it protects against: \(explanation.protects)", "Why: \(explanation.fact)",
            ]
            if let baseline = explanation.baseline {
                paragraphs += ["The deployed schema, both examples are compared with:", fenced(baseline)]
            }
            paragraphs += ["Reported:", fenced(explanation.failing), "Fixed:", fenced(explanation.fixed)]
            text += "\n" + paragraphs.joined(separator: "\n\n") + "\n"
        }
        return text
    }

    private static func fenced(_ yaml: String) -> String {
        "```yaml\n\(yaml)\n```"
    }

    private static func indented(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
    }

    /// A summary without Markdown's backticks, for a terminal.
    private static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'")
    }

    /// Text in lines of at most 96 characters, indented by two.
    private static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in plain(text).split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > 94 {
                lines.append("  " + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append("  " + line) }
        return lines
    }
}
