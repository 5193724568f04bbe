import Foundation
import SyncCore

/// The asset cache's entries: one per asset field of a record whose file this device knows of.
/// One topic of ``StoreTransaction``.
package protocol AssetEntries: AnyObject {
    func assetEntry(_ key: AssetKey) throws -> AssetCacheEntry?
    /// The entries of one record, one per asset field, by field.
    func assetEntries(recordType: String, recordName: String) throws -> [AssetCacheEntry]
    /// Entries written while a model held one asset, whose field is '' until the engine names it
    /// (`EarlierAssetEntries` in the engine).
    func assetEntriesFromBeforeFields() throws -> [AssetCacheEntry]
    /// Entries in any of `states` (every entry when nil), in key order.
    func assetEntries(in states: Set<AssetCacheState>?) throws -> [AssetCacheEntry]
    func setAssetEntry(_ entry: AssetCacheEntry) throws
    /// Pinned entries in any of `states`, in key order.
    func pinnedAssetEntries(in states: Set<AssetCacheState>) throws -> [AssetCacheEntry]
    /// The bytes of the asset files on this device (entries in a state with a local file), kept
    /// by the store as entries change: reading it costs the same whatever the cache holds.
    func cachedAssetBytes() throws -> Int64
    /// Entries eviction may remove (cached, not pinned), least recently read first.
    func evictionCandidates() throws -> [AssetCacheEntry]
    /// Entries whose model was deleted (here or by a pull) since the last call, and is still not
    /// stored; the store then forgets them as candidates. Costs the deletions, not the cache.
    func takeOrphanedAssetEntries() throws -> [AssetCacheEntry]
    func removeAssetEntry(_ key: AssetKey) throws
    /// Sets a stored model's asset markers (of the entry's field), as the app (so they are pushed), and writes its asset
    /// entry: the markers the model uploads and the file the cache holds never disagree. False
    /// when no such model is stored.
    func attachAsset<Model: CacheableModel>(_ reference: AssetReference, entry: AssetCacheEntry, to type: Model.Type) throws -> Bool
}
