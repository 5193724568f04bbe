import SyncCore

/// Which names a schema cannot use. Most belong to the runtime (`RecordFieldNames`); the
/// generator's own are the table below. Locals and parameters of generated code never meet a
/// field's name: the generator names a model's fields through `self` where both are in scope.
public enum ReservedNames {
    /// Modules the generated code qualifies its types with (`Swift.String`, `Foundation.Date`,
    /// `SyncCore.RecordReference`): a member of one of these names would hide the module inside
    /// the model's own code.
    public static let generatedModuleQualifiers = ["Swift", "Foundation", "SyncCore"]

    /// Names Swift keeps for a type itself: `Self` is the type inside its own code (which a
    /// member of that name would hide), `Model.Type` and `Model.Protocol` are its metatypes (no
    /// member may have those names).
    public static let swiftTypeNames = ["Self", "Type", "Protocol"]

    /// Modules a model may not be named after: those the generated code qualifies its types
    /// with, and `SyncRuntime`, the one an app imports beside it.
    public static let moduleNames = generatedModuleQualifiers + ["SyncRuntime"]

    /// Member types generated models have: every model is `Identifiable` (its `ID`), and every
    /// draft declares its public model as `Projection`. Inside a model's code the member type is
    /// what the name means, so a model of that name could not be named there.
    public static let modelMemberTypes = ["ID", "Projection"]

    /// The member of the generated `SyncSchema` that lists the models, by their names: a model of
    /// that name would mean the list itself there.
    public static let schemaListMember = "models"

    /// Why a model may not be called `name`, beyond Swift's own rules (``SwiftNaming``), or nil
    /// when it may.
    public static func modelNameProblem(_ name: String) -> String? {
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
    public static func childNameProblem(_ name: String, parent: String, parentFields: [String]) -> String? {
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
        RecordFieldNames.cloudKitSystemFields + RecordFieldNames.assetFields + RecordFieldNames.publicationLifecycleFields
            + RecordFieldNames.runtimeFields + RecordFieldNames.modelMembers + swiftTypeNames + modelMemberTypes + generatedModuleQualifiers)

    /// Why a field may not be called `name`, or nil when it may.
    public static func fieldNameProblem(_ name: String) -> String? {
        guard reservedFieldNames.contains(name) else { return nil }
        if RecordFieldNames.cloudKitSystemFields.contains(name) {
            return "'\(name)' is a CloudKit system field"
        }
        if RecordFieldNames.assetFields.contains(name) {
            return "'\(name)' is added by the syncgen runtime for a model's asset"
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

    private static func lowercasedFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// Whether a record type name is one CloudKit reserves.
    public static func isReservedRecordType(_ name: String) -> Bool {
        RecordFieldNames.cloudKitRecordTypes.contains(name)
    }
}
