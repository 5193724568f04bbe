import SyncCore

/// Which names a schema cannot use. Most belong to the runtime (`RecordFieldNames`); the
/// generator's own are the table below. Locals and parameters of generated code never meet a
/// field's name: the generator names a model's fields through `self` where both are in scope.
package enum ReservedNames {
    /// Modules the generated code qualifies its types with (`Swift.String`, `Foundation.Date`,
    /// `SyncCore.RecordReference`): a member of one of these names would hide the module inside
    /// the model's own code.
    package static let generatedModuleQualifiers = ["Swift", "Foundation", "SyncCore"]

    /// Names Swift keeps for a type itself: `Self` is the type inside its own code (which a
    /// member of that name would hide), `Model.Type` and `Model.Protocol` are its metatypes (no
    /// member may have those names).
    package static let swiftTypeNames = ["Self", "Type", "Protocol"]

    /// Modules a model may not be named after: those the generated code qualifies its types
    /// with, and `SyncRuntime`, the one an app imports beside it.
    package static let moduleNames = generatedModuleQualifiers + ["SyncRuntime"]

    /// Member types generated models have: every model is `Identifiable` (its `ID`), and every
    /// draft declares its public model as `Projection`. Inside a model's code the member type is
    /// what the name means, so a model of that name could not be named there.
    package static let modelMemberTypes = ["ID", "Projection"]

    /// The member of the generated `SyncSchema` that lists the models, by their names: a model of
    /// that name would mean the list itself there.
    package static let schemaListMember = "models"

    /// Why a model may not be called `name`, beyond Swift's own rules (``SwiftNaming``), or nil
    /// when it may.
    package static func modelNameProblem(_ name: String) -> String? {
        if name == SwiftNaming.schemaTypeName {
            return "syncgen generates '\(name)' itself, to list the models"
        }
        if moduleNames.contains(name) {
            return "generated code names the module '\(name)', which a type of that name would hide"
        }
        if modelMemberTypes.contains(name) {
            return "generated models have a member type '\(name)', which the name would mean inside their code; try '\(name)Model'"
        }
        if name == schemaListMember {
            return "the generated '\(SwiftNaming.schemaTypeName).\(name)' lists the models by name, where the name would mean the list itself; try 'Models'"
        }
        return nil
    }

    /// Why a model may not be called `name` when it is a child of `parent`, whose fields are
    /// `parentFields`, or nil when it may. The generated parent names its children from inside its
    /// own code (`childTypes`), where a member of the parent of the same name would stand for the
    /// child: one of its fields, or a member every model has (all start with a lower-case letter).
    package static func childNameProblem(_ name: String, parent: String, parentFields: [String]) -> String? {
        if parentFields.contains(name) {
            return "'\(parent)' has a field '\(name)', which would stand for the model inside the generated '\(parent)' (it lists its children there); rename the field (try '\(lowercasedFirst(name))') or the model"
        }
        if let first = name.unicodeScalars.first, ("a"..."z").contains(first) {
            return "the generated '\(parent)' lists its children inside its own code, where the members every model has (they start with a lower-case letter) could stand for one; start the name with an upper-case letter"
        }
        return nil
    }

    /// Every name `fieldNameProblem` refuses, in one set: most fields are none of them, which one
    /// lookup tells before the lists are searched for the reason.
    private static let reservedFieldNames = Set(
        RecordFieldNames.cloudKitSystemFields + AssetRecordKeys.first.all + RecordFieldNames.publicationLifecycleFields
            + RecordFieldNames.runtimeFields + RecordFieldNames.modelMembers + swiftTypeNames + modelMemberTypes + generatedModuleQualifiers)

    /// Why a field may not be called `name`, or nil when it may.
    package static func fieldNameProblem(_ name: String) -> String? {
        guard reservedFieldNames.contains(name) else { return nil }
        if RecordFieldNames.cloudKitSystemFields.contains(name) {
            return "'\(name)' is a CloudKit system field"
        }
        if AssetRecordKeys.first.all.contains(name) {
            return "'\(name)' is added by the syncgen runtime for a model's first asset field"
        }
        if RecordFieldNames.publicationLifecycleFields.contains(name) {
            return "'\(name)' is added by the syncgen runtime to governed catalog models"
        }
        if RecordFieldNames.runtimeFields.contains(name) {
            return "'\(name)' is added by the syncgen runtime to every record"
        }
        if RecordFieldNames.modelMembers.contains(name) {
            return "'\(name)' is a member of every generated model type"
        }
        if swiftTypeNames.contains(name) {
            return "Swift keeps '\(name)' for the type itself (\(name == "Self" ? "the model's code names its own type so" : "it means the metatype")); try '\(lowercasedFirst(name))'"
        }
        if modelMemberTypes.contains(name) {
            return "generated models have a member type '\(name)', which the name would mean in a key path; try '\(lowercasedFirst(name))'"
        }
        if generatedModuleQualifiers.contains(name) {
            return "the generated code names the module '\(name)', which a member of that name would hide; try '\(lowercasedFirst(name))'"
        }
        return nil
    }

    /// Names an enum case may not have: `unknown` holds the names another app version added;
    /// the rest are members every generated enum has, names Swift keeps for a type, and the
    /// modules the enum's code names (a case of that name would hide the module there).
    package static let enumCaseNames = ["unknown", "init", "self", "Self", "Type", "Protocol", "rawValue", "allCases"] + generatedModuleQualifiers

    /// Why an enum case may not be called `name`, or nil when it may. A case is a Swift case and
    /// the name stored in CloudKit, so it is an identifier: ASCII letters, digits and
    /// underscores, not starting with a digit (a Swift keyword is fine: it is written in
    /// backticks).
    package static func enumCaseProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_") }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard let first = bytes.first, isLetter(first), bytes.allSatisfy({ isLetter($0) || isDigit($0) }) else {
            let words = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
            let suggestion = words.enumerated().map { $0 == 0 ? $1.prefix(1).lowercased() + $1.dropFirst() : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
            // Said as a suggestion: the editor's quick fix writes it in.
            let hint = suggestion.isEmpty || enumCaseProblem(suggestion) != nil ? "" : Suggestion.phrase(suggestion)
            return "is not an identifier: letters, digits and underscores, not starting with a digit\(hint)"
        }
        if enumCaseNames.contains(name) {
            return name == "unknown"
                ? "is the case the generated enum keeps for names another app version added"
                : "is a name the generated enum's own code uses (a member every enum has, a name Swift keeps for a type, or a module the code names)"
        }
        return nil
    }

    /// The name of the Swift enum generated for an enum field: the field's name, capitalized
    /// (`status` -> `Status`), with `Value` after it while that names something the model's code
    /// means otherwise: a model, one of the model's own fields or enums, a type Swift keeps
    /// (`Type` -> `TypeValue`), a member type every model has, a module the code names.
    package static func enumTypeName(forField field: String, isTaken: (String) -> Bool) -> String {
        var name = field.prefix(1).uppercased() + field.dropFirst()
        while isTaken(name) || namesEnumsAvoid.contains(name) { name += "Value" }
        return name
    }

    /// The names an enum's type never takes, whatever the schema: Swift's and the runtime's.
    private static let namesEnumsAvoid = Set(swiftTypeNames + ["Any"] + modelMemberTypes + moduleNames + [SwiftNaming.schemaTypeName])

    private static func lowercasedFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// Whether a record type name is one CloudKit or the runtime reserves.
    package static func isReservedRecordType(_ name: String) -> Bool {
        RecordFieldNames.reservedRecordTypes.contains(name)
    }
}
