import SyncCore

/// Which names a schema cannot use. Most belong to the runtime (`RecordFieldNames`); the
/// generator's own are the table below. Locals and parameters of generated code never meet a
/// field's name: the generator names a model's fields through `self` where both are in scope.
public enum ReservedNames {
    /// Modules the generated code qualifies its types with (`Swift.String`, `Foundation.Date`,
    /// `SyncCore.RecordReference`): a member of one of these names would hide the module inside
    /// the model's own code.
    public static let generatedModuleQualifiers = ["Swift", "Foundation", "SyncCore"]

    /// Names Swift allows no type member to have (`Model.Type` and `Model.Protocol` mean the
    /// metatypes).
    public static let swiftMetatypeNames = ["Type", "Protocol"]

    /// Why a field may not be called `name`, or nil when it may.
    public static func fieldNameProblem(_ name: String) -> String? {
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
        if swiftMetatypeNames.contains(name) {
            return "Swift allows no member named '\(name)' (it means the metatype); try '\(lowercasedFirst(name))'"
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
