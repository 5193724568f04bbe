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
    /// `keysWithoutAssetContents` in a few characters: what a zone's feed was fetched with, kept
    /// beside its token, so that keys an app update adds are fetched for records already here.
    let keysSignature: String
    /// The public models this device copies whole (`SyncConfiguration.mirroredCatalogs`).
    let catalogTypes: [any PublicCatalogModel.Type]
    /// The public records this device keeps by name (`SyncConfiguration.followedRecords`) of the
    /// models it syncs; `unknownFollowedRecords` names the others, which nothing reads.
    let followedRecords: [FollowedRecord]
    let unknownFollowedRecords: [FollowedRecord]

    init(_ types: [any SyncModel.Type], mirroredCatalogs: Set<String>? = nil, followedRecords: [FollowedRecord] = []) {
        self.types = types
        catalogTypes = types.compactMap { $0 as? any PublicCatalogModel.Type }.filter { mirroredCatalogs?.contains($0.recordType) ?? true }
        var index: [String: any SyncModel.Type] = [:]
        for type in types where index[type.recordType] == nil { index[type.recordType] = type }
        byRecordType = index
        var seen: Set<CatalogRefresh.Target> = []
        let unique = followedRecords.filter { seen.insert($0.refresh).inserted }
        self.followedRecords = unique.filter { index[$0.recordType] != nil }
        unknownFollowedRecords = unique.filter { index[$0.recordType] == nil }
        keysWithoutAssetContents = Self.keysWithoutAssetContents(types)
        keysSignature = Self.signature(of: keysWithoutAssetContents)
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

    /// Everything public a pass refreshes: each mirrored catalog, each followed record.
    var publicRefreshes: [CatalogRefresh.Target] {
        catalogRecordTypes.map { .catalog($0) } + followedRecords.map(\.refresh)
    }

    /// The public types whose changes the engine's query subscriptions watch: the mirrored
    /// catalogs', and the followed records' (one subscription per type).
    var watchedPublicTypes: [String] {
        var seen: Set<String> = []
        return (catalogRecordTypes + followedRecords.map(\.recordType)).filter { seen.insert($0).inserted }
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

    /// A stable digest of the keys (FNV-1a, 64 bits, in hex): the same keys give the same text
    /// in every process and version.
    private static func signature(of keys: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in keys.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
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
