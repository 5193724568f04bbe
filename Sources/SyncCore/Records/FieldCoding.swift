import Foundation

/// A Swift value a schema type maps to, and how it becomes a ``SyncFieldValue`` and back.
///
/// `fromSyncFieldValue` returns nil for a value of another type; decoding turns that into a
/// ``FieldDecodingError`` naming the record and field.
public protocol SyncFieldConvertible: Sendable {
    var syncFieldValue: SyncFieldValue { get }
    static func fromSyncFieldValue(_ value: SyncFieldValue) -> Self?
    /// The CloudKit type name, for messages.
    static var syncTypeName: String { get }
    /// The schema type a field of this Swift type has.
    static var syncValueType: FieldDescriptor.ValueType { get }
}

extension String: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .string(self) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
    public static var syncTypeName: String { "string" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.string) }
}

extension Int64: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .int64(self) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> Int64? {
        if case .int64(let number) = value { return number }
        return nil
    }
    public static var syncTypeName: String { "int64" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.int) }
}

extension Double: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .double(self) }
    /// Integers are accepted too: CloudKit dashboards and older clients write whole numbers as int64.
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> Double? {
        switch value {
        case .double(let number): number
        case .int64(let number): Double(number)
        default: nil
        }
    }
    public static var syncTypeName: String { "double" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.double) }
}

/// CloudKit has no boolean: a bool travels as int64 0 or 1 (any non-zero reads as true).
extension Bool: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .int64(self ? 1 : 0) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> Bool? {
        if case .int64(let number) = value { return number != 0 }
        return nil
    }
    public static var syncTypeName: String { "int64 (bool)" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.bool) }
}

extension Date: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .date(self) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> Date? {
        if case .date(let date) = value { return date }
        return nil
    }
    public static var syncTypeName: String { "date" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.date) }
}

extension Data: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .bytes(self) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> Data? {
        if case .bytes(let data) = value { return data }
        return nil
    }
    public static var syncTypeName: String { "bytes" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.data) }
}

extension SyncLocation: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .location(self) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> SyncLocation? {
        if case .location(let location) = value { return location }
        return nil
    }
    public static var syncTypeName: String { "location" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.location) }
}

/// A url travels as its absolute string; a string that does not parse as a URL is not one (a
/// decoding error naming the record and the field, never a reset value).
extension URL: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .string(absoluteString) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> URL? {
        if case .string(let text) = value { return URL(string: text) }
        return nil
    }
    public static var syncTypeName: String { "url" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.url) }

    /// What a required url field holds in a model decoded from a record without a value of it
    /// (one written before the field existed): `about:blank`, the address of nothing.
    @_spi(SyncgenGenerated) public static let unsetField = URL(string: "about:blank")!
}

/// A UUID travels as its canonical string, lowercase (RFC 9562: "output as lower case"); either
/// case reads back. A string that is not a UUID is not one.
extension UUID: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .string(uuidString.lowercased()) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> UUID? {
        if case .string(let text) = value { return UUID(uuidString: text) }
        return nil
    }
    public static var syncTypeName: String { "uuid" }
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.uuid) }
}

extension Array: SyncFieldConvertible where Element: SyncFieldConvertible {
    @inlinable public var syncFieldValue: SyncFieldValue { .list(map(\.syncFieldValue)) }
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> [Element]? {
        guard case .list(let items) = value else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard let element = Element.fromSyncFieldValue(item) else { return nil }
            elements.append(element)
        }
        return elements
    }
    public static var syncTypeName: String { "list of \(Element.syncTypeName)" }
    public static var syncValueType: FieldDescriptor.ValueType { .list(Element.syncValueType) }
}

extension RecordReference {
    /// The reference as a field value, with the schema's delete action.
    @inlinable public func syncFieldValue(action: ReferenceAction) -> SyncFieldValue {
        .reference(SyncReference(recordName: recordName, action: action))
    }
}

extension Array {
    /// A list of references as a field value, with the schema's delete action.
    @inlinable public func syncFieldValue<Target>(action: ReferenceAction) -> SyncFieldValue
    where Element == RecordReference<Target> {
        .list(map { $0.syncFieldValue(action: action) })
    }
}

/// A remote field whose value is not of the type the model declares: reported with the record and
/// field it came from, never a crash.
public struct FieldDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The record type of the record that held the value.
    public var recordType: String
    /// The record's name.
    public var recordName: String
    /// The field whose value did not decode.
    public var field: String
    /// The type the model declares, as the schema names it.
    public var expected: String
    /// What the record held instead.
    public var found: String

    /// An error for one field of one record.
    public init(recordType: String, recordName: String, field: String, expected: String, found: String) {
        self.recordType = recordType
        self.recordName = recordName
        self.field = field
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "\(recordType) record '\(recordName)': field '\(field)' holds \(found), expected \(expected)"
    }
}

extension SyncRecord {
    /// The value of `field`, or nil when the record has none.
    @inlinable
    package func decode<Value: SyncFieldConvertible>(_ field: String, as type: Value.Type) throws(FieldDecodingError) -> Value? {
        guard let value = self[field: field] else { return nil }
        guard let decoded = Value.fromSyncFieldValue(value) else {
            throw mismatch(field, expected: Value.syncTypeName, found: value)
        }
        return decoded
    }

    /// A reference field, typed by its target model.
    @inlinable
    package func decodeReference<Target>(_ field: String, to target: Target.Type) throws(FieldDecodingError) -> RecordReference<Target>? {
        guard let value = self[field: field] else { return nil }
        guard let reference = value.reference(to: target) else { throw mismatch(field, expected: SyncFieldValue.referenceTypeName, found: value) }
        return reference
    }

    /// A list-of-references field, typed by its target model.
    @inlinable
    package func decodeReferences<Target>(_ field: String, to target: Target.Type) throws(FieldDecodingError) -> [RecordReference<Target>]? {
        guard let value = self[field: field] else { return nil }
        guard let references = value.references(to: target) else { throw mismatch(field, expected: SyncFieldValue.referencesTypeName, found: value) }
        return references
    }

    /// An asset field's markers under its record keys, or nil when the record carries no file
    /// for it.
    @inlinable
    package func decodeAssetReference(_ keys: AssetRecordKeys) throws(FieldDecodingError) -> AssetReference? {
        guard let suffix = try decode(keys.suffix, as: String.self) else { return nil }
        let size = try decode(keys.size, as: Int64.self) ?? 0
        return AssetReference(suffix: suffix, byteSize: size, digest: try decode(keys.digest, as: String.self) ?? "")
    }

    @usableFromInline
    package func mismatch(_ field: String, expected: String, found value: SyncFieldValue) -> FieldDecodingError {
        FieldDecodingError(recordType: recordType, recordName: id.recordName, field: field, expected: expected, found: value.typeName)
    }
}

extension EncodedFields {
    /// Writes an asset field's markers for `asset` under its record keys (for no asset, clears
    /// them and the contents).
    @inlinable
    package mutating func encodeAssetReference(_ asset: AssetReference?, _ keys: AssetRecordKeys) {
        guard let asset else {
            emptyKeys.formUnion(keys.all)  // detached: contents and markers go together
            return
        }
        values.append(keys.suffix, .string(asset.suffix))
        values.append(keys.size, .int64(asset.byteSize))
        if asset.digest.isEmpty {
            emptyKeys.insert(keys.digest)  // contents whose digest is not known
        } else {
            values.append(keys.digest, .string(asset.digest))
        }
    }
}

extension SyncFieldValue {
    /// How a reference field's type is named in a decoding error.
    @usableFromInline static let referenceTypeName = "reference"
    @usableFromInline static let referencesTypeName = "list of reference"

    /// The value as a reference to a `Target`, or nil when it is not one.
    @inlinable
    package func reference<Target>(to target: Target.Type) -> RecordReference<Target>? {
        guard case .reference(let reference) = self else { return nil }
        return RecordReference(recordName: reference.recordName)
    }

    /// The value as a list of references to `Target`s, or nil when it is not one.
    @inlinable
    package func references<Target>(to target: Target.Type) -> [RecordReference<Target>]? {
        guard case .list(let items) = self else { return nil }
        var references: [RecordReference<Target>] = []
        references.reserveCapacity(items.count)
        for item in items {
            guard case .reference(let reference) = item else { return nil }
            references.append(RecordReference(recordName: reference.recordName))
        }
        return references
    }
}
