/// Rule 4: reserved names.
extension DiagnosticFacts {
    static let reservedFieldName = DiagnosticFacts(
        .error,
        summary: "a field name is a CloudKit system field or one the runtime adds",
        protects: "A field that collides with a CloudKit system field, a field the runtime adds, or a member every generated model has: the record, or the generated code, would have two meanings for one name.",
        fact: "CloudKit keeps `recordName`, `creationDate`, `parent`... for itself; the runtime adds `ownerName`, `clientModifiedAt`, `syncgenVersions`, `syncgenMergedInto` and an asset's markers; every model has `id`, `hashValue`, `Self`.")

    static let reservedRecordTypeName = DiagnosticFacts(
        .error,
        summary: "a record type name is one CloudKit or the runtime reserves",
        protects: "A record type that collides with one CloudKit or the runtime defines itself.",
        fact: "`Users` is CloudKit's record type of user records, `cloudkit.share` that of shares; the runtime marks a zone's move with `SyncgenZoneMove` records.")
}
