/// Rule 12: local-only and server-owned fields.
extension DiagnosticFacts {
    static let localOnlyAndServerOwned = DiagnosticFacts(
        .error,
        summary: "a field both `localOnly` and `serverOwned`",
        protects: "A field both never uploaded and always taken from the server: it can have no value.",
        fact: "`localOnly` keeps a field on the device; `serverOwned` takes it from the cloud.")

    static let deviceFieldEncrypted = DiagnosticFacts(
        .error,
        summary: "a `localOnly` or `serverOwned` field that is `encrypted`",
        protects: "Encryption of a value that is never uploaded.",
        fact: "Encryption is how CloudKit stores an uploaded value.")

    static let deviceFieldIndexed = DiagnosticFacts(
        .error,
        summary: "a `localOnly` or `serverOwned` field with an `index`",
        protects: "A CloudKit index of a value the device never uploads.",
        fact: "CloudKit indexes what it stores.")
}
