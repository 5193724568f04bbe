/// A model whose records can be the root of a CKShare.
public protocol ShareableModel: SyncModel {
    /// The title people see when they are invited.
    var shareTitle: String { get }
}

/// A model with asset fields: each a file kept in the asset cache and uploaded as a CKAsset. The
/// fields are the model's `asset` properties (`AssetReference?`), named to the engine's asset
/// calls by key path: `engine.attachAsset(data, suffix: "jpg", to: \Note.cover, recordName: id)`.
public protocol CacheableModel: SyncModel {}

/// A model with fields the schema marks `searchable`: the local store keeps their words in a
/// text-search index, and a ``Query`` of the model may search them (`matching(_:)`), on the
/// device, offline.
public protocol TextSearchable: SyncModel {}

extension SyncModel {
    /// The fields the model's text search reads, in schema order (none for most models).
    package static var searchableFields: [FieldDescriptor] { fieldDescriptors.filter(\.isSearchable) }
}

/// One of a model's asset fields: its schema name and the record keys it travels under.
package struct AssetField: Sendable, Hashable {
    package let name: String
    package let recordKeys: AssetRecordKeys
}

extension SyncModel {
    /// The model's asset fields, in schema order (none for most models).
    package static var assetFields: [AssetField] { _syncFields.assetFields }

    /// The asset field of that schema name, or nil.
    package static func assetField(named name: String) -> AssetField? {
        assetFields.first { $0.name == name }
    }

    /// The schema name of the asset field a key path names, or nil for a property that is not one.
    package static func assetFieldName(_ keyPath: AnyKeyPath) -> String? {
        fieldName(for: keyPath).flatMap { assetField(named: $0)?.name }
    }

    /// Sets an asset field's markers; false when the model has no such asset field.
    package mutating func setAssetReference(_ reference: AssetReference?, _ field: String) -> Bool {
        guard let slot = Self._syncFields.fields.first(where: { $0.asset != nil && $0.key == field })?.asset else { return false }
        withUnsafeMutablePointer(to: &self) { slot.set(UnsafeMutableRawPointer($0), reference) }
        return true
    }
}

/// A public model read by catalog queries.
public protocol PublicCatalogModel: SyncModel {
    /// The fields a catalog query fetches. Asset contents are never among them; the asset's suffix
    /// and size markers are, so readers know a file exists and whether theirs is stale.
    static var catalogDesiredKeys: [String] { get }
    /// The state a record starts in when first published: `.delisted` means "review first".
    static var initialPublicationState: PublicationState { get }
}

/// A catalog model whose publication lifecycle the runtime governs.
public protocol PublicationGovernedModel: PublicCatalogModel {
    var publicationLifecycle: PublicationLifecycle { get set }
}

/// A model with fields the schema marks `merge: custom`: the app settles their conflicts.
public protocol CustomMergingModel: SyncModel {
    /// Settles `field` (a record key the schema marks `merge: custom`), which this device and the
    /// server both changed since `ancestor` (the version both started from; nil when this device
    /// never saw one), by setting it in `merged`. `merged` holds every other field as the merge
    /// has settled it; only `field` is taken from it.
    static func merge(_ field: String, ancestor: Self?, local: Self, server: Self, into merged: inout Self)
}

extension CustomMergingModel {
    /// `merge(_:ancestor:local:server:into:)` on records: the three versions and the record
    /// merged so far read as models, the model's rule applied, the field's value read back. A
    /// version that does not read as this model leaves the value merged so far.
    static func customMergedValue(_ field: String, ancestor: SyncRecord?, local: SyncRecord, server: SyncRecord, merged: SyncRecord) -> SyncFieldValue? {
        guard let localModel = try? Self(record: local), let serverModel = try? Self(record: server), var result = try? Self(record: merged) else {
            return merged[field: field]
        }
        merge(field, ancestor: ancestor.flatMap { try? Self(record: $0) }, local: localModel, server: serverModel, into: &result)
        let encoded = result.encodeRemoteFields()
        return encoded.encryptedValues[field] ?? encoded.values[field]
    }
}

extension SyncModel {
    /// How the model's fields combine when both sides changed them: each field's own way (its
    /// row's `merge:`), `policy` for the rest, and the model's rule for `custom` fields.
    package static func mergeRules(policy: ConflictPolicy) -> MergeRules {
        var fields: [String: FieldMerge] = [:]
        for descriptor in fieldDescriptors where descriptor.merge != .model {
            fields[descriptor.name] = descriptor.merge
        }
        let custom = (self as? any CustomMergingModel.Type).map { type -> MergeRules.Custom in
            { field, ancestor, local, server, merged in type.customMergedValue(field, ancestor: ancestor, local: local, server: server, merged: merged) }
        }
        var defaults = RecordFields()
        if fields.values.contains(where: { $0 == .max || $0 == .min }) {
            let empty = Self(emptyRecordNamed: "", ownerName: SyncConstants.currentUserOwnerName).makeRecord()
            for (name, value) in empty.fields { defaults[name] = value }
            for (name, value) in empty.encryptedFields { defaults[name] = value }
        }
        return MergeRules(policy: policy, fields: fields, custom: custom, defaults: defaults)
    }
}

/// A private draft that publishes into a public projection under the same recordName.
public protocol PublishableModel: SyncModel {
    associatedtype Projection: PublicCatalogModel

    /// Copies every field the projection declares from this draft: the projection's fields are
    /// exactly what is published. A nil optional leaves the projection's current value.
    func project(onto projection: inout Projection)
}

extension PublishableModel {
    /// A new projection of this draft, owned by the current user (public records always are).
    public func makeProjection() -> Projection {
        var projection = Projection(emptyRecordNamed: recordName, ownerName: SyncConstants.currentUserOwnerName)
        project(onto: &projection)
        return projection
    }
}

/// The list of every model type of a schema, generated as `SyncSchema`, so the runtime registers
/// them all in one call and none can be forgotten.
public protocol SyncSchemaDefinition {
    static var models: [any SyncModel.Type] { get }
    /// The CloudKit indexes the schema declares, by record type and field (`QUERYABLE`,
    /// `SORTABLE`, `SEARCHABLE`, as the `.ckdb` export has them): what a LocalCloud is told the
    /// deployed schema holds (`LocalCloud.Configuration.deployedIndexes`).
    static var deployedIndexes: [String: [String: Set<String>]] { get }
}

/// Generated code conforms a private type to this protocol. When generator and runtime disagree
/// on the API version, the build fails here, with this name in the error, instead of misbehaving
/// at run time. A hook of generated code, not app API: an SPI the generated file imports
/// (`@_spi(SyncgenGenerated) import SyncCore`), so an app's autocomplete never offers it.
@_spi(SyncgenGenerated)
public protocol SyncgenRuntimeAPIVersion1 {}

/// The API version the generator must name (``SyncgenRuntimeAPIVersion1``), and the SPI that
/// holds it.
package enum RuntimeAPI {
    package static let versionCheckProtocol = "SyncgenRuntimeAPIVersion1"
    package static let generatedCodeSPI = "SyncgenGenerated"
}
