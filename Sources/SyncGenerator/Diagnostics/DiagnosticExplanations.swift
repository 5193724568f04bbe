/// What each diagnostic code's rule is for: what it protects against, the fact behind it
/// (``DiagnosticFacts``), and a schema that breaks it beside the same schema fixed
/// (``DiagnosticExamples``). `syncgen explain` prints it, docs/Diagnostics.md is generated from it,
/// and tests hold each example to its word (the failing one is reported with the code, the fixed
/// one is not, and validates).
extension DiagnosticCode {
    package var explanation: DiagnosticExplanation {
        let examples = self.examples
        return DiagnosticExplanation(
            protects: facts.protects, fact: facts.fact, baseline: examples.baseline, failing: examples.failing, fixed: examples.fixed)
    }
}
