import Foundation
import SyncCore

/// A field as the container's schema knows it: its value type and whether it is encrypted.
struct SchemaField: Hashable, Sendable {
    var typeName: String
    var encrypted: Bool
}

/// The container's schema, built as CloudKit's development environment builds it: the first save
/// of a field fixes its type for every record of that type (Apple, `CKRecord`: "The first time you
/// set a value for a key and save the record, the server associates that type with the key for
/// all records of the same type"), and whether it is encrypted (Apple, `CKRecord.encryptedValues`:
/// "CloudKit doesn't allow encryption on fields that already exist in your app's schema"). One
/// schema serves every database of the container, as in CloudKit.
///
/// Fields are never removed or changed, so a field read from the store is cached for good; a
/// request that fails forgets the cache, since it may have read its own rolled-back additions.
extension LocalCloudServer {
    /// The first value of `record` CloudKit would refuse, checked against the schema and the
    /// fields earlier records of the same request add (`adding`, updated with this record's new
    /// fields).
    func schemaProblem(in record: SyncRecord, scope: DatabaseScope, adding: inout [String: SchemaField]) throws -> CloudError? {
        for (encrypted, fields) in [(false, record.fields), (true, record.encryptedFields)] {
            for (name, value) in fields {
                if let problem = Self.valueProblem(value, field: name, encrypted: encrypted, scope: scope) { return problem }
                guard let typeName = Self.schemaTypeName(of: value) else { continue }  // an empty list fixes nothing
                let field = SchemaField(typeName: typeName, encrypted: encrypted)
                let key = Self.schemaKey(record.recordType, name)
                guard let known = try adding[key] ?? schemaField(name, of: record.recordType) else {
                    adding[key] = field
                    continue
                }
                if known.typeName != field.typeName {
                    return CloudError(.invalidArguments, "field '\(name)' of record type \(record.recordType) holds \(known.typeName) in the schema; this save gives it \(field.typeName)")
                }
                if known.encrypted != field.encrypted {
                    return CloudError(.invalidArguments, "field '\(name)' of record type \(record.recordType) is \(known.encrypted ? "encrypted" : "not encrypted") in the schema; a field's encryption cannot change")
                }
            }
        }
        return nil
    }

    /// Adds a saved record's new fields to the schema.
    func extendSchema(with record: SyncRecord) throws {
        for (encrypted, fields) in [(false, record.fields), (true, record.encryptedFields)] {
            for (name, value) in fields {
                guard let typeName = Self.schemaTypeName(of: value), try schemaField(name, of: record.recordType) == nil else { continue }
                try database.query("INSERT OR IGNORE INTO schema_fields (record_type, field, value_type, encrypted) VALUES (?, ?, ?, ?)",
                    [.text(record.recordType), .text(name), .text(typeName), .integer(encrypted ? 1 : 0)])
            }
        }
    }

    /// Whether a field the schema encrypts: queries may neither filter nor sort on it.
    func isEncryptedInSchema(_ field: String, of recordType: String) throws -> Bool {
        try schemaField(field, of: recordType)?.encrypted == true
    }

    private func schemaField(_ name: String, of recordType: String) throws -> SchemaField? {
        let key = Self.schemaKey(recordType, name)
        if let cached = schemaCache[key] { return cached }
        guard let row = try database.query("SELECT value_type, encrypted FROM schema_fields WHERE record_type = ? AND field = ?", [.text(recordType), .text(name)]).first else { return nil }
        let field = SchemaField(typeName: row.text(0), encrypted: row.integer(1) == 1)
        schemaCache[key] = field
        return field
    }

    private static func schemaKey(_ recordType: String, _ field: String) -> String { recordType + "\u{0}" + field }

    /// A value CloudKit refuses whatever the schema: a list of mixed types or of lists; an
    /// encrypted value in the public database, or an encrypted reference or asset (Apple,
    /// `CKRecord.encryptedValues`: any type "except CKAsset, which is encrypted by default, and
    /// CKRecord.Reference, which isn't encrypted so it remains available for server-side use";
    /// no encryption "on records that you store in the public database").
    private static func valueProblem(_ value: SyncFieldValue, field: String, encrypted: Bool, scope: DatabaseScope) -> CloudError? {
        if case .list(let items) = value {
            if items.contains(where: { if case .list = $0 { true } else { false } }) {
                return CloudError(.invalidArguments, "field '\(field)' is a list of lists, which CloudKit does not store")
            }
            if Set(items.map(\.typeName)).count > 1 {
                return CloudError(.invalidArguments, "field '\(field)' is a list of mixed types (\(Set(items.map(\.typeName)).sorted().joined(separator: ", "))); a list holds one type")
            }
        }
        guard encrypted else { return nil }
        if scope == .public {
            return CloudError(.invalidArguments, "field '\(field)' is encrypted, and the public database stores no encrypted values")
        }
        let items: [SyncFieldValue] = if case .list(let items) = value { items } else { [value] }
        for item in items {
            switch item {
            case .reference:
                return CloudError(.invalidArguments, "field '\(field)' is an encrypted reference; CloudKit keeps references readable on the server")
            case .asset:
                return CloudError(.invalidArguments, "field '\(field)' is an encrypted asset; CloudKit encrypts assets by itself, so they go among plain values")
            default:
                continue
            }
        }
        return nil
    }

    /// The type a value fixes in the schema; nil for an empty list, whose type is not known.
    private static func schemaTypeName(of value: SyncFieldValue) -> String? {
        if case .list(let items) = value, items.isEmpty { return nil }
        return value.typeName
    }
}
