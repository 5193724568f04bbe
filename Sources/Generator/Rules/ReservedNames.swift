import SyncCore

/// Which names a schema cannot use. The names themselves belong to the runtime
/// (`RecordFieldNames`): this is only the rule that reads them.
public enum ReservedNames {
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
        return nil
    }

    /// Whether a record type name is one CloudKit reserves.
    public static func isReservedRecordType(_ name: String) -> Bool {
        RecordFieldNames.cloudKitRecordTypes.contains(name)
    }
}
