import SyncCore
/// Prints diagnostics the way compilers do, so SwiftPM, Xcode and CI logs show them inline:
///
///     Schema/Notes.yaml:14:7: error: field 'author' references unknown model 'Persn'; did you mean 'Person'? [SG0601]
///     Schema/Notes.yaml:3:5: note: 'Person' is declared here
package enum DiagnosticTextRenderer {
    package static func render(_ diagnostic: Diagnostic) -> String {
        // What a schema wrote is echoed escaped: see `VisibleText`.
        var lines = ["\(VisibleText.escaped(diagnostic.location.description)): \(diagnostic.severity.rawValue): \(VisibleText.escaped(diagnostic.message)) [\(diagnostic.code.rawValue)]"]
        for note in diagnostic.notes {
            lines.append("\(VisibleText.escaped(note.location.description)): note: \(VisibleText.escaped(note.message))")
        }
        return lines.joined(separator: "\n")
    }

    package static func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { render($0) + "\n" }.joined()
    }
}

/// Prints diagnostics as a JSON array of `{file, line, column, severity, code, message,
/// documentation}`, where `documentation` is the code's explanation in syncgen's docs
/// (`docs/Diagnostics.md#sg0601`; `syncgen explain SG0601` prints the same).
///
/// Notes follow the diagnostic they belong to as entries of severity `note` carrying its code, so
/// the array reads in the same order as the text output.
package enum DiagnosticJSONRenderer {
    package static func render(_ diagnostics: [Diagnostic]) -> String {
        array(objects(diagnostics), indent: "") + "\n"
    }

    /// One JSON object per diagnostic and note, each on one line.
    static func objects(_ diagnostics: [Diagnostic]) -> [String] {
        var objects: [String] = []
        for diagnostic in diagnostics {
            objects.append(object(diagnostic.location, diagnostic.severity, diagnostic.code, diagnostic.message))
            for note in diagnostic.notes {
                objects.append(object(note.location, .note, diagnostic.code, note.message))
            }
        }
        return objects
    }

    /// A JSON array of one-line objects, one per line.
    static func array(_ objects: [String], indent: String) -> String {
        if objects.isEmpty { return "[]" }
        return "[\n" + objects.map { indent + "  " + $0 }.joined(separator: ",\n") + "\n\(indent)]"
    }

    private static func object(
        _ location: SourceLocation, _ severity: Severity, _ code: DiagnosticCode, _ message: String
    ) -> String {
        "{\"file\": \(QuotedText.json(location.file)), \"line\": \(location.line), "
            + "\"column\": \(location.column), \"severity\": \"\(severity.rawValue)\", "
            + "\"code\": \"\(code.rawValue)\", \"message\": \(QuotedText.json(message)), "
            + "\"documentation\": \"\(DiagnosticExplanation.documentation(for: code))\"}"
    }
}
