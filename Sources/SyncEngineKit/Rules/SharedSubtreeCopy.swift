import Foundation
import SyncCore
import SyncPorts

/// The copy a participant keeps of a share they leave: the shared root and every record under
/// it, saved in the user's own zone as the app's new records (the next pass pushes them).
///
/// - Local rows are keyed by record name, and the originals may come back (the user joins the
///   share again), so every copy gets a new name; its parent and its references to records of
///   the subtree follow the new names. A reference to a record outside the subtree keeps its
///   name: nothing beyond the subtree is copied.
/// - A copy that repeats the natural key of one of the user's own records is that record (the
///   schema says they are one): the existing record stays as it is, and the copies under it
///   join it.
/// - The copy is made before the share is left, while the records can still be read, and is
///   remembered with the originals' names: leaving again after a crash keeps the copy it made
///   instead of making another.
/// - A record's asset file goes with it (the caller copies the files of `Copied.assets`), so the
///   copy uploads it; a file this device does not hold is refused before anything is written (it
///   cannot be read once the share is left). Files are copied after the records commit: a leave
///   cut between the two has them copied by the next pass (the share is still there until the
///   leave runs again, and so are the originals' files).
struct SharedSubtreeCopy {
    /// The store topics a copy reads and writes.
    typealias Topics = StoredModels & AssetEntries & EngineState

    let context: SyncContext

    /// One copied record: its type, the original's name and the name it is stored under.
    struct Copied: Codable {
        var recordType: String
        var original: String
        var copy: String
    }

    /// Copies `root`'s subtree into the user's zone, or finds the copy an interrupted leave made,
    /// in the caller's transaction (the copies and the note of them commit together). The root's
    /// copy comes first.
    func copy<Root: ShareableModel>(_ root: Root, in store: any Topics) throws -> [Copied] {
        let key = SyncStateKeys.copyOfLeftShare(root: root.recordName, ownerName: root.ownerName)
        if let copied = try Self.remembered(key, in: store) { return copied }
        let subtree = try records(under: root.recordName, type: Root.self, in: store)
        try refuseAssetsNotOnDevice(subtree, in: store)
        let copied = try save(subtree, in: store)
        try store.setState(key, String(decoding: try JSONEncoder().encode(copied), as: UTF8.self))
        return copied
    }

    /// The assets whose files go with the copies: each original's, to its new record (a record
    /// the copy joined keeps its own).
    func assets(of copied: [Copied]) -> [(original: AssetKey, copy: AssetKey)] {
        copied.flatMap { record -> [(original: AssetKey, copy: AssetKey)] in
            guard record.copy != record.original, let type = context.registry.cacheableType(forRecordType: record.recordType) else { return [] }
            return type.assetFields.map { field in
                (AssetKey(recordType: record.recordType, recordName: record.original, field: field.name),
                 AssetKey(recordType: record.recordType, recordName: record.copy, field: field.name))
            }
        }
    }

    /// The copy a leave remembered under `key`, if any.
    static func remembered(_ key: String, in store: any EngineState) throws -> [Copied]? {
        guard let kept = try store.state(key) else { return nil }
        return try? JSONDecoder().decode([Copied].self, from: Data(kept.utf8))
    }

    /// Every copy a leave not done yet remembers (the app died between the copy and the leave).
    static func rememberedCopies(in store: any EngineState) throws -> [[Copied]] {
        try store.stateKeys(prefix: SyncStateKeys.copyOfLeftSharePrefix).compactMap { try remembered($0, in: store) }
    }

    /// Forgets the copy an interrupted leave remembered: the leave is done.
    static func forget(root: String, ownerName: String, in store: any EngineState) throws {
        try store.setState(SyncStateKeys.copyOfLeftShare(root: root, ownerName: ownerName), nil)
    }

    /// The subtree's records, each parent before its children (the copies' natural keys are
    /// settled top down).
    private func records(under root: String, type: any SyncModel.Type, in store: any Topics) throws -> [(type: any SyncModel.Type, name: String)] {
        guard try store.isStored(type: type, recordName: root) else { return [] }
        var records: [(type: any SyncModel.Type, name: String)] = [(type, root)]
        var next = 0
        while next < records.count {
            let parent = records[next]
            next += 1
            for childType in parent.type.childTypes {
                for name in try store.childNames(type: childType, parentRecordName: parent.name) { records.append((childType, name)) }
            }
        }
        return records
    }

    private func refuseAssetsNotOnDevice(_ records: [(type: any SyncModel.Type, name: String)], in store: any Topics) throws {
        for record in records where record.type is any CacheableModel.Type {
            for entry in try store.assetEntries(recordType: record.type.recordType, recordName: record.name) where !entry.state.hasLocalFile {
                throw SyncError.assetFiles(.notOnDevice(entry.key))
            }
        }
    }

    /// Saves the copies under new names. A copy that turned out to be an existing record renames
    /// the references to it, so the copies saved before it are saved again with the final names.
    private func save(_ records: [(type: any SyncModel.Type, name: String)], in store: any Topics) throws -> [Copied] {
        let owner = SyncConstants.currentUserOwnerName
        var names = Dictionary(uniqueKeysWithValues: records.map { ($0.name, UUID().uuidString) })
        var existing: Set<String> = []
        for record in records {
            let fresh = names[record.name]!
            guard let stored = try store.saveCopy(type: record.type, recordName: record.name, as: fresh, ownerName: owner, renaming: names) else { continue }
            if stored != fresh {
                names[record.name] = stored
                existing.insert(record.name)
            }
        }
        if !existing.isEmpty {
            for record in records where !existing.contains(record.name) {
                _ = try store.saveCopy(type: record.type, recordName: record.name, as: names[record.name]!, ownerName: owner, renaming: names)
            }
        }
        return records.map { Copied(recordType: $0.type.recordType, original: $0.name, copy: names[$0.name]!) }
    }
}
