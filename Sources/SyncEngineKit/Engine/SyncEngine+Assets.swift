import Foundation
import SyncCore
import SyncPorts

// MARK: - Assets

/// Every call names the record's type as well as its name: a draft and its public projection
/// share one record name, and each has an asset of its own.
extension SyncEngine {
    /// Attaches a file to a stored record's asset field: the file is written to the cache (whole,
    /// or not at all) and the record's markers (suffix, size) are saved, so the next pass pushes
    /// the record and then uploads the file. A pinned file is never evicted.
    public func attachAsset<Model: CacheableModel>(
        _ data: Data, suffix: String, to type: Model.Type, recordName: String, pinned: Bool = false
    ) throws(AssetError) {
        try AssetPhase(context: context).attach(data, suffix: suffix, to: type, recordName: recordName, pinned: pinned)
    }

    /// The asset's file on this device, or nil when only the cloud has it (see
    /// `requestAssetDownload`). Reading it counts as a use for the cache's eviction order.
    public func assetFileURL<Model: CacheableModel>(for type: Model.Type, recordName: String) throws(AssetError) -> URL? {
        try AssetPhase(context: context).fileURL(for: AssetKey(type, recordName: recordName))
    }

    /// Asks for the asset's contents: the next pass downloads them (nothing happens when the file
    /// is already here). `pin` also keeps the file from eviction.
    public func requestAssetDownload<Model: CacheableModel>(for type: Model.Type, recordName: String, pin: Bool = false) throws(AssetError) {
        try AssetPhase(context: context).requestDownload(AssetKey(type, recordName: recordName), pin: pin)
    }

    /// Lets the asset's file be evicted again.
    public func unpinAsset<Model: CacheableModel>(for type: Model.Type, recordName: String) throws(AssetError) {
        try AssetPhase(context: context).unpin(AssetKey(type, recordName: recordName))
    }

    /// Where the asset stands on this device, or nil when the record has no asset this device
    /// knows of. Changes come as `SyncEvent.assetStateChanged`; `assetStates(for:recordName:)`
    /// streams them for one record.
    public func assetEntry<Model: CacheableModel>(for type: Model.Type, recordName: String) throws(AssetError) -> AssetCacheEntry? {
        try AssetPhase(context: context).entry(AssetKey(type, recordName: recordName))
    }

    /// The asset's states from now on, for one record.
    public nonisolated func assetStates<Model: CacheableModel>(for type: Model.Type, recordName: String) -> AsyncStream<AssetCacheState> {
        let key = AssetKey(type, recordName: recordName)
        let events = context.events.stream()
        return AsyncStream { continuation in
            let task = Task {
                for await event in events {
                    if case .assetStateChanged(key, let state) = event { continuation.yield(state) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Runs the cache's transfers now (uploads, requested downloads, eviction) without a whole
    /// pass; every pass runs them too.
    public func transferAssets() async throws(SyncError) {
        try recoverOnce()
        try await AssetPhase(context: context).transfer(as: try storeAccount())
    }
}
