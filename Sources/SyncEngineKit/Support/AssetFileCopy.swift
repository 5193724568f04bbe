import SyncCore
import SyncPorts

/// One asset's file given to another record: a draft's to its public projection (publishing), an
/// original's to its copy (leaving a share with a copy kept). The copy is a file of its own, which
/// the next pass uploads with its record. Support, not a rule: the file is copied between the
/// transactions that read and write its entries, for the two phases that copy files.
struct AssetFileCopy {
    let context: SyncContext

    /// Copies the file of `source` to `target`. The same contents (same fingerprint and suffix)
    /// are not copied or uploaded again; a source with no file here copies nothing.
    func copy(from source: AssetKey, to target: AssetKey) throws(AssetError) {
        guard let original = try context.assetTransaction({ try $0.assetEntry(source) }), original.state.hasLocalFile else { return }
        let existing = try context.assetTransaction { try $0.assetEntry(target) }
        if let existing, existing.reference == original.reference, existing.state != .remote {
            return
        }
        let files = try context.assetFileStore()
        let copied: AssetReference
        do {
            copied = try files.importFile(at: files.fileURL(for: source, suffix: original.suffix), for: target, suffix: original.suffix)
        } catch {
            throw .fileSystem(target, "\(error)")
        }
        if let existing, existing.suffix != original.suffix { try? files.removeFile(for: target, suffix: existing.suffix) }
        let entry = AssetCacheEntry(
            key: target, state: .local, suffix: original.suffix, byteSize: copied.byteSize, digest: copied.digest, isPinned: original.isPinned,
            lastAccess: context.clock.now)
        try context.assetTransaction { try $0.setAssetEntry(entry) }
        context.announce(entry)
    }
}
