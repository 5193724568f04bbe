/// Rule 7: scopes.
extension DiagnosticFacts {
    static let invalidScopeSet = DiagnosticFacts(
        .error,
        summary: "`scopes` is not one of the allowed sets",
        protects: "A set of databases no record can live in (`[shared]` alone: a shared record is always someone's private one first).",
        fact: "A model lives in `[private]`, `[private, shared]` or `[public]`.")

    static let privateAndPublicScopes = DiagnosticFacts(
        .error,
        summary: "`scopes: [private, public]` (use `publishAs`)",
        protects: "A model meant to be both private and public, which routes records by owner and sends private data to the public database (trap T7.3).",
        fact: "The private and public databases are told apart by zone, never by owner; a public copy of private data is a projection.")

    static let unknownScope = DiagnosticFacts(
        .error,
        summary: "a scope that is not `private`, `shared` or `public`",
        protects: "A misspelt database (`privat`), which would leave the model's routing undefined.",
        fact: "The databases are `private`, `shared` and `public`.")

    static let repeatedScope = DiagnosticFacts(
        .warning,
        summary: "a scope listed twice",
        protects: "A database named twice, usually a leftover of an edit.",
        fact: "Scopes are a set.")
}
