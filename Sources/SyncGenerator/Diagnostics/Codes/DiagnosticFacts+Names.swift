/// Rule 3: names.
extension DiagnosticFacts {
    static let invalidModelName = DiagnosticFacts(
        .error,
        summary: "a model name is not a Swift type identifier, or is one generated code keeps",
        protects: "A model name that cannot be a Swift type, or that would hide a name the generated code needs (`SyncSchema`, `SyncCore`, `ID`, `Projection`, `models`): the generated code would not compile, or would mean another type.",
        fact: "A model becomes a Swift struct of its name: an ASCII identifier that is no keyword and no name generated code keeps.")

    static let modelNameNotCapitalized = DiagnosticFacts(
        .warning,
        summary: "a model name does not start with an upper-case letter",
        protects: "Swift code that reads oddly: a type named like a value.",
        fact: "Swift type names start with an upper-case letter by convention; a lower-case one still compiles.")

    static let invalidRecordTypeName = DiagnosticFacts(
        .error,
        summary: "a record type name breaks CloudKit's naming rules",
        protects: "A record type CloudKit refuses when the schema is deployed.",
        fact: "CloudKit record type names start with a letter, hold only letters, digits and underscores, and are at most 255 characters long.")

    static let invalidFieldName = DiagnosticFacts(
        .error,
        summary: "a field name breaks CloudKit's naming rules",
        protects: "A field CloudKit refuses when the schema is deployed.",
        fact: "CloudKit field names start with a letter, hold only ASCII letters, digits and underscores, and are at most 255 characters long.")

    static let childNameHiddenInParent = DiagnosticFacts(
        .error,
        summary: "a child model is named like a member of its parent (a field, or a lower-case name)",
        protects: "Generated code that cannot name a child model: the parent lists its children (`childTypes`) inside its own code, where its field of the same name stands for the child.",
        fact: "Inside a Swift type, a member hides a type of the same name.")

    static let invalidZoneName = DiagnosticFacts(
        .error,
        summary: "a zone name CloudKit refuses",
        protects: "A zone the app could never create: every record of the model would fail to save.",
        fact: "Zone names are up to 255 ASCII characters and do not start with an underscore (`_defaultZone` is the database's own).")
}
