/// Rule 10: catalogs.
extension DiagnosticFacts {
    static let catalogOnNonPublicModel = DiagnosticFacts(
        .error,
        summary: "`catalog` on a model that is not `[public]`",
        protects: "Catalog settings on a private model, which is read from its zone's change feed, never queried.",
        fact: "Only public records are read by queries (the public database has no change feed).")

    static let unknownDesiredKey = DiagnosticFacts(
        .error,
        summary: "a desired key names no field",
        protects: "A catalog query asking for a field that does not exist, usually a typo.",
        fact: "Desired keys are the fields a catalog query fetches.")

    static let assetAsDesiredKey = DiagnosticFacts(
        .error,
        summary: "an asset field as a desired key (asset contents are never fetched by catalog queries)",
        protects: "Every catalog query downloading every file: slow, and paid for in the user's bandwidth.",
        fact: "Catalog queries fetch an asset's markers (suffix, size, digest); readers download the file when they open it.")

    static let unknownInitialState = DiagnosticFacts(
        .error,
        summary: "`initialState` is not `listed` or `delisted`",
        protects: "A publication state the runtime does not have.",
        fact: "A governed record starts `listed` (visible at once) or `delisted` (waiting for review).")

    static let localOnlyDesiredKey = DiagnosticFacts(
        .warning,
        summary: "a desired key names a local-only field, which is never uploaded",
        protects: "A catalog query asking for a field that is never uploaded: it always comes back empty.",
        fact: "A local-only field stays on the device that wrote it.")

    static let initialStateWithoutGovernance = DiagnosticFacts(
        .warning,
        summary: "`initialState` on a catalog that is not `governed`, which has no publication state",
        protects: "An initial state that does nothing: only governed catalogs keep a publication state.",
        fact: "`governed: true` adds the publication-lifecycle fields the state lives in.")
}
