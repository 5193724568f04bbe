import SyncGenerator

/// A validator's diagnostic as the protocol's `Diagnostic`: the word it points at as its range,
/// its notes as related information, its code linked to the code's explanation.
enum DiagnosticJSON {
    static func json(
        _ diagnostic: Diagnostic, lines: (String) -> TextLines, uri: (String) -> String, explanationsURL: String
    ) -> JSON {
        let location = diagnostic.location
        var related: [JSON] = []
        for note in diagnostic.notes {
            related.append([
                "location": ["uri": .string(uri(note.location.file)), "range": lines(note.location.file).wordRange(line: note.location.line, column: note.location.column).json],
                "message": .string(note.message),
            ])
        }
        var json: [String: JSON] = [
            "range": lines(location.file).wordRange(line: location.line, column: location.column).json,
            "severity": .number(Double(severity(diagnostic.severity))),
            "code": .string(diagnostic.code.rawValue),
            "codeDescription": ["href": .string(explanationsURL + "#" + diagnostic.code.rawValue.lowercased())],
            "source": "syncgen",
            "message": .string(diagnostic.message),
        ]
        if !related.isEmpty { json["relatedInformation"] = .array(related) }
        return .object(json)
    }

    /// The protocol's numbers: 1 error, 2 warning, 3 information.
    static func severity(_ severity: Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }
}
