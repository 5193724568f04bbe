import Foundation

/// The local store as the sync engine sees it: models read and written as records by the
/// engine's author, the history of the app's changes, and the engine's own bookkeeping.
/// `SyncStore` implements it.
public protocol LocalStorePort: Sendable {
    /// Runs `body` in one transaction of the store, its writes stamped with `author`.
    func write<T>(author: StoreAuthor, _ body: (any ModelWriter) throws -> T) throws -> T

    /// Changes not made by the engine, after the committed history token, oldest first, at most
    /// `limit` history entries read, with the sequence number of the last entry read: the token to
    /// commit once they are pushed.
    func unpushedChanges(limit: Int?) throws -> (changes: [HistoryEntry], readThrough: Int64)
    /// Whether any change not made by the engine waits after the committed token (a full check,
    /// never judged from the last entry alone).
    func hasUnpushedChanges() throws -> Bool
    /// Commits the history token after a successful push, and prunes history nothing waits for.
    func commitHistoryToken(_ sequence: Int64) throws

    /// A stored model, as the record it would upload (every field its type uploads), or nil.
    func uploadRecord(type: any SyncModel.Type, recordName: String, syncZoneName: String) throws -> SyncRecord?
    /// Applies a pulled record to the stored model (created if missing), as the engine: local-only
    /// fields are kept. Returns the names of references whose targets are not stored.
    func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [String]
    /// Deletes a stored model as the engine (no-op if missing).
    func deletePulled(type: any SyncModel.Type, recordName: String) throws
    /// Rewrites a stored model's owner (and so its zone), as the engine.
    func setOwner(_ ownerName: String, type: any SyncModel.Type, recordName: String) throws
    /// Names of the stored models of a type whose owner is `ownerName` (nil: any owner).
    func recordNames(type: any SyncModel.Type, ownerName: String?) throws -> [String]
    /// Whether any model of any type is stored under this record name.
    func isStored(recordName: String) throws -> Bool
    /// The stored parent and owner of a model.
    func parentAndOwner(type: any SyncModel.Type, recordName: String) throws -> (parent: String?, owner: String)?

    /// The last server record known for a record ID (change tag and fields: a merge's ancestor).
    func serverRecord(_ id: RecordID) throws -> SyncRecord?
    func setServerRecord(_ record: SyncRecord) throws
    func removeServerRecord(_ id: RecordID) throws
    /// IDs of every server record known in a zone.
    func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID]

    /// The engine's small state: change tokens, the signed-in user, pending share acceptances.
    func state(_ key: String) throws -> String?
    func setState(_ key: String, _ value: String?) throws

    /// The asset cache's entries: one per record that has an asset this device knows of.
    func assetEntry(_ key: AssetKey) throws -> AssetCacheEntry?
    /// Entries in any of `states` (every entry when nil), in key order.
    func assetEntries(in states: Set<AssetCacheState>?) throws -> [AssetCacheEntry]
    func setAssetEntry(_ entry: AssetCacheEntry) throws
    /// Entries whose model is no longer stored (deleted here or by a pull).
    func orphanedAssetEntries() throws -> [AssetCacheEntry]
    func removeAssetEntry(_ key: AssetKey) throws
    /// Sets a stored model's asset markers, as the app (so they are pushed), and writes its asset
    /// entry, in one transaction: the markers the model uploads and the file the cache holds never
    /// disagree. False when no such model is stored.
    func attachAsset<Model: CacheableModel>(_ reference: AssetReference, entry: AssetCacheEntry, to type: Model.Type, recordName: String) throws -> Bool

    /// Removes every model and every piece of sync state: the account changed.
    func purgeEverything() throws

    /// Fires after the app's writes (never the engine's own).
    func changes() -> AsyncStream<Void>
}

/// Typed writes inside one local-store transaction.
public protocol ModelWriter: AnyObject {
    func save<Model: SyncModel>(_ model: Model) throws
    func delete<Model: SyncModel>(_ model: Model) throws
    func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model?
}
