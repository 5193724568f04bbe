/// One field of a model as the runtime sees it: its name, CloudKit type and how it travels.
public struct FieldDescriptor: Hashable, Sendable {
    /// A field's type, as the schema names it.
    public indirect enum ValueType: Hashable, Sendable {
        /// One value of a type of the schema language (``ScalarType``: its facts say how it is
        /// stored and sent).
        case scalar(ScalarType)
        /// A record of the same zone, of the record type named.
        case reference(recordType: String, action: ReferenceAction)
        /// A list of values of one type.
        case list(ValueType)

        /// The record type a reference, or a list of references, points at.
        package var referenceTarget: String? {
            switch self {
            case .reference(let recordType, _): recordType
            case .list(let element): element.referenceTarget
            default: nil
            }
        }
    }

    /// The field's name: the CloudKit record key.
    public var name: String
    /// The field's CloudKit type.
    public var type: ValueType
    /// Whether the field may have no value.
    public var isOptional: Bool
    /// Stored in CloudKit's encrypted values.
    public var isEncrypted: Bool
    /// Kept on this device: never uploaded, never overwritten by a pull.
    public var isLocalOnly: Bool
    /// Never uploaded; always taken from the server on pull.
    public var isServerOwned: Bool
    /// The schema gives it an `index:`: the local store keeps an SQL index of its column too.
    public var isIndexed: Bool
    /// The schema marks it `searchable`: the local store keeps its words in the model's
    /// text-search index (`Query.matching(_:)`).
    public var isSearchable: Bool
    /// How concurrent edits of the field combine.
    public var merge: FieldMerge

    /// A field; by default required, plain, uploaded and pulled, not indexed nor searchable,
    /// merged by the model's policy.
    public init(
        name: String, type: ValueType, isOptional: Bool = false, isEncrypted: Bool = false,
        isLocalOnly: Bool = false, isServerOwned: Bool = false, isIndexed: Bool = false, isSearchable: Bool = false, merge: FieldMerge = .model
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isEncrypted = isEncrypted
        self.isLocalOnly = isLocalOnly
        self.isServerOwned = isServerOwned
        self.isIndexed = isIndexed
        self.isSearchable = isSearchable
        self.merge = merge
    }

    /// Whether the device sends this field to the cloud.
    public var isUploaded: Bool { !isLocalOnly && !isServerOwned }
}

/// A value a deleted record keeps, so its deletion can be routed and identified like its saves.
public struct TombstoneKeyPath<Model: SyncModel>: Sendable {
    /// The record key the deleted record keeps.
    @_spi(SyncgenGenerated) public var name: String
    /// The property that holds its value.
    @_spi(SyncgenGenerated) public var keyPath: KeyPath<Model, String> & Sendable

    /// A value kept under `name`, read from `keyPath`.
    @_spi(SyncgenGenerated) public init(_ name: String, _ keyPath: KeyPath<Model, String> & Sendable) {
        self.name = name
        self.keyPath = keyPath
    }
}
