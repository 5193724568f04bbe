import SyncCore
import SyncPorts

/// A record's asset markers meeting the asset cache: what a cloud version brings (a new file to
/// learn of, this device's copy gone stale, an asset removed) and what a record's end means for
/// its file. Runs in the transaction that applied the version (``CloudVersionArrival``), so the
/// markers a model holds and the entry the cache keeps never disagree.
struct AssetMarkers {
    let context: SyncContext

    /// A cloud version of a record was applied: take in the markers of each of its model's asset
    /// fields.
    func arrived(_ record: SyncRecord, in store: any AssetEntries) throws {
        guard let type = context.registry.cacheableType(forRecordType: record.recordType) else { return }
        for field in type.assetFields {
            let key = AssetKey(recordType: record.recordType, recordName: record.id.recordName, field: field.name)
            try arrived(try? record.decodeAssetReference(field.recordKeys), for: key, in: store)
        }
    }

    /// A record arrived with these markers: learn of a new asset (its suffix names the file on a
    /// device that never had it), or mark this device's copy stale when the fingerprint changed.
    /// Unchanged markers change nothing, so a repeated refresh transfers nothing.
    private func arrived(_ reference: AssetReference?, for key: AssetKey, in store: any AssetEntries) throws {
        let entry = try store.assetEntry(key)
        if let entry, entry.state.isAwaitingUpload { return }  // this device's new file wins until uploaded
        guard let reference else {
            if let entry { try forget(entry, in: store) }
            return
        }
        guard var entry else {
            let learned = AssetCacheEntry(
                key: key, state: .remote, suffix: reference.suffix, byteSize: reference.byteSize, digest: reference.digest, lastAccess: context.clock.now)
            try store.setAssetEntry(learned)
            context.events.publish(.assetStateChanged(learned.key, learned.state))
            return
        }
        guard try isStale(entry, comparedWith: reference) else {
            if entry.digest.isEmpty && !reference.digest.isEmpty {
                entry.digest = reference.digest
                try store.setAssetEntry(entry)
            }
            return
        }
        if entry.state.hasLocalFile, case .success(let files) = context.assetFiles {
            try? files.removeFile(for: key, suffix: entry.suffix)
        }
        entry.state = entry.state.after(.remoteChanged) ?? .remote
        entry.suffix = reference.suffix
        entry.byteSize = reference.byteSize
        entry.digest = reference.digest
        try store.setAssetEntry(entry)
        context.events.publish(.assetStateChanged(entry.key, entry.state))
    }

    /// Whether the cloud's markers name other contents than this device's entry. An entry written
    /// before digests travelled has none: its file, when here, is read to tell.
    private func isStale(_ entry: AssetCacheEntry, comparedWith reference: AssetReference) throws -> Bool {
        if entry.reference.differs(from: reference) { return true }
        guard entry.digest.isEmpty, !reference.digest.isEmpty, entry.state.hasLocalFile, case .success(let files) = context.assetFiles,
            let local = try files.reference(for: entry.key, suffix: entry.suffix)
        else { return false }
        return local.differs(from: reference)
    }

    /// The record is gone (deleted here or in the cloud): so is its file.
    func forget(_ entry: AssetCacheEntry, in store: any AssetEntries) throws {
        if case .success(let files) = context.assetFiles { try? files.removeFile(for: entry.key, suffix: entry.suffix) }
        try store.removeAssetEntry(entry.key)
    }
}
