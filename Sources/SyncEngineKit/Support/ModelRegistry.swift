@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
/// The schema's models, known from the start: looked up by record type, with what the engine
/// needs to know about each (scopes, parent type, catalogs). Built once at construction, so a
/// model cannot be registered too late and silently never sync.
struct ModelRegistry: Sendable {
    let types: [any SyncModel.Type]
    private let byRecordType: [String: any SyncModel.Type]
    /// The fields zone pulls and record fetches ask for: every field any model receives, an asset
    /// as its markers (suffix, size, digest). Never an asset's contents: those are downloaded when the
    /// app asks for them.
    let keysWithoutAssetContents: [String]
    /// The public models this device copies whole (`SyncConfiguration.mirroredCatalogs`).
    let catalogTypes: [any PublicCatalogModel.Type]

    init(_ types: [any SyncModel.Type], mirroredCatalogs: Set<String>? = nil) {
        self.types = types
        catalogTypes = types.compactMap { $0 as? any PublicCatalogModel.Type }.filter { mirroredCatalogs?.contains($0.recordType) ?? true }
        var index: [String: any SyncModel.Type] = [:]
        for type in types where index[type.recordType] == nil { index[type.recordType] = type }
        byRecordType = index
        keysWithoutAssetContents = Self.keysWithoutAssetContents(types)
    }

    func type(forRecordType recordType: String) -> (any SyncModel.Type)? {
        byRecordType[recordType]
    }

    /// Whether this device copies `type` whole: a catalog it mirrors.
    func isMirrored(_ type: any SyncModel.Type) -> Bool {
        catalogTypes.contains { $0.recordType == type.recordType }
    }

    /// The record types of the public models this device mirrors.
    var catalogRecordTypes: [String] {
        catalogTypes.map { $0.recordType }
    }

    /// Models that can live in the private or shared database.
    var zonedTypes: [any SyncModel.Type] {
        types.filter { $0.syncScopes.contains(.private) }
    }

    /// Models whose records may be in a shared zone.
    var sharedTypes: [any SyncModel.Type] {
        types.filter { $0.syncScopes.contains(.shared) }
    }

    /// Models with an asset, by record type.
    func cacheableType(forRecordType recordType: String) -> (any CacheableModel.Type)? {
        byRecordType[recordType] as? any CacheableModel.Type
    }

    private static func keysWithoutAssetContents(_ types: [any SyncModel.Type]) -> [String] {
        var keys: Set<String> = [
            RecordFieldNames.clientModifiedAt, RecordFieldNames.uploadVersions, RecordFieldNames.zoneMovedFrom, RecordFieldNames.zoneMovedInto,
        ]
        for type in types {
            for field in type.fieldDescriptors where !field.isLocalOnly && field.type != .scalar(.asset) {
                keys.insert(field.name)
            }
            let uploadedAssets = Set(type.fieldDescriptors.filter { !$0.isLocalOnly }.map(\.name))
            for asset in type.assetFields where uploadedAssets.contains(asset.name) {
                keys.formUnion(asset.recordKeys.markers)
            }
            if !type.uniqueKeys.isEmpty {
                keys.insert(RecordFieldNames.mergedInto)
            }
            if type is any PublicationGovernedModel.Type {
                keys.formUnion(RecordFieldNames.publicationLifecycleFields)
            }
        }
        return keys.sorted()
    }

    /// The models of this engine whose parent is a `type`.
    func childTypes(of type: any SyncModel.Type) -> [any SyncModel.Type] {
        type.childTypes.filter { byRecordType[$0.recordType] != nil }
    }

    /// The parent type of a model, if any.
    func parentType(of type: any SyncModel.Type) -> (any SyncModel.Type)? {
        type.parentRecordType.flatMap { byRecordType[$0] }
    }
}
