/// Rule 8: sharing.
extension DiagnosticFacts {
    static let shareableWithoutSharedScope = DiagnosticFacts(
        .error,
        summary: "`shareable` without `shared` in scopes",
        protects: "A share root whose records could never be read by anyone it is shared with.",
        fact: "Shared records live in the participants' shared database: the model needs `shared` in its scopes.")

    static let unknownParent = DiagnosticFacts(
        .error,
        summary: "`parent` names no model",
        protects: "A parent that does not exist, usually a typo.",
        fact: "A parent is a model of the schema.")

    static let parentScopeMismatch = DiagnosticFacts(
        .error,
        summary: "a parent's scopes differ from its child's",
        protects: "A child that cannot follow its parent into a shared zone.",
        fact: "A child lives in its parent's zone (CKRecord.parent), so both need the same scopes.")

    static let publicParent = DiagnosticFacts(
        .error,
        summary: "a parent that is a public model",
        protects: "A share hierarchy under a public record, which has none.",
        fact: "Public records live in the public database's one zone and are never shared.")

    static let parentCycle = DiagnosticFacts(
        .error,
        summary: "parent chains form a cycle",
        protects: "Parents that are each other's ancestors: no record could be uploaded first.",
        fact: "A child is uploaded after its parent; a chain of parents must end.")

    static let childZoneMismatch = DiagnosticFacts(
        .error,
        summary: "a child's zone differs from its parent's",
        protects: "A child CloudKit refuses: a record's parent must be in the record's own zone.",
        fact: "A child lives in its parent's zone (CKRecord.parent); give it its parent's `zone`, or none for both.")
}
