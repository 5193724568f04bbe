import Foundation

/// A model's fields, each stated once: its name, how it travels, and the property that holds it.
///
/// Generated code lists a model's fields in one table (``SyncModel/_syncFields``); every direction
/// the runtime moves a model in is read from that one list: the upload (`encodeRemoteFields`),
/// the download (`applyRemoteFields`) and the device's own copy (`encodeStoredFields`,
/// `applyStoredFields`), as well as the descriptors (`fieldDescriptors`). An encoder and a decoder
/// cannot disagree about a field, since neither is written by hand or generated apart. The table
/// also holds the values a deleted record keeps and the empty record a pulled one is decoded into.
///
/// Everything here is the bridge's, not an app's: its builders and members are SPI, which
/// generated code (and a hand-written model) imports with `@_spi(SyncgenGenerated) import SyncCore`.
///
/// ```swift
/// static let _syncFields = SyncCore.ModelFields<Self>(
///     [
///         .parent(\Self.parent),
///         .field("text", \Self.text),
///         .field("note", \Self.note),                            // String?: optional
///         .field("pin", \Self.pin, .encrypted),
///         .reference("assignee", \Self.assignee, onDelete: .none),
///         .asset("photo", \Self.photo),
///     ],
///     tombstone: [SyncCore.TombstoneKeyPath("recordName", \Self.recordName), SyncCore.TombstoneKeyPath("ownerName", \Self.ownerName)],
///     empty: { Self(recordName: $0, ownerName: $1) })
/// ```
public struct ModelFields<Model: SyncModel>: Sendable {
    @usableFromInline let fields: [ModelField<Model>]
    /// The schema fields' descriptors, in table order (the parent and a lifecycle are not schema
    /// fields).
    @_spi(SyncgenGenerated) public let descriptors: [FieldDescriptor]
    /// The values a deleted record keeps, read through the concrete type's own key paths.
    @_spi(SyncgenGenerated) public let tombstone: [TombstoneKeyPath<Model>]
    /// A record with every field at its default (a required reference unset), named and owned as
    /// given: what a pulled record is decoded into.
    @usableFromInline let makeEmpty: @Sendable (_ recordName: String, _ ownerName: String) -> Model
    /// How many values an upload and a stored copy hold at most: each encoder allocates once.
    @usableFromInline let remoteCapacity: Int
    @usableFromInline var storedCapacity: Int { fields.count }
    /// Whether every field is kept as a plain value (no asset or lifecycle, which the runtime
    /// keeps in forms of their own; the parent is one): a store row of such a model is read
    /// straight into it (`applyStoredValues`).
    let storesPlainValues: Bool
    /// Each field's key in the device's own copy, in table order (`SyncModel.storedKeys`).
    let keys: [String]
    /// The asset fields, in table order, each with the record keys it travels under.
    let assetFields: [AssetField]

    /// The table of these rows, in schema order (the parent first, a lifecycle last), with the
    /// values a deletion keeps and the empty record.
    @_spi(SyncgenGenerated) public init(
        _ fields: [ModelField<Model>], tombstone: [TombstoneKeyPath<Model>],
        empty: @escaping @Sendable (_ recordName: String, _ ownerName: String) -> Model
    ) {
        // Each asset field's record keys, by the one rule (the first keeps the deployed ones).
        let assetKeys = AssetRecordKeys.of(assetFields: fields.filter { $0.asset != nil }.map(\.key))
        var assetIndex = 0
        let fields = fields.map { field in
            guard field.asset != nil else { return field }
            defer { assetIndex += 1 }
            return field.travelling(under: assetKeys[assetIndex])
        }
        self.fields = fields
        self.tombstone = tombstone
        makeEmpty = empty
        descriptors = fields.compactMap(\.descriptor)
        assetFields = fields.compactMap { field in field.asset.map { AssetField(name: field.key, recordKeys: $0.keys) } }
        remoteCapacity = fields.reduce(0) { $0 + $1.remoteValueCount }
        storesPlainValues = fields.allSatisfy { $0.assign != nil }
        keys = fields.map(\.key)
    }
}

/// How a field travels, beyond its type.
public struct FieldOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Kept in CloudKit's encrypted values.
    public static let encrypted = FieldOptions(rawValue: 1 << 0)
    /// Kept on this device: never uploaded, never overwritten by a pull.
    public static let localOnly = FieldOptions(rawValue: 1 << 1)
    /// Owned by the server: never uploaded, always taken from the server.
    public static let serverOwned = FieldOptions(rawValue: 1 << 2)
    /// Indexed (the schema's `index:`): the local store keeps an SQL index of the field's column.
    public static let indexed = FieldOptions(rawValue: 1 << 3)
    /// Searchable (the schema's `index: [searchable]`): the local store keeps the field's words
    /// in the model's text-search index.
    public static let searchable = FieldOptions(rawValue: 1 << 4)
}

/// One row of a model's field table: built by the static functions below, read only by the
/// runtime.
///
/// A row is one read and one write of the field's value under its key, which is how the device's
/// own copy keeps every field, and how the cloud gets a plain value. The rules every plain value
/// shares (a local-only or server-owned field is never uploaded, a local-only one never taken
/// from a pull, an encrypted one travels in the encrypted values) are applied once, by the loops
/// below. The fields the runtime keeps (the asset, the parent, a lifecycle) travel to and from
/// the cloud in a form of their own: `remote`.
public struct ModelField<Model: SyncModel>: Sendable {
    /// The schema field, or nil for the parent and a publication lifecycle.
    @usableFromInline let descriptor: FieldDescriptor?
    /// The key in the device's own copy (and in the cloud, for a plain value).
    @usableFromInline let key: String
    /// Reads and writes the value in a model, given the model's address (`Property`).
    @usableFromInline let read: @Sendable (UnsafeRawPointer) -> SyncFieldValue?
    @usableFromInline let write: @Sendable (UnsafeMutableRawPointer, SyncRecord) throws(FieldDecodingError) -> Void
    /// Sets the field from its value alone (nil: the record has none), as `write` does from a
    /// record: the way the store reads a row's columns straight into a model. Returns the type
    /// the field expected when the value is not of it. Nil for the fields the runtime keeps in a
    /// form of its own (the asset, a lifecycle).
    @usableFromInline let assign: (@Sendable (UnsafeMutableRawPointer, SyncFieldValue?) -> String?)?
    /// How a field the runtime keeps travels to and from the cloud, instead of `read` and `write`.
    @usableFromInline var remote: Remote?
    /// An asset field's value and record keys: what the asset cache reads and sets.
    @usableFromInline var asset: AssetSlot?
    /// The model's property that holds the field: what a query names the field by.
    @usableFromInline var keyPath: (AnyKeyPath & Sendable)?
    /// The descriptor's travel rules, read once here: the loops below test these plain flags
    /// rather than copy the descriptor (its strings) out of every row they visit.
    @usableFromInline let isUploaded: Bool
    @usableFromInline let isDownloaded: Bool
    @usableFromInline let isEncrypted: Bool

    /// The row, read through `keyPath`.
    @inlinable
    func reading(_ keyPath: AnyKeyPath & Sendable) -> ModelField {
        var field = self
        field.keyPath = keyPath
        return field
    }

    @usableFromInline
    struct Remote: Sendable {
        /// How many values it adds to an upload at most.
        let valueCount: Int
        @usableFromInline let encode: @Sendable (UnsafeRawPointer, inout EncodedFields) -> Void
        @usableFromInline let decode: @Sendable (UnsafeMutableRawPointer, SyncRecord) throws(FieldDecodingError) -> Void
    }

    /// An asset field's markers in a model, and the record keys they travel under (set by the
    /// table, which knows the field's place among the model's asset fields).
    @usableFromInline
    struct AssetSlot: Sendable {
        var keys: AssetRecordKeys
        let get: @Sendable (UnsafeRawPointer) -> AssetReference?
        let set: @Sendable (UnsafeMutableRawPointer, AssetReference?) -> Void
    }

    /// The asset row, travelling to and from the cloud under `keys`.
    func travelling(under keys: AssetRecordKeys) -> ModelField {
        guard var slot = asset else { return self }
        slot.keys = keys
        var field = self
        field.asset = slot
        field.remote = Remote(
            valueCount: keys.markers.count,
            encode: { [slot] model, fields in fields.encodeAssetReference(slot.get(model), slot.keys) },
            decode: { [slot] model, record throws(FieldDecodingError) in slot.set(model, try record.decodeAssetReference(slot.keys)) })
        return field
    }

    /// How many values the field adds to an upload at most.
    var remoteValueCount: Int {
        isUploaded ? remote?.valueCount ?? 1 : 0
    }

    /// A schema field whose value travels as it is: read and written through `assign`, from a
    /// record by its name.
    @usableFromInline
    init(
        _ name: String, _ type: FieldDescriptor.ValueType, isOptional: Bool, _ options: FieldOptions, merge: FieldMerge,
        read: @escaping @Sendable (UnsafeRawPointer) -> SyncFieldValue?,
        assign: @escaping @Sendable (UnsafeMutableRawPointer, SyncFieldValue?) -> String?
    ) {
        self.init(
            descriptor: FieldDescriptor(
                name: name, type: type, isOptional: isOptional, isEncrypted: options.contains(.encrypted),
                isLocalOnly: options.contains(.localOnly), isServerOwned: options.contains(.serverOwned),
                isIndexed: options.contains(.indexed), isSearchable: options.contains(.searchable), merge: merge),
            key: name, read: read,
            write: { model, record throws(FieldDecodingError) in
                let value = record[field: name]
                if let expected = assign(model, value), let value { throw record.mismatch(name, expected: expected, found: value) }
            },
            assign: assign, remote: nil)
    }

    init(
        descriptor: FieldDescriptor?, key: String,
        read: @escaping @Sendable (UnsafeRawPointer) -> SyncFieldValue?,
        write: @escaping @Sendable (UnsafeMutableRawPointer, SyncRecord) throws(FieldDecodingError) -> Void,
        assign: (@Sendable (UnsafeMutableRawPointer, SyncFieldValue?) -> String?)? = nil,
        remote: Remote?
    ) {
        self.descriptor = descriptor
        self.key = key
        self.read = read
        self.write = write
        self.assign = assign
        self.remote = remote
        asset = nil
        isUploaded = descriptor?.isUploaded ?? true
        isDownloaded = descriptor?.isLocalOnly != true
        isEncrypted = descriptor?.isEncrypted == true
    }

    /// A property of the model, read and written through the model's address. A stored property
    /// of the model itself (every generated field is one) is reached at its offset
    /// (`MemoryLayout.offset(of:)`, which exists for this use): no key path is applied per field,
    /// which takes about a quarter off what encoding and decoding cost. Any other property (a
    /// computed one of a hand-written model) goes through its key path.
    @usableFromInline
    struct Property<Value>: Sendable {
        @usableFromInline let offset: Int?
        @usableFromInline let keyPath: WritableKeyPath<Model, Value> & Sendable

        @inlinable
        init(_ keyPath: WritableKeyPath<Model, Value> & Sendable) {
            self.keyPath = keyPath
            offset = MemoryLayout<Model>.offset(of: keyPath)
        }

        @inlinable @inline(__always)
        func get(_ model: UnsafeRawPointer) -> Value {
            if let offset { return (model + offset).assumingMemoryBound(to: Value.self).pointee }
            return model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath]
        }

        @inlinable @inline(__always)
        func set(_ model: UnsafeMutableRawPointer, _ value: Value) {
            if let offset {
                (model + offset).assumingMemoryBound(to: Value.self).pointee = value
            } else {
                model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath] = value
            }
        }
    }

    // MARK: - Values

    /// A required field: a record without a value leaves the model's value as it is.
    @inlinable
    @_spi(SyncgenGenerated) public static func field<Value: SyncFieldConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Model, Value> & Sendable, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            name, Value.syncValueType, isOptional: false, options, merge: merge,
            read: { property.get($0).syncFieldValue },
            assign: { model, value in
                guard let value else { return nil }
                guard let decoded = Value.fromSyncFieldValue(value) else { return Value.syncTypeName }
                property.set(model, decoded)
                return nil
            }).reading(keyPath)
    }

    /// An optional field: a record without a value clears it.
    @inlinable
    @_spi(SyncgenGenerated) public static func field<Value: SyncFieldConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Model, Value?> & Sendable, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            name, Value.syncValueType, isOptional: true, options, merge: merge,
            read: { property.get($0)?.syncFieldValue },
            assign: { model, value in
                guard let value else {
                    property.set(model, nil)
                    return nil
                }
                guard let decoded = Value.fromSyncFieldValue(value) else { return Value.syncTypeName }
                property.set(model, decoded)
                return nil
            }).reading(keyPath)
    }

    // MARK: - References

    /// A required reference: an unset one (``RecordReference/unset``) has no value.
    @inlinable
    @_spi(SyncgenGenerated) public static func reference<Target>(
        _ name: String, _ keyPath: WritableKeyPath<Model, RecordReference<Target>> & Sendable,
        onDelete action: ReferenceAction, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            name, .reference(recordType: Target.recordType, action: action), isOptional: false, options, merge: merge,
            read: { model in
                let reference = property.get(model)
                return reference.isSet ? reference.syncFieldValue(action: action) : nil
            },
            assign: { model, value in
                guard let value else { return nil }
                guard let reference = value.reference(to: Target.self) else { return SyncFieldValue.referenceTypeName }
                property.set(model, reference)
                return nil
            }).reading(keyPath)
    }

    /// An optional reference: a record without a value clears it.
    @inlinable
    @_spi(SyncgenGenerated) public static func reference<Target>(
        _ name: String, _ keyPath: WritableKeyPath<Model, RecordReference<Target>?> & Sendable,
        onDelete action: ReferenceAction, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            name, .reference(recordType: Target.recordType, action: action), isOptional: true, options, merge: merge,
            read: { property.get($0)?.syncFieldValue(action: action) },
            assign: assigningOptional(property)).reading(keyPath)
    }

    /// Sets an optional reference from its value alone (`assign`): none clears it.
    @inlinable
    static func assigningOptional<Target>(_ property: Property<RecordReference<Target>?>) -> @Sendable (UnsafeMutableRawPointer, SyncFieldValue?) -> String? {
        { model, value in
            guard let value else {
                property.set(model, nil)
                return nil
            }
            guard let reference = value.reference(to: Target.self) else { return SyncFieldValue.referenceTypeName }
            property.set(model, reference)
            return nil
        }
    }

    /// A required list of references.
    @inlinable
    @_spi(SyncgenGenerated) public static func references<Target>(
        _ name: String, _ keyPath: WritableKeyPath<Model, [RecordReference<Target>]> & Sendable,
        onDelete action: ReferenceAction, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            name, .list(.reference(recordType: Target.recordType, action: action)), isOptional: false, options, merge: merge,
            read: { property.get($0).syncFieldValue(action: action) },
            assign: { model, value in
                guard let value else { return nil }
                guard let references = value.references(to: Target.self) else { return SyncFieldValue.referencesTypeName }
                property.set(model, references)
                return nil
            }).reading(keyPath)
    }

    /// An optional list of references.
    @inlinable
    @_spi(SyncgenGenerated) public static func references<Target>(
        _ name: String, _ keyPath: WritableKeyPath<Model, [RecordReference<Target>]?> & Sendable,
        onDelete action: ReferenceAction, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            name, .list(.reference(recordType: Target.recordType, action: action)), isOptional: true, options, merge: merge,
            read: { property.get($0)?.syncFieldValue(action: action) },
            assign: { model, value in
                guard let value else {
                    property.set(model, nil)
                    return nil
                }
                guard let references = value.references(to: Target.self) else { return SyncFieldValue.referencesTypeName }
                property.set(model, references)
                return nil
            }).reading(keyPath)
    }

    // MARK: - Runtime-kept fields

    /// An asset field: uploaded as its markers (suffix, size, digest) under the record keys
    /// ``AssetRecordKeys`` gives it, its contents moved by the asset cache; stored whole under the
    /// field's name.
    @_spi(SyncgenGenerated) public static func asset(
        _ name: String, _ keyPath: WritableKeyPath<Model, AssetReference?> & Sendable, _ options: FieldOptions = [], merge: FieldMerge = .model
    ) -> ModelField {
        let property = Property(keyPath)
        var field = ModelField(
            descriptor: FieldDescriptor(
                name: name, type: .scalar(.asset), isOptional: true, isLocalOnly: options.contains(.localOnly),
                isServerOwned: options.contains(.serverOwned), merge: merge),
            key: name,
            read: { property.get($0)?.storedValue },
            write: { model, record throws(FieldDecodingError) in property.set(model, try record.decodeStoredAssetReference(name)) },
            remote: nil)
        // Its record keys, and the remote form they give it, come from the table, which knows the
        // field's place among the model's asset fields (`ModelFields.init`).
        field.asset = AssetSlot(keys: AssetRecordKeys(field: name), get: { property.get($0) }, set: { property.set($0, $1) })
        return field.reading(keyPath)
    }

    /// The model's parent in a share hierarchy: CloudKit's `parent` in the cloud (the record's
    /// parent, from ``SyncModel/parentRecordName``, never a field), kept under the key `parent` in
    /// the device's own copy. Locally a plain value (the store keeps it in its `_parent` column and
    /// reads it back from there); in the cloud the record's parent.
    @_spi(SyncgenGenerated) public static func parent<Parent>(_ keyPath: WritableKeyPath<Model, RecordReference<Parent>?> & Sendable) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            descriptor: nil, key: RecordFieldNames.storedParent,
            read: { property.get($0)?.syncFieldValue(action: .none) },
            write: { model, record throws(FieldDecodingError) in
                property.set(model, try record.decodeReference(RecordFieldNames.storedParent, to: Parent.self))
            },
            assign: assigningOptional(property),
            remote: Remote(
                valueCount: 0,
                encode: { _, _ in },
                decode: { model, record throws(FieldDecodingError) in
                    property.set(model, record.parentRecordName.map { RecordReference(recordName: $0) })
                })).reading(keyPath)
    }

    /// A governed projection's publication lifecycle: its client-owned fields uploaded, the
    /// server's review taken from pulls, kept whole in the device's own copy.
    @_spi(SyncgenGenerated) public static func publicationLifecycle(_ keyPath: WritableKeyPath<Model, PublicationLifecycle> & Sendable) -> ModelField {
        let property = Property(keyPath)
        return ModelField(
            descriptor: nil, key: RecordFieldNames.storedLifecycle,
            read: { property.get($0).storedValue },
            write: { model, record throws(FieldDecodingError) in
                if let value = try record.decodeStoredLifecycle() { property.set(model, value) }
            },
            remote: Remote(
                valueCount: RecordFieldNames.publicationClientFields.count,
                encode: { model, fields in fields.encodePublicationLifecycle(property.get(model)) },
                decode: { model, record throws(FieldDecodingError) in
                    property.set(model, try record.decodePublicationLifecycle(updating: property.get(model)))
                })).reading(keyPath)
    }
}

// MARK: - Every direction, from the table

/// The bridge's four directions, read from the table. They are ``SyncModel`` requirements (SPI:
/// the runtime's, never an app's) with these defaults, inlinable, so each model's conformance gets them compiled for its own type:
/// a loop over its own table with every row's type known. The loops read the rows in place (by
/// index in the table's buffer) rather than copying each one out, which costs a retain and a
/// release per closure of the row.
extension SyncModel {
    /// Every schema field, in schema order (the field table's descriptors).
    @_spi(SyncgenGenerated) public static var fieldDescriptors: [FieldDescriptor] { _syncFields.descriptors }

    /// The values a deleted record keeps (recordName and ownerName), read through key paths the
    /// concrete type declared (trap T6.1).
    @_spi(SyncgenGenerated) public static var tombstoneKeyPaths: [TombstoneKeyPath<Self>] { _syncFields.tombstone }

    /// A record with every field at its default, to decode a pulled record into.
    @inlinable
    @_spi(SyncgenGenerated) public init(emptyRecordNamed recordName: String, ownerName: String) {
        self = Self._syncFields.makeEmpty(recordName, ownerName)
    }

    /// The keys of the device's own copy (`encodeStoredFields`): the fields, the parent, the
    /// asset, the lifecycle.
    package static var storedKeys: [String] { _syncFields.keys }

    /// Whether `applyStoredValues` can read the model's stored copy: every field a plain value.
    package static var storesPlainValues: Bool { _syncFields.storesPlainValues }

    /// The schema field a key path of the model names, or nil for a property that is not one.
    package static func fieldName(for keyPath: AnyKeyPath) -> String? {
        _syncFields.fields.first { field in field.descriptor != nil && field.keyPath.map { $0 as AnyKeyPath == keyPath } == true }?.key
    }

    /// The record to upload, from the table (see `SyncModel.makeRecord`).
    @inlinable
    @_spi(SyncgenGenerated) public func encodeRecord(in zone: ZoneID) -> SyncRecord {
        SyncRecord(
            recordType: Self.recordType,
            id: RecordID(recordName: recordName, zoneID: zone),
            upload: encodeRemoteFields(), parentRecordName: parentRecordName)
    }

    /// The upload, from the table (see `SyncModel.encodeRemoteFields()`), with the keys it leaves
    /// without a value noted as each row is read.
    @inlinable
    @_spi(SyncgenGenerated) public func encodeRemoteFields() -> EncodedFields {
        let table = Self._syncFields
        var fields = EncodedFields(capacity: table.remoteCapacity)
        withUnsafePointer(to: self) { pointer in
            let model = UnsafeRawPointer(pointer)
            table.fields.withUnsafeBufferPointer { rows in
                for index in rows.indices where rows[index].isUploaded {
                    if let remote = rows[index].remote {
                        remote.encode(model, &fields)
                    } else if let value = rows[index].read(model) {
                        if rows[index].isEncrypted {
                            fields.encryptedValues.append(rows[index].key, value)
                        } else {
                            fields.values.append(rows[index].key, value)
                        }
                    } else {
                        fields.emptyKeys.insert(rows[index].key)
                        if rows[index].isEncrypted { fields.emptyEncryptedKeys.insert(rows[index].key) }
                    }
                }
            }
        }
        return fields
    }

    /// The download, from the table (see `SyncModel.applyRemoteFields(from:)`).
    @inlinable
    @_spi(SyncgenGenerated) public mutating func applyRemoteFields(from record: SyncRecord) throws(FieldDecodingError) {
        let table = Self._syncFields
        try withUnsafeMutablePointer(to: &self) { (pointer) throws(FieldDecodingError) in
            let model = UnsafeMutableRawPointer(pointer)
            try table.fields.withUnsafeBufferPointer { (rows) throws(FieldDecodingError) in
                for index in rows.indices where rows[index].isDownloaded {
                    if let remote = rows[index].remote {
                        try remote.decode(model, record)
                    } else {
                        try rows[index].write(model, record)
                    }
                }
            }
        }
    }

    /// The device's own copy, from the table (see `SyncModel.encodeStoredFields()`).
    @inlinable
    @_spi(SyncgenGenerated) public func encodeStoredFields() -> RecordFields {
        let table = Self._syncFields
        var fields = RecordFields(minimumCapacity: table.storedCapacity)
        withUnsafePointer(to: self) { pointer in
            let model = UnsafeRawPointer(pointer)
            table.fields.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    if let value = rows[index].read(model) { fields.append(rows[index].key, value) }
                }
            }
        }
        return fields
    }

    /// A stored row read into a new model, appended to `models` (see
    /// `SyncModel.appendStoredRow`).
    @inlinable
    @_spi(SyncgenGenerated) public static func appendStoredRow(
        named recordName: String, ownerName: String, _ value: (_ field: Int) throws -> SyncFieldValue?, to models: inout [Self]
    ) throws {
        var model = Self(emptyRecordNamed: recordName, ownerName: ownerName)
        try model.applyStoredValues(value)
        models.append(consume model)
    }

    /// The device's own copy read back value by value, each field's from `value(index)` (the
    /// field's place in `storedKeys`), with no record between: how the store reads a row's
    /// columns into a model whose fields are all plain values (`storesPlainValues`).
    @inlinable
    @_spi(SyncgenGenerated) public mutating func applyStoredValues(_ value: (_ field: Int) throws -> SyncFieldValue?) throws {
        let table = Self._syncFields
        let name = recordName
        try withUnsafeMutablePointer(to: &self) { pointer in
            let model = UnsafeMutableRawPointer(pointer)
            try table.fields.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    guard let assign = rows[index].assign else { preconditionFailure("'\(rows[index].key)' is not a plain value") }
                    let found = try value(index)
                    if let expected = assign(model, found), let found {
                        throw FieldDecodingError(recordType: Self.recordType, recordName: name, field: rows[index].key, expected: expected, found: found.typeName)
                    }
                }
            }
        }
    }

    /// The device's own copy read back, from the table (see `SyncModel.applyStoredFields(from:)`).
    @inlinable
    @_spi(SyncgenGenerated) public mutating func applyStoredFields(from record: SyncRecord) throws(FieldDecodingError) {
        let table = Self._syncFields
        try withUnsafeMutablePointer(to: &self) { (pointer) throws(FieldDecodingError) in
            let model = UnsafeMutableRawPointer(pointer)
            try table.fields.withUnsafeBufferPointer { (rows) throws(FieldDecodingError) in
                for index in rows.indices { try rows[index].write(model, record) }
            }
        }
    }
}
