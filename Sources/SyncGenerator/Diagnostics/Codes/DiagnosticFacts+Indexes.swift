import SyncCore

/// Rule 13: indexes.
extension DiagnosticFacts {
    static let searchableNonString = DiagnosticFacts(
        .error,
        summary: "`searchable` on a field that is not a string or list of strings",
        protects: "A full-text index CloudKit refuses on anything but text.",
        fact: "CloudKit's SEARCHABLE index tokenizes strings and lists of strings.")

    static let sortableUnsupported = DiagnosticFacts(
        .error,
        summary: "`sortable` on \(ScalarType.allCases.filter { !$0.facts.isSortable }.map(\.rawValue).joined(separator: ", ")), reference or list fields",
        protects: "A sort index CloudKit refuses on values without an order.",
        fact: "CloudKit sorts strings, numbers and dates; not bytes, files, places, references or lists.")

    static let unknownIndex = DiagnosticFacts(
        .error,
        summary: "an index that is not `queryable`, `sortable` or `searchable`",
        protects: "A misspelt index, which would never be created.",
        fact: "CloudKit's indexes are QUERYABLE, SORTABLE and SEARCHABLE.")
}
