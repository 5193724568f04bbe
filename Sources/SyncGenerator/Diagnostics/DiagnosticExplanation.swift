/// Why a diagnostic code's rule exists and how to satisfy it (``DiagnosticCode/explanation``).
package struct DiagnosticExplanation: Sendable, Hashable {
    /// What the rule protects against.
    package var protects: String
    /// The fact behind it: CloudKit's, Swift's, YAML's or syncgen's own.
    package var fact: String
    /// For a rule that compares with the deployed schema (`SG15nn`): that schema, which both
    /// examples are compared with.
    package var baseline: String?
    /// A schema file the rule refuses (or warns of).
    package var failing: String
    /// The same schema, satisfying the rule.
    package var fixed: String

    package init(protects: String, fact: String, baseline: String? = nil, failing: String, fixed: String) {
        self.protects = protects
        self.fact = fact
        self.baseline = baseline
        self.failing = failing
        self.fixed = fixed
    }

    /// Where the explanation stands in syncgen's documentation (docs/Diagnostics.md), by code.
    package static func documentation(for code: DiagnosticCode) -> String {
        "docs/Diagnostics.md#\(code.rawValue.lowercased())"
    }

    /// The command that prints it.
    package static func command(for code: DiagnosticCode) -> String {
        "syncgen explain \(code.rawValue)"
    }
}
