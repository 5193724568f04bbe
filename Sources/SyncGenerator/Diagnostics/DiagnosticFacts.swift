/// What syncgen says of one diagnostic code, written once (`Codes/`, grouped as the rules are):
/// how severe it is, the line that sums it up, what the rule protects against and the fact behind
/// it. Its example schemas are files of their own (``DiagnosticExamples``).
struct DiagnosticFacts: Sendable {
    let severity: Severity
    let summary: String
    let protects: String
    let fact: String

    init(_ severity: Severity, summary: String, protects: String, fact: String) {
        self.severity = severity
        self.summary = summary
        self.protects = protects
        self.fact = fact
    }
}

/// A code's example schemas, kept as YAML files a YAML tool can read
/// (docs/DiagnosticExamples/`<code>.failing.yaml`, `.fixed.yaml`, and `.baseline.yaml` for a code
/// that compares with the deployed schema), compiled into Generated/DiagnosticExamples.generated.swift.
struct DiagnosticExamples: Sendable {
    var baseline: String?
    var failing: String
    var fixed: String

    init(baseline: String? = nil, failing: String, fixed: String) {
        self.baseline = baseline
        self.failing = failing
        self.fixed = fixed
    }
}
