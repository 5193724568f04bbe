/// A model the runtime syncs: the contract generated code fulfils.
///
/// Every member the runtime reads from generic code is a requirement, never only an extension
/// default, so a model's own declaration is always the one that runs (an extension default would
/// be dispatched statically and silently win in generic code).
public protocol SyncModel: Sendable, Hashable {
    /// The CloudKit record type.
    static var recordType: String { get }
    /// The databases the model's records may live in: `[private]`, `[private, shared]` or `[public]`.
    static var syncScopes: Set<DatabaseScope> { get }
    /// Every schema field, in schema order.
    static var fieldDescriptors: [FieldDescriptor] { get }
    /// The record type of the model's CKRecord.parent, for models in a share hierarchy.
    static var parentRecordType: String? { get }
    /// The values a deleted record keeps. Declared on the concrete type, so each key path is the
    /// model's own.
    static var tombstoneKeyPaths: [TombstoneKeyPath<Self>] { get }

    /// The record's name: the same on every device and in the cloud.
    var recordName: String { get set }
    /// The owner of the zone the record lives in (the current user's own records:
    /// `SyncConstants.currentUserOwnerName`).
    var ownerName: String { get set }
    /// The record name of the CKRecord.parent, if any.
    var parentRecordName: String? { get }

    /// A record with every field at its default, to decode a pulled record into.
    init(emptyRecordNamed recordName: String, ownerName: String)

    /// The fields to upload: every field but local-only and server-owned ones, encrypted fields in
    /// the encrypted set.
    func encodeRemoteFields() -> EncodedFields

    /// Takes the values of a pulled record: a missing value clears an optional field and leaves a
    /// required one as it is; local-only fields are never touched; a value of the wrong type throws.
    mutating func applyRemoteFields(from record: SyncRecord) throws(FieldDecodingError)

    /// Every field, local-only and server-owned ones included, with the parent (key `parent`) and
    /// a governed model's lifecycle (key `publicationLifecycle`): what the device's own store keeps.
    func encodeStoredFields() -> RecordFields

    /// Restores every field from the device's own store (`encodeStoredFields` read back).
    mutating func applyStoredFields(from record: SyncRecord) throws(FieldDecodingError)
}

extension SyncModel {
    /// The database this record lives in, by the one routing rule (`DatabaseScope.resolve`).
    public var resolvedScope: DatabaseScope {
        DatabaseScope.resolve(scopes: Self.syncScopes, ownerName: ownerName)
    }

    /// The zone this record lives in, by the one routing rule (`ZoneID.routing`).
    public func zoneID(syncZoneName: String = SyncConstants.defaultSyncZoneName) -> ZoneID {
        ZoneID.routing(scopes: Self.syncScopes, ownerName: ownerName, syncZoneName: syncZoneName)
    }

    /// The record this model uploads: its encoded fields in its own zone, with its parent.
    public func makeRecord(syncZoneName: String = SyncConstants.defaultSyncZoneName) -> SyncRecord {
        let encoded = encodeRemoteFields()
        return SyncRecord(
            recordType: Self.recordType,
            id: RecordID(recordName: recordName, zoneID: zoneID(syncZoneName: syncZoneName)),
            fields: encoded.values, encryptedFields: encoded.encryptedValues,
            parentRecordName: parentRecordName)
    }

    /// A model decoded from a pulled record.
    public init(record: SyncRecord) throws(FieldDecodingError) {
        self.init(emptyRecordNamed: record.id.recordName, ownerName: record.id.zoneID.ownerName)
        try applyRemoteFields(from: record)
    }
}
