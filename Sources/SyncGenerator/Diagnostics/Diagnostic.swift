/// How serious a diagnostic is. A `note` is attached to another diagnostic, or stands alone as
/// advice on a schema that is fine as it is (``DiagnosticCode/severity``).
package enum Severity: String, Sendable, Hashable, Comparable {
    case error, warning, note

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One problem found in a schema, at one place, with a stable code.
///
/// Diagnostics are values: every stage collects them and returns them, so one run reports every
/// problem it can find rather than stopping at the first.
package struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A second place that explains the first: the other half of a duplicate, a link of a cycle,
    /// the declaration a "did you mean" points at.
    package struct Note: Hashable, Sendable {
        package var message: String
        package var location: SourceLocation

        package init(_ message: String, at location: SourceLocation) {
            self.message = message
            self.location = location
        }
    }

    package var severity: Severity
    package var code: DiagnosticCode
    package var message: String
    package var location: SourceLocation
    package var notes: [Note]

    /// A diagnostic with its code's severity (see ``DiagnosticCode/severity``).
    package init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [Note] = []) {
        self.severity = code.severity
        self.code = code
        self.message = message
        self.location = location
        self.notes = notes
    }

    package var description: String { DiagnosticTextRenderer.render(self) }
}

extension Array where Element == Diagnostic {
    package var hasErrors: Bool { contains { $0.severity == .error } }

    /// Diagnostics in reading order: by file, line, column, then code, so output never depends on
    /// the order in which rules happened to run.
    package func sortedForOutput() -> [Diagnostic] {
        sorted {
            ($0.location, $0.code.rawValue, $0.message) < ($1.location, $1.code.rawValue, $1.message)
        }
    }
}
