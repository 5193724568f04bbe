/// Rule 14: public models.
extension DiagnosticFacts {
    static let publicShareable = DiagnosticFacts(
        .error,
        summary: "a public model that is `shareable`",
        protects: "A public record offered as a share root: it is public already, and the public database has no shares.",
        fact: "CloudKit shares records of a private zone.")

    static let publicWithParent = DiagnosticFacts(
        .error,
        summary: "a public model with a `parent`",
        protects: "A public record under a parent: the public database has no share hierarchy.",
        fact: "A parent places a record in its parent's zone; public records have no zones of their own.")

    static let publicModelZone = DiagnosticFacts(
        .error,
        summary: "a public model with a `zone`",
        protects: "A zone the public database cannot hold: its records would never be saved.",
        fact: "The public database has one zone, its default; zones are for private and shared records.")
}
