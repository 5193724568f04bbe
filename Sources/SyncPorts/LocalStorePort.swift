import Foundation
import SyncCore

/// The local store as the sync engine sees it. `SyncStore` implements it; only the engine (and
/// this package's tests) reach it: an app reads and writes through `SyncStore`'s own API.
///
/// The engine reads and writes only inside `transaction`: what it commits together (a pulled page
/// with its server versions and change token, a push's results, a merge and its ancestor) lands
/// whole or not at all, and no write of the app interleaves with it. A crash between two
/// transactions leaves the store as one of them left it; nothing is ever half-applied.
package protocol LocalStorePort: Sendable {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (any SyncStoreTransaction) throws -> T) throws -> T

    /// Runs `body` in one transaction, its model writes stamped with `author` (the engine's
    /// app-facing calls: publishing, deleting a shared root).
    func write<T>(author: StoreAuthor, _ body: (any ModelWriter) throws -> T) throws -> T

    /// Fires after the app's writes (never the engine's own).
    func changes() -> AsyncStream<Void>
}

/// One transaction of the local store, as the sync engine uses it. Valid only inside the
/// `transaction` call that hands it out.
package protocol SyncStoreTransaction: AnyObject {
    // MARK: History

    /// Changes not made by the engine, after the committed history token, oldest first, at most
    /// `limit` history entries read, with the sequence number of the last entry read: the token to
    /// commit once they are pushed.
    func unpushedChanges(limit: Int?) throws -> (changes: [HistoryEntry], readThrough: Int64)
    /// Whether any change not made by the engine waits after the committed token (a full check,
    /// never judged from the last entry alone).
    func hasUnpushedChanges() throws -> Bool
    /// Whether the app changed this record and the change is not in the cloud yet: it waits in
    /// the history, or it was set aside. A pulled record is merged into such a model, never
    /// written over it.
    func hasLocalChange(recordType: String, recordName: String) throws -> Bool
    /// Every record `hasLocalChange` holds for, with the sequence number of the last history
    /// entry read: a pull reads them once, then only what the app writes later.
    func recordsWithLocalChanges() throws -> (records: Set<RecordKey>, readThrough: Int64)
    /// The records the app changed in history entries after `sequence`, and the last one read.
    func recordsChanged(after sequence: Int64) throws -> (records: Set<RecordKey>, readThrough: Int64)
    /// Commits the history token after a push, and prunes history nothing waits for.
    func commitHistoryToken(_ sequence: Int64) throws

    // MARK: Models

    /// A stored model, as the record it would upload (every field its type uploads), or nil.
    func uploadRecord(type: any SyncModel.Type, recordName: String, syncZoneName: String) throws -> SyncRecord?
    /// Applies a pulled record to the stored model (created if missing), as the engine: local-only
    /// fields are kept. Returns the references (the parent included) whose targets are not stored.
    func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey]
    /// `applyPulled` for a record the caller knows is not stored: nothing is read first.
    func insertPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey]
    /// Which of these names are stored as models of the type, in one read.
    func storedNames(type: any SyncModel.Type, among names: [String]) throws -> Set<String>
    /// Deletes a stored model and the records under it (`SyncModel.childTypes`) as the engine.
    /// Returns what was deleted, children first, the model itself last (nothing if missing).
    @discardableResult
    func deletePulled(type: any SyncModel.Type, recordName: String) throws -> [RecordKey]
    /// Rewrites a stored model's owner (and so its zone), as the engine.
    func setOwner(_ ownerName: String, type: any SyncModel.Type, recordName: String) throws
    /// Names of the stored models of a type whose owner is `ownerName` (nil: any owner).
    func recordNames(type: any SyncModel.Type, ownerName: String?) throws -> [String]
    /// Whether a model of this type is stored under this record name.
    func isStored(type: any SyncModel.Type, recordName: String) throws -> Bool
    /// Whether a model of the key's type is stored under its name (a reference's target).
    func isStored(_ key: RecordKey) throws -> Bool
    /// The stored parent and owner of a model.
    func parentAndOwner(type: any SyncModel.Type, recordName: String) throws -> (parent: String?, owner: String)?
    /// Names of the stored models of `type` whose parent is `parentRecordName`.
    func childNames(type: any SyncModel.Type, parentRecordName: String) throws -> [String]
    /// Records the app changed again as changes to push: a save of the model as it is, or its
    /// deletion when it is no longer stored (`ownerName` routes it).
    func requeue(recordType: String, recordName: String, ownerName: String) throws
    /// Queues the deletion of a record from the zone `ownerName` routes to, as a change of the
    /// app, whether or not a model of that name is stored (a copy left in a zone its model moved
    /// out of).
    func queueDeletion(recordType: String, recordName: String, ownerName: String) throws

    // MARK: Natural keys

    /// Makes the model's table meet the model (its columns and indexes grown to the schema): a
    /// natural key new to the table marks the records it holds for a check.
    func prepareTable(for type: any SyncModel.Type) throws
    /// Records whose natural keys are to be checked: pulled since the last check, or held when a
    /// key was new to their table.
    func naturalKeyChecks() throws -> [RecordKey]
    /// Done with these checks.
    func clearNaturalKeyChecks(_ keys: [RecordKey]) throws
    /// The record's owner, and for each of its type's keys the names of the stored records of
    /// that owner sharing it (the record's own name included, sorted), where more than one does;
    /// nil for a record not stored.
    func duplicates(of recordName: String, type: any SyncModel.Type) throws -> (owner: String, groups: [[String]])?
    /// Notes that `name` was merged into `survivor` (and so are the records merged into `name`
    /// before); `retiring`: not yet, the copy waits for its mark in the cloud to land first.
    func noteMergedAway(type: any SyncModel.Type, name: String, into survivor: String, retiring: Bool) throws
    /// The copies waiting for their mark, with their survivors, by survivor.
    func retirements() throws -> [(recordType: String, recordName: String, survivor: String)]
    /// Whether the copy waits for its mark.
    func isRetiring(type: any SyncModel.Type, recordName: String) throws -> Bool
    /// The copy waits no more (its survivor or itself is gone, or another device marked it); it
    /// is checked again after the next pull.
    func forgetRetirement(recordType: String, recordName: String) throws
    /// The record `name` was merged into on this device, if it was (not while it waits).
    func survivor(ofMergedAway name: String, type: any SyncModel.Type) throws -> String?
    /// Names of the stored models of `type` whose reference field `field` (a reference, or a list
    /// of them) points at any of `targets`.
    func recordsReferencing(_ targets: [String], type: any SyncModel.Type, field: String) throws -> [String]

    // MARK: Server records

    /// The change tag of the server version kept for a record: nil when none is kept, `.some(nil)`
    /// for one without a tag. Reads nothing else, so a pull can skip a version it has cheaply.
    func serverChangeTag(_ id: RecordID) throws -> String??
    /// `serverChangeTag` for records of one zone, in one read: a record none is kept for is absent.
    func serverChangeTags(_ names: [String], in zone: ZoneID) throws -> [String: String?]
    /// The last server record known for a record ID (change tag and fields: a merge's ancestor).
    func serverRecord(_ id: RecordID) throws -> SyncRecord?
    /// `serverRecord` for records of one zone, in one read: a record none is kept for is absent.
    func serverRecords(_ names: [String], in zone: ZoneID) throws -> [String: SyncRecord]
    func setServerRecord(_ record: SyncRecord) throws
    func removeServerRecord(_ id: RecordID) throws
    /// A save whose reply was lost (`serverResponseLost`), as it was sent: it may be on the server
    /// or not. Kept until a server version of the record says which (`uploadVersions` names it,
    /// or does not), one per record.
    func setUnconfirmedUpload(_ record: SyncRecord) throws
    func unconfirmedUpload(_ id: RecordID) throws -> SyncRecord?
    func removeUnconfirmedUpload(_ id: RecordID) throws
    /// IDs of every server record known in a zone.
    func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID]
    /// IDs of the server records known of one record under a parent, in any zone (more than one
    /// while the record moves between zones; only records under a parent move).
    func serverRecordIDs(recordType: String, recordName: String) throws -> [RecordID]

    // MARK: Changes set aside

    /// Sets a change aside (replacing an earlier one for the same record).
    func setAside(_ change: FailedChange) throws
    /// Every change set aside, by record type and name.
    func failedChanges() throws -> [FailedChange]
    func failedChange(recordType: String, recordName: String) throws -> FailedChange?
    func removeFailedChange(recordType: String, recordName: String) throws

    // MARK: Conflicts

    /// Notes that sync resolved a conflict on the record by itself, now (its status shows it).
    func noteConflictResolution(recordType: String, recordName: String) throws
    /// Keeps the fields a merge settled, with the values it settled them from, and lets go of the
    /// conflicts `retention` no longer keeps.
    func recordConflict(recordType: String, id: RecordID, fields: [FieldConflict], retention: ConflictRetention) throws -> RecordConflict

    // MARK: Accounts

    /// Moves every unpushed change (waiting or set aside) of the signed-in account out of reach,
    /// with the model as it is, the last server version it was based on, a file still to upload,
    /// and, as remote, the entry of a file the cloud holds; then removes every model and every
    /// piece of sync state. Returns the entries of the files parked with them (their files are
    /// the caller's to move).
    func parkAndPurge(account: String) throws -> (count: Int, assets: [AssetCacheEntry])
    /// Puts an account's parked changes back as changes to push. Returns how many, and the asset
    /// entries whose files are to be moved back.
    func restoreParked(account: String) throws -> (count: Int, assets: [AssetCacheEntry])
    /// Accounts with parked changes, and how many.
    func parkedChanges() throws -> [ParkedChanges]
    /// Forgets an account's parked changes; returns the asset entries whose files are to go.
    func discardParked(account: String) throws -> [AssetCacheEntry]
    /// Removes every model and every piece of sync state (parked changes stay).
    func purgeEverything() throws

    // MARK: Engine state

    /// The engine's small state: change tokens, the signed-in user, pending share acceptances.
    func state(_ key: String) throws -> String?
    func setState(_ key: String, _ value: String?) throws
    /// Keys of the engine's state that start with `prefix`.
    func stateKeys(prefix: String) throws -> [String]

    // MARK: Catalog refresh

    /// Forgets the records a catalog refresh noted as received: one begins, or one ended.
    func clearCatalogReceived(recordType: String) throws
    /// Notes records a catalog refresh received, page by page, so that what it did not receive
    /// is found at its end without the catalog held in memory.
    func noteCatalogReceived(recordType: String, recordNames: [String]) throws
    /// Up to `limit` names of the stored models of a catalog type that the refresh under way has
    /// not noted as received, in name order after `after` (from the first when nil).
    func catalogRecordsNotReceived(type: any SyncModel.Type, after: String?, limit: Int) throws -> [String]

    // MARK: Asset cache

    /// The asset cache's entries: one per record that has an asset this device knows of.
    func assetEntry(_ key: AssetKey) throws -> AssetCacheEntry?
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
    /// Sets a stored model's asset markers, as the app (so they are pushed), and writes its asset
    /// entry: the markers the model uploads and the file the cache holds never disagree. False
    /// when no such model is stored.
    func attachAsset<Model: CacheableModel>(_ reference: AssetReference, entry: AssetCacheEntry, to type: Model.Type, recordName: String) throws -> Bool
}

/// Typed writes inside one local-store transaction.
package protocol ModelWriter: AnyObject {
    func save<Model: SyncModel>(_ model: Model) throws
    func delete<Model: SyncModel>(_ model: Model) throws
    func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model?
}
