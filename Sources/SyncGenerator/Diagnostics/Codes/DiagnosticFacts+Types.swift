/// Rule 6: types.
extension DiagnosticFacts {
    static let unknownReferenceTarget = DiagnosticFacts(
        .error,
        summary: "`to` names no model",
        protects: "A reference to a model that does not exist, usually a typo.",
        fact: "A reference holds the record name of a record of the model `to` names. When one file of a folder is validated alone, a model declared in another file of the folder is unknown to the run: the error says which file declares it. Those files are read only then, so a file whose names all resolve costs what it alone costs.")

    static let unknownType = DiagnosticFacts(
        .error,
        summary: "a field type is not one of the schema's types",
        protects: "A misspelt or Swift-cased type (`String`, `Int`) that would give the field no type.",
        fact: "Field types are the schema's words: \(FieldKind.allCases.map(\.rawValue).joined(separator: ", ")).")

    static let modelNameUsedAsType = DiagnosticFacts(
        .error,
        summary: "a model name is used as a field type (write a reference)",
        protects: "`author: Person`, which reads like a reference but is not one.",
        fact: "A reference names its type and its target: `{ type: reference, to: Person }`.")

    static let defaultTypeMismatch = DiagnosticFacts(
        .error,
        summary: "a `default` is not a literal of the field's type",
        protects: "A default the generated code could not hold, or would change: text for a number, a date that does not exist (2024-02-30 rolled over to March), a number a Double cannot hold (1e-400 silently 0).",
        fact: "A default is a literal of the field's type, generated as a Swift literal that reads back exactly.")

    static let missingReferenceTarget = DiagnosticFacts(
        .error,
        summary: "a reference (or list of references) has no `to`",
        protects: "A reference to nothing: the generated code needs the target's type.",
        fact: "A reference, or a list of references, names its target model with `to`.")

    static let referenceTargetOnNonReference = DiagnosticFacts(
        .error,
        summary: "`to` on a field that is not a reference",
        protects: "A `to` that does nothing, on a field meant to be a reference.",
        fact: "Only a reference, or a list of references, has a target.")

    static let missingListElementType = DiagnosticFacts(
        .error,
        summary: "a list has no `of`",
        protects: "A list of nothing: the generated code needs the element type.",
        fact: "A list names its element type with `of`.")

    static let elementTypeOnNonList = DiagnosticFacts(
        .error,
        summary: "`of` on a field that is not a list",
        protects: "An `of` that does nothing, on a field meant to be a list.",
        fact: "Only a list has an element type.")

    static let nestedList = DiagnosticFacts(
        .error,
        summary: "a list of lists",
        protects: "A list of lists, which CloudKit cannot store.",
        fact: "A CloudKit list holds values of one scalar type (or references); never lists.")

    static let listOfAssets = DiagnosticFacts(
        .error,
        summary: "a list of assets",
        protects: "A list of files, which the asset cache cannot track and CloudKit stores only as separate assets.",
        fact: "Each asset field is one file, with its own cache entry and record keys; a fixed set of files is several asset fields, a growing one the records of a child model.")

    static let onDeleteOnNonReference = DiagnosticFacts(
        .error,
        summary: "`onDelete` on a field that is not a reference",
        protects: "An `onDelete` that does nothing, on a field that is not a reference.",
        fact: "A delete action belongs to a reference: what CloudKit does to this record when its target is deleted.")

    static let unknownDeleteAction = DiagnosticFacts(
        .error,
        summary: "`onDelete` is not `none` or `deleteSelf`",
        protects: "A delete action CloudKit does not have (`cascade`).",
        fact: "CloudKit's reference actions are `none` and `deleteSelf` (the referencing record is deleted with its target).")

    static let defaultNotSupported = DiagnosticFacts(
        .error,
        summary: "a `default` on a type that cannot have one",
        protects: "A default for a value that has no literal: bytes, a file, a place, a reference.",
        fact: "Defaults exist for string, int, double, bool, date and lists of them.")

    static let referenceAcrossDatabases = DiagnosticFacts(
        .error,
        summary: "a reference between a public and a non-public model",
        protects: "A reference that can never resolve: a public record and a private one live in different databases.",
        fact: "A CloudKit reference points at a record in the same zone, and the public database has no zones of the user's.")

    static let referenceAcrossScopes = DiagnosticFacts(
        .warning,
        summary: "a reference to a model that cannot live in the same zones",
        protects: "A reference that works in the owner's private zone but not once the record is shared: its target stays behind.",
        fact: "A shared zone holds the records of one share hierarchy; a reference cannot leave its zone.")

    static let missingEnumCases = DiagnosticFacts(
        .error,
        summary: "an `enum` (or a list of enums) has no `cases`, or an empty list",
        protects: "An enum with nothing to hold: the generated Swift enum needs its cases.",
        fact: "An enum names its cases: `{ type: enum, cases: [todo, doing, done] }`.")

    static let invalidEnumCase = DiagnosticFacts(
        .error,
        summary: "an enum case that is not an identifier, is repeated, or is a name the generated enum keeps",
        protects: "A case the generated Swift enum could not declare, or two cases that would be one.",
        fact: "Each case is a Swift case and the stored name: letters, digits and underscores, not starting with a digit, each once. `unknown` holds names another app version added; `init`, `self`, `Self`, `Type`, `Protocol`, `rawValue` and `allCases` are the enum's own, and `Swift`, `Foundation` and `SyncCore` name the modules its code uses.")

    static let casesOnNonEnum = DiagnosticFacts(
        .error,
        summary: "`cases` on a field that is not an enum",
        protects: "Cases that do nothing, on a field meant to be an enum.",
        fact: "Only an enum, or a list of enums, has cases.")

    static let referenceAcrossZones = DiagnosticFacts(
        .error,
        summary: "a reference to a model of another zone",
        protects: "A reference CloudKit refuses: the record holding it could never be saved.",
        fact: "A reference points at a record of its own zone; models that reference each other live in one zone.")
}
