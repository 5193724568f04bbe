/// A model the runtime syncs: the contract generated code fulfils.
///
/// Every member the runtime reads from generic code is a requirement, never only an extension
/// default, so a model's own declaration is always the one that runs (an extension default would
/// be dispatched statically and silently win in generic code).
public protocol SyncModel: Sendable, Hashable, Identifiable where ID == String {
    /// The CloudKit record type.
    static var recordType: String { get }
    /// The databases the model's records may live in: `[private]`, `[private, shared]` or `[public]`.
    static var syncScopes: Set<DatabaseScope> { get }
    /// The bridge, for the runtime (never an app's to read): every field, in schema order, each
    /// stated once with the property that holds it (and the parent and a governed lifecycle), the
    /// values a deleted record keeps and the empty record a pulled one is decoded into. Every
    /// direction the runtime encodes and decodes the model in is read from this table, whose
    /// builders and members are SPI (`@_spi(SyncgenGenerated) import SyncCore`).
    static var _syncFields: ModelFields<Self> { get }
    /// The record type of the model's CKRecord.parent, for models in a share hierarchy.
    static var parentRecordType: String? { get }
    /// The models whose CKRecord.parent is this model: deleting a record deletes its records of
    /// these types too, children before parents.
    static var childTypes: [any SyncModel.Type] { get }
    /// The model's natural keys (the schema's `unique:`), each a list of field names: records of
    /// one zone whose values agree on every field of a key are one record. None by default.
    static var uniqueKeys: [[String]] { get }
    /// How a field both sides changed is settled, when the field says nothing else (the schema's
    /// `merge:` on the model); nil leaves it to `SyncConfiguration`. Nil by default.
    static var conflictPolicy: ConflictPolicy? { get }
    /// The zone the model's private and shared records live in (the schema's `zone:`); nil for
    /// the app's sync zone (`SyncConfiguration.syncZoneName`). Nil by default.
    static var zoneName: String? { get }

    /// The record's name: the same on every device and in the cloud.
    var recordName: String { get set }
    /// The owner of the zone the record lives in (the current user's own records:
    /// ``SyncConstants/currentUserOwnerName``).
    var ownerName: String { get set }
    /// The record name of the CKRecord.parent, if any.
    var parentRecordName: String? { get }

    // The bridge: each direction is read from `_syncFields` by the default implementations
    // (`ModelFields.swift`); a model declares none of them, and they are SPI: the runtime's, never
    // an app's.

    /// The fields to upload: every field but local-only and server-owned ones, encrypted fields in
    /// the encrypted set.
    @_spi(SyncgenGenerated) func encodeRemoteFields() -> EncodedFields

    /// Takes the values of a pulled record: a missing value clears an optional field and leaves a
    /// required one as it is; local-only fields are never touched; a value of the wrong type throws.
    @_spi(SyncgenGenerated) mutating func applyRemoteFields(from record: SyncRecord) throws(FieldDecodingError)

    /// Every field, local-only and server-owned ones included, with the parent (key `parent`) and
    /// a governed model's lifecycle (key `publicationLifecycle`): what the device's own store keeps.
    @_spi(SyncgenGenerated) func encodeStoredFields() -> RecordFields

    /// Restores every field from the device's own store (`encodeStoredFields` read back).
    @_spi(SyncgenGenerated) mutating func applyStoredFields(from record: SyncRecord) throws(FieldDecodingError)

    /// A record with every field at its default, named and owned as given: what a pulled or
    /// stored record is decoded into. A requirement, so the runtime's generic code reaches the
    /// model's own, compiled for its type, rather than look up its table's type at each record.
    @_spi(SyncgenGenerated) init(emptyRecordNamed recordName: String, ownerName: String)

    /// Reads a stored row into a new model and appends it to `models`, for a model whose fields
    /// are all plain values (`storesPlainValues`): each field's value by its place in
    /// `storedKeys`. A requirement, so a query's rows become models
    /// in code compiled for the model's own type: copied, built and appended without the generic
    /// runtime's work at each row.
    @_spi(SyncgenGenerated) static func appendStoredRow(
        named recordName: String, ownerName: String, _ value: (_ field: Int) throws -> SyncFieldValue?, to models: inout [Self]
    ) throws

    /// The record this model uploads (`makeRecord`), compiled for the model's own type.
    @_spi(SyncgenGenerated) func encodeRecord(in zone: ZoneID) -> SyncRecord
}

extension SyncModel {
    /// The record's name (`Identifiable`): what SwiftUI's lists and `ForEach` tell models apart
    /// by, the same on every device.
    public var id: String { recordName }

    /// No natural key: a model that declares none.
    public static var uniqueKeys: [[String]] { [] }

    /// No policy of the model's own: the configuration's applies.
    public static var conflictPolicy: ConflictPolicy? { nil }

    /// No zone of the model's own: its records live in the app's sync zone.
    public static var zoneName: String? { nil }

    /// The database this record lives in, by the one routing rule (`DatabaseScope.resolve`).
    public var resolvedScope: DatabaseScope {
        DatabaseScope.resolve(scopes: Self.syncScopes, ownerName: ownerName)
    }

    /// The zone this record lives in, by the one routing rule (`ZoneID.routing`):
    /// `syncZoneName` is the app's sync zone, where a model without a zone of its own lives.
    public func zoneID(syncZoneName: String = SyncConstants.defaultSyncZoneName) -> ZoneID {
        zoneID(routes: ZoneRoutes(syncZoneName: syncZoneName))
    }

    /// The zone this record lives in, by the routing rule and the zone moves `routes` knows.
    package func zoneID(routes: ZoneRoutes) -> ZoneID {
        routes.zone(scopes: Self.syncScopes, zoneName: Self.zoneName, ownerName: ownerName)
    }

    /// The record this model uploads: its encoded fields in its own zone, with its parent, and
    /// the keys of its fields that have no value cleared (a save that left them out would keep
    /// the server's values). The keys cleared are the model's own, as its encoder met them empty
    /// (its uploaded fields, an asset as its contents and markers, a governed model's lifecycle):
    /// a key the model does not know is never among them, so a field another app version added
    /// is left as the server has it.
    public func makeRecord(syncZoneName: String = SyncConstants.defaultSyncZoneName) -> SyncRecord {
        encodeRecord(in: zoneID(syncZoneName: syncZoneName))
    }

    /// The record this model uploads, in the zone `routes` sends it to (`zoneID(routes:)`).
    package func makeRecord(routes: ZoneRoutes) -> SyncRecord {
        encodeRecord(in: zoneID(routes: routes))
    }

    /// A model decoded from a pulled record.
    public init(record: SyncRecord) throws(FieldDecodingError) {
        self.init(emptyRecordNamed: record.id.recordName, ownerName: record.id.zoneID.ownerName)
        try applyRemoteFields(from: record)
    }
}
