import SyncCore

/// Prints a schema in CloudKit's text schema language: the `.ckdb` file that
/// `xcrun cktool import-schema` (or the CloudKit Console's Import Schema) reads, so the container's
/// schema is deployed from the same YAML the app is generated from, never clicked together by hand.
///
/// Each model becomes one `RECORD TYPE` with CloudKit's system fields, its uploaded fields (never
/// local-only ones) and the runtime's own fields (``CloudKitFields``), sorted by name, with the
/// schema's indexes. `Users` is always declared (CloudKit has it in every container) and
/// `cloudkit.share` when a model is shareable, so the file describes the whole container and an
/// import never reads as removing them. `SyncgenZoneMove` is declared when a model lives in a
/// private zone: the runtime saves it when an app moves a zone's records
/// (`SyncEngine.moveZone(_:into:)`), and production CloudKit takes no record of a type it has not
/// deployed. The output depends only on the schema: the same models in
/// any file order print the same bytes.
package enum CloudKitSchemaExport {
    package static func ckdb(_ schema: Schema) -> String {
        var types: [RecordTypeDeclaration] = schema.models.map { model in
            RecordTypeDeclaration(
                name: model.recordType,
                fields: systemFields(recordIDQueryable: isRecordIDQueryable(model)) + customFields(of: model, in: schema),
                grants: defaultGrants)
        }
        types.append(users)
        if schema.models.contains(where: \.isShareable) {
            types.append(share)
        }
        if schema.models.contains(where: { !$0.scopes.isPublic }) {
            types.append(zoneMove)
        }
        var text = "DEFINE SCHEMA\n"
        for type in types.sorted(by: { $0.name < $1.name }) {
            text += "\n" + type.rendered
        }
        return text
    }

    // MARK: - Record types

    struct FieldDeclaration {
        var name: String
        var type: String
        var indexes: [String] = []
    }

    struct RecordTypeDeclaration {
        var name: String
        var fields: [FieldDeclaration]
        var grants: [String]

        var rendered: String {
            let width = fields.map { CloudKitSchemaExport.identifier($0.name).count }.max() ?? 0
            var lines = fields.map { field -> String in
                let name = CloudKitSchemaExport.identifier(field.name)
                let padding = String(repeating: " ", count: width - name.count)
                return ([name + padding, field.type] + field.indexes).joined(separator: " ")
            }
            lines += grants
            let body = lines.map { "        " + $0 }.joined(separator: ",\n")
            return "    RECORD TYPE \(CloudKitSchemaExport.identifier(name)) (\n\(body)\n    );\n"
        }
    }

    /// Whether the model's record type declares `___recordID` QUERYABLE: a query with no
    /// condition (a public catalog's refresh, a `ServerQuery` with no filter) needs it, and
    /// without the index production answers such a query with an error ("Field 'recordName' is
    /// not marked queryable"). Only the public database is queried.
    static func isRecordIDQueryable(_ model: Model) -> Bool {
        model.scopes.isPublic
    }

    /// The system field a query with no condition reads, under its `.ckdb` name.
    static let recordIDField = "___recordID"

    /// The fields CloudKit gives every record type.
    static func systemFields(recordIDQueryable: Bool) -> [FieldDeclaration] {
        [
            FieldDeclaration(name: "___createTime", type: "TIMESTAMP"),
            FieldDeclaration(name: "___createdBy", type: "REFERENCE"),
            FieldDeclaration(name: "___etag", type: "STRING"),
            FieldDeclaration(name: "___modTime", type: "TIMESTAMP"),
            FieldDeclaration(name: "___modifiedBy", type: "REFERENCE"),
            FieldDeclaration(name: recordIDField, type: "REFERENCE", indexes: recordIDQueryable ? ["QUERYABLE"] : []),
        ]
    }

    /// Everyone may read public records, any iCloud user may create them, and only a record's
    /// creator may change it: CloudKit's defaults, which the publishing model relies on. (CloudKit
    /// applies grants to the public database only.)
    static let defaultGrants = [#"GRANT WRITE TO "_creator""#, #"GRANT CREATE TO "_icloud""#, #"GRANT READ TO "_world""#]

    static let users = RecordTypeDeclaration(
        name: "Users",
        fields: systemFields(recordIDQueryable: true) + [FieldDeclaration(name: "roles", type: "LIST<INT64>")],
        grants: [#"GRANT WRITE TO "_creator""#, #"GRANT READ TO "_world""#])

    static let share = RecordTypeDeclaration(
        name: "cloudkit.share",
        fields: systemFields(recordIDQueryable: false) + [
            FieldDeclaration(name: "cloudkit.thumbnailImageData", type: "BYTES"),
            FieldDeclaration(name: "cloudkit.title", type: "STRING"),
            FieldDeclaration(name: "cloudkit.type", type: "STRING"),
        ],
        grants: defaultGrants)

    static let zoneMove = RecordTypeDeclaration(
        name: RecordFieldNames.zoneMoveRecordType,
        fields: systemFields(recordIDQueryable: false) + [
            FieldDeclaration(name: RecordFieldNames.zoneMovedFrom, type: "STRING"),
            FieldDeclaration(name: RecordFieldNames.zoneMovedInto, type: "STRING"),
        ],
        grants: defaultGrants)

    static func customFields(of model: Model, in schema: Schema) -> [FieldDeclaration] {
        CloudKitFields.of(model, in: schema).sorted { $0.key < $1.key }.map { name, field in
            FieldDeclaration(
                name: name, type: declaredType(field),
                indexes: indexOrder.filter { field.indexes.contains($0) })
        }
    }

    /// CloudKit's order of index keywords in its own exports.
    static let indexOrder = ["QUERYABLE", "SEARCHABLE", "SORTABLE"]

    /// `ENCRYPTED` qualifies the element type of a list: `LIST<ENCRYPTED STRING>`.
    static func declaredType(_ field: CloudKitFields.Field) -> String {
        guard field.isEncrypted else { return field.type }
        let listPrefix = "LIST<"
        if field.type.hasPrefix(listPrefix) {
            return listPrefix + "ENCRYPTED " + field.type.dropFirst(listPrefix.count)
        }
        return "ENCRYPTED " + field.type
    }

    // MARK: - Names

    /// A name as the schema language reads it: quoted when it is one of the language's words or
    /// not a plain CloudKit name (`"___recordID"`, `"cloudkit.share"`).
    static func identifier(_ name: String) -> String {
        let isPlain = CloudKitNaming.problem(with: name) == nil && !reservedWords.contains(name.uppercased())
        return isPlain ? name : "\"\(name)\""
    }

    /// The words of CloudKit's schema language (matched case-insensitively).
    static let reservedWords: Set<String> = [
        "AS", "ASSET", "BYTES", "CREATE", "DEFINE", "DOUBLE", "ENCRYPTED", "GRANT", "INT64", "LIST",
        "LOCATION", "NUMBER", "PREFERRED", "QUERYABLE", "READ", "RECORD", "REFERENCE", "ROLE", "SCHEMA",
        "SEARCHABLE", "SORTABLE", "STRING", "TIMESTAMP", "TO", "TYPE", "WRITE",
    ]
}
