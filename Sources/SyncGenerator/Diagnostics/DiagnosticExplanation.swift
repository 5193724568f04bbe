/// Why a diagnostic code's rule exists and how to satisfy it (``DiagnosticCode/explanation``).
public struct DiagnosticExplanation: Sendable, Hashable {
    /// What the rule protects against.
    public var protects: String
    /// The fact behind it: CloudKit's, Swift's, YAML's or syncgen's own.
    public var fact: String
    /// For a rule that compares with the deployed schema (`SG15nn`): that schema, which both
    /// examples are compared with.
    public var baseline: String?
    /// A schema file the rule refuses (or warns of).
    public var failing: String
    /// The same schema, satisfying the rule.
    public var fixed: String

    public init(protects: String, fact: String, baseline: String? = nil, failing: String, fixed: String) {
        self.protects = protects
        self.fact = fact
        self.baseline = baseline
        self.failing = failing
        self.fixed = fixed
    }

    /// Where the explanation stands in syncgen's documentation (docs/Diagnostics.md), by code.
    public static func documentation(for code: DiagnosticCode) -> String {
        "docs/Diagnostics.md#\(code.rawValue.lowercased())"
    }

    /// The command that prints it.
    public static func command(for code: DiagnosticCode) -> String {
        "syncgen explain \(code.rawValue)"
    }
}
