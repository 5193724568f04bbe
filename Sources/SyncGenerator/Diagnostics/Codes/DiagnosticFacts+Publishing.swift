/// Rule 9: publishing.
extension DiagnosticFacts {
    static let unknownProjection = DiagnosticFacts(
        .error,
        summary: "`publishAs` names no model",
        protects: "A draft publishing into a model that does not exist, usually a typo.",
        fact: "`publishAs` names the public model the draft is copied into.")

    static let projectionNotPublic = DiagnosticFacts(
        .error,
        summary: "a `publishAs` target whose scopes are not exactly `[public]`",
        protects: "Publishing into a private model, which nobody else can read.",
        fact: "A projection is what everyone reads: it lives in the public database, and only there.")

    static let projectionIsDraft = DiagnosticFacts(
        .error,
        summary: "a `publishAs` target that is itself a draft",
        protects: "A chain of publications, which a projection's record name cannot carry.",
        fact: "A draft and its projection share a record name; a projection is not a draft itself.")

    static let draftNotPrivate = DiagnosticFacts(
        .error,
        summary: "a public model with `publishAs`",
        protects: "A public model publishing into another: it is public already.",
        fact: "A draft is private data with a public copy.")

    static let projectionFieldMissingInDraft = DiagnosticFacts(
        .error,
        summary: "a projection field the draft does not have (it would never be published)",
        protects: "A projection field the draft lacks: it would never be published (the seed library's silent bug).",
        fact: "A projection is copied field by field from its draft.")

    static let projectionFieldTypeMismatch = DiagnosticFacts(
        .error,
        summary: "a projection field whose type differs from the draft's",
        protects: "A projection field that cannot hold the draft's value.",
        fact: "A field is copied as it is: the same type on both sides (a reference may point at the projection of the draft's target).")

    static let projectionFieldOptionalityMismatch = DiagnosticFacts(
        .error,
        summary: "a projection field whose optionality differs from the draft's",
        protects: "A draft's nil copied into a required projection field, or a projection that can never be cleared.",
        fact: "A field is copied as it is: optional on both sides or on neither.")

    static let projectionSharedByDrafts = DiagnosticFacts(
        .error,
        summary: "two drafts publish into one projection",
        protects: "Two drafts overwriting each other's public copies.",
        fact: "A projection shares its draft's record name, so it has one draft.")
}
