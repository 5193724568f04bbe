/// Rule 11: encryption.
extension DiagnosticFacts {
    static let encryptedReference = DiagnosticFacts(
        .error,
        summary: "an encrypted reference or list of references",
        protects: "An encrypted reference, which CloudKit refuses: it must read references on the server (for parents, sharing and deleteSelf).",
        fact: "CloudKit encrypts values, never references.")

    static let encryptedIndexed = DiagnosticFacts(
        .error,
        summary: "an encrypted field with an `index`",
        protects: "An index on an encrypted field, which CloudKit refuses: it cannot index what it cannot read.",
        fact: "CloudKit indexes plain values only.")

    static let encryptedAssetRedundant = DiagnosticFacts(
        .warning,
        summary: "`encrypted` on an asset, which is always encrypted",
        protects: "A setting that does nothing.",
        fact: "CloudKit always encrypts assets.")

    static let encryptedInPublicModel = DiagnosticFacts(
        .error,
        summary: "an encrypted field in a public model",
        protects: "A public field meant to be secret: everyone reads the public database.",
        fact: "The public database stores no encrypted values.")
}
