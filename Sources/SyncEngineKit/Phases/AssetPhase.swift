import Foundation
import SyncCore
import SyncPorts

/// The asset cache: each asset field of a record is a file in the cache plus CKAsset contents in
/// the cloud, moved between them by the state machine of `AssetCacheState`, on its own: an entry
/// and a file per field (`AssetKey`), each travelling under the record keys of its field.
///
/// The app attaches files, reads them and asks for downloads; every engine pass then transfers:
/// uploads of records that are already in the cloud (a record is always pushed before its asset,
/// so the upload never meets `unknownItem`), requested and pinned downloads, and evictions down
/// to the cache's budget. Pulls only read the markers (suffix, size, SHA-256 digest): a file whose
/// fingerprint is unchanged is never downloaded again, and one replaced by another of the same
/// size is.
struct AssetPhase {
    let context: SyncContext

    // MARK: - The app's requests

    /// Writes `data` as the file of a stored record's asset field and sets the record's markers,
    /// so the next pass pushes the record and then uploads the file.
    func attach<Model: CacheableModel>(_ data: Data, suffix: String, to key: AssetKey, of type: Model.Type, pinned: Bool) throws(AssetError) {
        guard type.assetField(named: key.field) != nil else { throw .notAnAssetField(key) }
        let files = try context.assetFileStore()
        let previous = try context.assetTransaction { try $0.assetEntry(key) }
        let written: AssetReference
        do {
            written = try files.write(data, for: key, suffix: suffix)
        } catch {
            throw .fileSystem(key, "\(error)")
        }
        let entry = AssetCacheEntry(
            key: key, state: .local, suffix: suffix, byteSize: written.byteSize, digest: written.digest,
            isPinned: pinned || previous?.isPinned == true, lastAccess: context.clock.now)
        let attached = try context.assetTransaction { try $0.attachAsset(written, entry: entry, to: type) }
        guard attached else {
            try? files.removeFile(for: key, suffix: suffix)
            throw .noSuchRecord(key)
        }
        if let previous, previous.suffix != suffix {
            try? files.removeFile(for: key, suffix: previous.suffix)
        }
        context.announce(entry)
    }

    /// The asset's file on this device, or nil when it is not here (request a download). Reading
    /// counts as a use: the least recently used files are evicted first.
    func fileURL(for key: AssetKey) throws(AssetError) -> URL? {
        guard var entry = try context.assetTransaction({ try $0.assetEntry(key) }), entry.state.hasLocalFile, entry.state != .unload else { return nil }
        let files = try context.assetFileStore()
        guard files.fileExists(for: key, suffix: entry.suffix) else {
            // Removed behind the cache's back: the cloud's copy can still come back.
            if entry.state == .cached {
                entry.state = .remote
                try context.assetTransaction { try $0.setAssetEntry(entry) }
                context.announce(entry)
            }
            return nil
        }
        entry.lastAccess = context.clock.now
        try context.assetTransaction { try $0.setAssetEntry(entry) }
        return files.fileURL(for: key, suffix: entry.suffix)
    }

    /// Asks for the asset's contents; the next pass downloads them. `pin` keeps the file from
    /// eviction. Nothing happens when the file is already here.
    func requestDownload(_ key: AssetKey, pin: Bool) throws(AssetError) {
        guard var entry = try context.assetTransaction({ try $0.assetEntry(key) }) else { throw .noAsset(key) }
        if pin { entry.isPinned = true }
        if let next = entry.state.after(.downloadRequested) { entry.state = next }
        try context.assetTransaction { try $0.setAssetEntry(entry) }
        context.announce(entry)
    }

    /// Lets the asset be evicted again.
    func unpin(_ key: AssetKey) throws(AssetError) {
        guard var entry = try context.assetTransaction({ try $0.assetEntry(key) }) else { throw .noAsset(key) }
        entry.isPinned = false
        try context.assetTransaction { try $0.setAssetEntry(entry) }
    }

    func entry(_ key: AssetKey) throws(AssetError) -> AssetCacheEntry? {
        try context.assetTransaction { try $0.assetEntry(key) }
    }

    // MARK: - Transfers (each pass, after the push)

    /// Forgets the files of deleted records, uploads what is owed, downloads what is asked for,
    /// then evicts down to the budget. A failure of one asset falls back and is reported; a
    /// failure of the whole request (the network) stops the transfers and fails the pass, to be
    /// retried with it. Each transfer is for `account`, checked again before it; with no account,
    /// only the local steps run. `heldBy`: the device conditions holding uploads and downloads
    /// back (`SyncConfiguration.assetTransfersWaitFor`); they wait, said in an event.
    func transfer(as account: PassAccount, heldBy conditions: Set<DeviceCondition> = []) async throws(SyncError) {
        guard case .success(let files) = context.assetFiles else { return }
        try context.transaction { store in
            for entry in try store.takeOrphanedAssetEntries() { try AssetMarkers(context: context).forget(entry, in: store) }
        }
        // A reader of public data (`SyncConfiguration.readOnly`) downloads signed out too, and
        // uploads nothing.
        let readOnly = context.configuration.readOnly
        if account.isSignedIn || readOnly {
            if conditions.isEmpty {
                if !readOnly { try await upload(files, as: account) }
                try await download(files, as: account)
            } else {
                context.events.publish(.assetTransfersWaiting(conditions))
            }
        }
        try evict(files, downTo: context.configuration.assetCacheLimit)
    }

    private func upload(_ files: any AssetFileStoring, as account: PassAccount) async throws(SyncError) {
        for var entry in try context.transaction({ try $0.assetEntries(in: [.local, .upload]) }) {
            guard let place = try place(of: entry) else { continue }
            // Never before the record itself is in the cloud: the upload would meet `unknownItem`.
            guard let server = try context.transaction({ try $0.serverRecord(place.id) }) else { continue }
            if entry.state == .local { try move(&entry, .recordPushed) }
            try move(&entry, .transferStarted)
            let contents = SyncAsset(fileURL: files.fileURL(for: entry.key, suffix: entry.suffix))
            do {
                switch try await save(contents, of: entry, under: place.keys, onto: server, in: place.scope, as: account) {
                case .success: try finish(entry)
                case .failure(let error): try fail(entry, .cloud(error))
                }
            } catch {
                try fail(entry, error)
                throw error
            }
        }
    }

    /// Saves the record as the server has it with the field's contents and markers set. When the
    /// server's record changed meanwhile, once more onto the version the conflict returned: only
    /// the field's keys are this save's business.
    private func save(
        _ contents: SyncAsset, of entry: AssetCacheEntry, under keys: AssetRecordKeys, onto server: SyncRecord, in scope: DatabaseScope, as account: PassAccount
    ) async throws(SyncError) -> Result<Void, CloudError> {
        try await RecoveryPolicy.savingAgainOnConflict("the asset of \(entry.key)") { (conflict: CloudError?) async throws(SyncError) -> Result<SyncRecord, CloudError>? in
            var record = server
            if let conflict {
                // Only the server's version the conflict brought can be saved onto.
                guard let newer = conflict.serverRecord else { return .failure(conflict) }
                record = newer
            }
            try await account.verify()
            record.fields[keys.contents] = .asset(contents)
            record.fields[keys.suffix] = .string(entry.suffix)
            record.fields[keys.size] = .int64(entry.byteSize)
            if !entry.digest.isEmpty { record.fields[keys.digest] = .string(entry.digest) }
            let result = try await context.cloud.modify(ModifyRequest(recordsToSave: [record]), in: scope)
            // The known server version is a merge's ancestor: it must be one the local model
            // reflects. Saved onto the version this device knew, it is; saved onto a newer one
            // (after a conflict), the model has not seen that version's changes yet, and the
            // next push or pull merges them in against the version it knew.
            if conflict == nil, case .success(let saved)? = result.savedRecords[record.id] {
                try context.transaction { try $0.setServerRecord(saved) }
            }
            return result.savedRecords[record.id]
        }.map { _ in () }
    }

    private func download(_ files: any AssetFileStoring, as account: PassAccount) async throws(SyncError) {
        for var entry in try context.transaction({ try $0.pinnedAssetEntries(in: [.remote]) }) {
            try move(&entry, .downloadRequested)
        }
        // An asset the cloud cannot hand over for now stands, and the pass ends with its error,
        // whose action retries it later by itself, with backoff.
        var notAvailable: CloudError?
        for var entry in try context.transaction({ try $0.assetEntries(in: [.download]) }) {
            guard let place = try place(of: entry) else { continue }
            try move(&entry, .transferStarted)
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.cloud.fetchRecords([place.id], desiredKeys: place.keys.all, in: place.scope)
            } catch {
                try standAgain(&entry)
                throw error
            }
            // CloudKit hands the file over in a staging area the system cleans (Apple, `CKAsset`:
            // "When you fetch a record that contains an asset, CloudKit stores the asset's data in
            // a staging area"): it is copied into the cache before anything else is awaited, the
            // account's check included.
            let downloaded = copyOut(found[place.id], for: entry, under: place.keys, into: files)
            do {
                try await account.verify()
            } catch {
                // The copy stays unused: a switch of account empties the cache, and the next
                // download writes over it.
                try standAgain(&entry)
                throw error
            }
            switch downloaded {
            case .success(let cached):
                if cached.suffix != entry.suffix { try? files.removeFile(for: entry.key, suffix: entry.suffix) }
                try finish(cached)
            case .failure(.cloud(let error)) where RecoveryPolicy.isNotAvailableYet(error):
                try standAgain(&entry)
                notAvailable = error
            case .failure(let error):
                try fail(entry, error)
            }
        }
        if let notAvailable { throw .cloud(notAvailable) }
    }

    /// A download that did not happen stands: it is tried again with the next pass.
    private func standAgain(_ entry: inout AssetCacheEntry) throws(SyncError) {
        entry.state = .download
        try context.transaction { [entry] in try $0.setAssetEntry(entry) }
        context.announce(entry)
    }

    /// The fetched record's file, copied into the cache: the entry as it is once cached, or why
    /// it cannot be.
    private func copyOut(
        _ found: Result<SyncRecord, CloudError>?, for entry: AssetCacheEntry, under keys: AssetRecordKeys, into files: any AssetFileStoring
    ) -> Result<AssetCacheEntry, SyncError> {
        switch found {
        case .success(let record):
            guard let contents = record.assetContents(keys) else {
                return .failure(.cloud(CloudError(.unknownItem, "\(entry.key) has no asset contents in the cloud yet")))
            }
            var cached = entry
            cached.suffix = (try? record.decodeAssetReference(keys))?.suffix ?? entry.suffix
            do {
                let downloaded = try files.importFile(at: contents.fileURL, for: entry.key, suffix: cached.suffix)
                (cached.byteSize, cached.digest) = (downloaded.byteSize, downloaded.digest)
            } catch {
                return .failure(.assetFiles(.fileSystem(entry.key, "the downloaded file could not be cached: \(error)")))
            }
            cached.lastAccess = context.clock.now
            return .success(cached)
        case .failure(let error):
            return .failure(.cloud(error))
        case nil:
            return .failure(.cloud(CloudError.noResult(for: "the asset of \(entry.key)")))
        }
    }

    // MARK: - Steps

    /// Where the asset's record lives (its zone by the one routing rule, from the stored model's
    /// owner) and the keys its field travels under. nil (and the entry forgotten) when the model
    /// is no longer stored, or no longer has the field.
    private func place(of entry: AssetCacheEntry) throws(SyncError) -> (id: RecordID, scope: DatabaseScope, keys: AssetRecordKeys)? {
        guard let type = context.registry.cacheableType(forRecordType: entry.key.recordType),
            let keys = type.assetField(named: entry.key.field)?.recordKeys,
            let owner = try context.transaction({ try $0.parentAndOwner(type: type, recordName: entry.key.recordName) })?.owner
        else {
            try context.transaction { try AssetMarkers(context: context).forget(entry, in: $0) }
            return nil
        }
        let zone = context.zone(of: type, ownerName: owner)
        return (RecordID(recordName: entry.key.recordName, zoneID: zone), DatabaseScope.forZone(zone), keys)
    }

    func move(_ entry: inout AssetCacheEntry, _ event: AssetCacheEvent) throws(SyncError) {
        guard let next = entry.state.after(event) else { return }
        entry.state = next
        try context.transaction { try $0.setAssetEntry(entry) }
        context.announce(entry)
    }

    /// A transfer ended well: `cached`, unless the app attached another file meanwhile.
    private func finish(_ transferred: AssetCacheEntry) throws(SyncError) {
        guard var current = try context.transaction({ try $0.assetEntry(transferred.key) }),
            current.state == transferred.state, current.suffix == transferred.suffix || transferred.state == .downloading
        else { return }
        current.suffix = transferred.suffix
        current.byteSize = transferred.byteSize
        current.digest = transferred.digest
        current.lastAccess = transferred.lastAccess
        try move(&current, .transferSucceeded)
    }

    /// A transfer failed: back to `local` or `remote`, unless the app changed the asset meanwhile.
    private func fail(_ entry: AssetCacheEntry, _ error: SyncError) throws(SyncError) {
        if var current = try context.transaction({ try $0.assetEntry(entry.key) }), current.state == entry.state {
            try move(&current, .transferFailed)
        }
        context.events.publish(.assetTransferFailed(entry.key, error))
    }
}
