/// Rule 5: duplicates.
extension DiagnosticFacts {
    static let duplicateModel = DiagnosticFacts(
        .error,
        summary: "two models have one name",
        protects: "Two models of one name, of which only one could be generated.",
        fact: "All files of a schema folder form one schema: a model name is declared once in all of them.")

    static let duplicateRecordType = DiagnosticFacts(
        .error,
        summary: "two models have one record type",
        protects: "Two models writing into one record type, each reading the other's records as its own.",
        fact: "A CloudKit record type is one kind of record; each model has its own.")

    static let duplicateField = DiagnosticFacts(
        .error,
        summary: "two fields of one model have one name",
        protects: "Two fields of one name in a model: one record key for two values.",
        fact: "A record holds one value per key.")
}
