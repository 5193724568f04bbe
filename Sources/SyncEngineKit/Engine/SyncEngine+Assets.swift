import Foundation
import SyncCore
import SyncPorts

// MARK: - Assets

/// Every call names the asset by the model's property that holds it, `\Note.cover`: that is the
/// record type and the field, and with the record name, the one asset of a record it means (a
/// draft and its public projection share one record name, and a model may hold several asset
/// fields, each with a file of its own).
extension SyncEngine {
    /// Attaches a file to a stored record's asset field: the file is written to the cache (whole,
    /// or not at all) and the field's markers (suffix, size, digest) are saved, so the next pass
    /// pushes the record and then uploads the file. A pinned file is never evicted.
    public func attachAsset<Model: CacheableModel>(
        _ data: Data, suffix: String, to field: KeyPath<Model, AssetReference?> & Sendable, recordName: String, pinned: Bool = false
    ) throws(AssetError) {
        try AssetPhase(context: context).attach(data, suffix: suffix, to: AssetKey(field, recordName: recordName), of: Model.self, pinned: pinned)
    }

    /// The field's file on this device, or nil when only the cloud has it (see
    /// `requestAssetDownload`). Reading it counts as a use for the cache's eviction order.
    public func assetFileURL<Model: CacheableModel>(for field: KeyPath<Model, AssetReference?> & Sendable, recordName: String) throws(AssetError) -> URL? {
        try AssetPhase(context: context).fileURL(for: AssetKey(field, recordName: recordName))
    }

    /// Asks for the field's contents: the next pass downloads them (nothing happens when the file
    /// is already here). `pin` also keeps the file from eviction.
    public func requestAssetDownload<Model: CacheableModel>(
        for field: KeyPath<Model, AssetReference?> & Sendable, recordName: String, pin: Bool = false
    ) throws(AssetError) {
        try AssetPhase(context: context).requestDownload(AssetKey(field, recordName: recordName), pin: pin)
    }

    /// Lets the field's file be evicted again.
    public func unpinAsset<Model: CacheableModel>(for field: KeyPath<Model, AssetReference?> & Sendable, recordName: String) throws(AssetError) {
        try AssetPhase(context: context).unpin(AssetKey(field, recordName: recordName))
    }

    /// Where the field's file stands on this device, or nil when the record has no file there
    /// this device knows of. Changes come as `SyncEvent.assetStateChanged`;
    /// `assetStates(for:recordName:)` streams them for one field of one record.
    public func assetEntry<Model: CacheableModel>(for field: KeyPath<Model, AssetReference?> & Sendable, recordName: String) throws(AssetError) -> AssetCacheEntry? {
        try AssetPhase(context: context).entry(AssetKey(field, recordName: recordName))
    }

    /// The field's states from now on, for one record.
    public nonisolated func assetStates<Model: CacheableModel>(for field: KeyPath<Model, AssetReference?> & Sendable, recordName: String) -> AsyncStream<AssetCacheState> {
        let key = AssetKey(field, recordName: recordName)
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

    /// Frees the device's storage now (it runs low: `volumeAvailableCapacityForImportantUsage`
    /// is short of what the app needs): evicts cached files, least recently read first, until the
    /// cache holds `bytes` or fewer, whatever `SyncConfiguration.assetCacheLimit` allows. Never a
    /// pinned file, one not uploaded yet, or one downloading; each one evicted is downloaded
    /// again when asked for. Returns the bytes the cache holds after: more than `bytes` when what
    /// is left cannot go.
    @discardableResult
    public func shrinkAssetCache(to bytes: Int64 = 0) throws(SyncError) -> Int64 {
        try AssetPhase(context: context).shrink(to: bytes)
    }

    /// Runs the cache's transfers now (uploads, requested downloads, eviction) without a whole
    /// pass; every pass runs them too.
    public func transferAssets() async throws(SyncError) {
        try recoverOnce()
        try await AssetPhase(context: context).transfer(as: try storeAccount())
    }
}
