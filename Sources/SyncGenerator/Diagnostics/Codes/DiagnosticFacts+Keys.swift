/// Rule 2: keys.
extension DiagnosticFacts {
    static let unknownKey = DiagnosticFacts(
        .error,
        summary: "a key syncgen does not know, with a suggestion when one is close",
        protects: "A misspelt key (`sharable`, `optinal`) silently ignored, so the option it meant is never set.",
        fact: "Every key of the schema language is known; anything else is refused, with the closest known key.")
}
