/// Why an asset call could not be carried out. Never silent.
public enum AssetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No record of that type and name is stored on this device.
    case noSuchRecord(AssetKey)
    /// The record has no asset attached, here or in the cloud.
    case noAsset(AssetKey)
    /// The record type is not one of the engine's models with an asset.
    case notCacheable(String)
    /// The key path names no asset field of the model (a computed property, say).
    case notAnAssetField(AssetKey)
    /// No folder to keep the files in (see `SyncConfiguration.assetCacheRoot`).
    case noCacheFolder(String)
    /// The asset's file is not on this device and is needed here (a copy kept of a share being
    /// left): `requestAssetDownload`, sync, and ask again.
    case notOnDevice(AssetKey)
    /// A file could not be written, read or removed.
    case fileSystem(AssetKey, String)
    /// The cache's files as a whole could not be moved or cleaned up (an account's parked files,
    /// the half-written files an interrupted run left).
    case cacheFiles(String)
    /// The local store failed while the asset call ran.
    case store(LocalStoreError)

    public var description: String {
        switch self {
        case .noSuchRecord(let key): "no \(key) is stored on this device"
        case .noAsset(let key): "\(key) has no asset"
        case .notCacheable(let type): "\(type) is not one of the engine's models with an asset"
        case .notAnAssetField(let key): "\(key.recordType) has no asset field \(key.field)"
        case .noCacheFolder(let reason): "the asset cache has no folder: \(reason)"
        case .notOnDevice(let key): "the file of \(key) is not on this device: request its download and sync first"
        case .fileSystem(let key, let reason): "the file of \(key) failed: \(reason)"
        case .cacheFiles(let reason): "the asset cache's files failed: \(reason)"
        case .store(let error): "the local store failed: \(error)"
        }
    }
}
