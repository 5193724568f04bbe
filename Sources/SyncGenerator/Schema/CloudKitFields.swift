import SyncCore

/// The fields a model has in CloudKit's schema: its uploaded fields (never local-only ones; an
/// asset as its three runtime fields), the runtime's own fields, and the lifecycle of governed
/// catalogs. The one place the CloudKit view of a model is computed (the diff and the .ckdb export
/// both read it).
package enum CloudKitFields {
    package struct Field: Sendable, Hashable {
        /// The CloudKit type: STRING, INT64, LIST<STRING>...
        package var type: String
        /// The type as the schema language says it ("bool", "list of string"); the CloudKit
        /// type for the runtime's own fields.
        package var spelling: String
        package var isEncrypted: Bool
        package var indexes: Set<String>
        /// Required in Swift, with no value in older records.
        package var isRequired: Bool
        /// The record type a reference (or list of references) points at: CloudKit does not
        /// record it, but the app reads the records as that type.
        package var referenceTarget: String?
        /// An enum's case names: CloudKit keeps a string, but the records hold these names.
        package var enumCases: [String]?
        /// The schema's scalar type (a list's element's), when it is one.
        package var scalar: ScalarType?
        package var location: SourceLocation

        init(
            type: String, spelling: String? = nil, isEncrypted: Bool = false, indexes: Set<String> = [], isRequired: Bool = false,
            referenceTarget: String? = nil, enumCases: [String]? = nil, scalar: ScalarType? = nil, location: SourceLocation
        ) {
            self.type = type
            self.spelling = spelling ?? type
            self.isEncrypted = isEncrypted
            self.indexes = indexes
            self.isRequired = isRequired
            self.referenceTarget = referenceTarget
            self.enumCases = enumCases
            self.scalar = scalar
            self.location = location
        }
    }

    /// The fields of `model`, keyed by CloudKit field name; `schema` resolves reference targets
    /// to their record types.
    package static func of(_ model: Model, in schema: Schema) -> [String: Field] {
        var fields: [String: Field] = [:]
        for (field, keys) in model.assetFields where !field.isLocalOnly {
            fields[keys.contents] = Field(type: "ASSET", location: field.location)
            fields[keys.suffix] = Field(type: "STRING", location: field.location)
            fields[keys.size] = Field(type: "INT64", location: field.location)
            fields[keys.digest] = Field(type: "STRING", location: field.location)
        }
        for field in model.fields where !field.isLocalOnly && field.type != .scalar(.asset) {
            let indexes = Set(field.indexes.map { $0.rawValue.uppercased() })
            fields[field.recordKey] = Field(
                type: typeName(field.type), spelling: field.type.description, isEncrypted: field.isEncrypted, indexes: indexes,
                isRequired: !field.isOptional && field.defaultValue == nil && !field.isServerOwned,
                referenceTarget: field.type.referenceTarget.map { schema.model(named: $0)?.recordType ?? $0 },
                enumCases: field.enumeration?.cases, scalar: field.type.valueScalar, location: field.location)
        }
        fields[RecordFieldNames.clientModifiedAt] = Field(type: "TIMESTAMP", location: model.location)
        fields[RecordFieldNames.uploadVersions] = Field(type: "LIST<STRING>", location: model.location)
        if !model.uniqueKeys.isEmpty {
            fields[RecordFieldNames.mergedInto] = Field(type: "STRING", location: model.location)
        }
        if model.catalog?.isGoverned == true {
            let lifecycle: [(String, String, Set<String>)] = [
                (RecordFieldNames.publicationState, "STRING", ["QUERYABLE"]),
                (RecordFieldNames.publicationVersion, "INT64", []),
                (RecordFieldNames.publishedAt, "TIMESTAMP", ["SORTABLE"]),
                (RecordFieldNames.reviewState, "STRING", ["QUERYABLE"]),
                (RecordFieldNames.reviewNote, "STRING", []),
                (RecordFieldNames.reviewedVersion, "INT64", []),
            ]
            for (name, type, indexes) in lifecycle {
                fields[name] = Field(type: type, indexes: indexes, location: model.location)
            }
        }
        return fields
    }

    /// The CloudKit schema type of a field type (a bool is an INT64; CloudKit has no boolean).
    package static func typeName(_ type: FieldType) -> String {
        switch type {
        case .scalar(let scalar): scalar.facts.cloudKitType
        case .reference: "REFERENCE"
        case .list(let element): "LIST<\(typeName(element))>"
        }
    }
}
