import SyncCore
import SyncPorts

// Eviction: files the cloud holds, taken off the device, least recently read first.
extension AssetPhase {
    /// Evicts down to `limit` bytes, least recently read first: only files the cloud has and
    /// nobody pinned (`cached`, never one waiting to upload or downloading), each forgotten here
    /// and downloadable again. Under the limit, this reads one number. Returns the bytes the
    /// cache holds after (more than `limit` when what is left cannot go).
    @discardableResult
    func evict(_ files: any AssetFileStoring, downTo limit: Int64) throws(SyncError) -> Int64 {
        var total = try context.transaction { try $0.cachedAssetBytes() }
        guard total > limit else { return total }
        for var entry in try context.transaction({ try $0.evictionCandidates() }) {
            guard total > limit else { break }
            try move(&entry, .evictionChosen)
            try? files.removeFile(for: entry.key, suffix: entry.suffix)
            try move(&entry, .evicted)
            total -= entry.byteSize
        }
        return total
    }

    /// The app's ask under storage pressure (`SyncEngine.shrinkAssetCache(to:)`): evicts down to
    /// `bytes` now, whatever the configured limit. Nothing when the cache has no files of its own.
    func shrink(to bytes: Int64) throws(SyncError) -> Int64 {
        guard case .success(let files) = context.assetFiles else { return 0 }
        return try evict(files, downTo: max(bytes, 0))
    }
}
