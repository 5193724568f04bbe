import Foundation
import SyncCore
import SyncPorts

/// The copy a participant keeps of a share they leave: a shared root and every record under it,
/// or the records of a zone shared whole (all of them, or the ones this user created), saved in
/// the user's own zones as the app's new records (the next pass pushes them).
///
/// - Local rows are keyed by record name, and the originals may come back (the user joins the
///   share again), so every copy gets a new name; its parent and its references to records of
///   the copy follow the new names. A reference to a record outside the copy keeps its name:
///   nothing beyond what was asked is copied.
/// - A record this user created under someone else's takes its ancestors with it (without their
///   other children): a child cannot live without its parent, and nothing the user wrote is left
///   behind.
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
struct LeftShareCopy {
    /// The store topics a copy reads and writes.
    typealias Topics = StoredModels & AssetEntries & EngineState & ServerVersions

    let context: SyncContext

    /// What a leave copies.
    enum Source {
        /// A shared root and everything under it.
        case subtree(root: String, type: any SyncModel.Type, ownerName: String)
        /// The records of a zone shared whole: every one, or only those this user created.
        case zone(ZoneID, onlyOwnRecords: Bool)

        /// Where the copy is remembered until the leave is done.
        var key: String {
            switch self {
            case .subtree(let root, _, let ownerName): SyncStateKeys.copyOfLeftShare(root: root, ownerName: ownerName)
            case .zone(let zone, _): SyncStateKeys.copyOfLeftShare(zone: zone)
            }
        }
    }

    /// One copied record: its type, the original's name and the name it is stored under.
    struct Copied: Codable {
        var recordType: String
        var original: String
        var copy: String
    }

    /// A record to copy: its type, its name, and where its parent is in the list (parents come
    /// before their children).
    private struct Original {
        var type: any SyncModel.Type
        var name: String
        var parent: Int?
    }

    /// Copies what `source` names into the user's zones, or finds the copy an interrupted leave
    /// made, in the caller's transaction (the copies and the note of them commit together).
    /// Parents are copied before their children; a root's copy comes first.
    func copy(_ source: Source, in store: any Topics) throws -> [Copied] {
        if let copied = try Self.remembered(source.key, in: store) { return copied }
        let originals: [Original]
        switch source {
        case .subtree(let root, let type, _):
            originals = try records(under: [(type, root)], in: store)
        case .zone(let zone, let onlyOwnRecords):
            let all = try records(of: zone, in: store)
            originals = onlyOwnRecords ? try createdByThisUser(all, in: zone, store: store) : all
        }
        try refuseAssetsNotOnDevice(originals, in: store)
        let copied = try save(originals, in: store)
        try store.setState(source.key, String(decoding: try JSONEncoder().encode(copied), as: UTF8.self))
        return copied
    }

    /// Forgets the copy an interrupted leave remembered: the leave is done.
    static func forget(_ source: Source, in store: any EngineState) throws {
        try store.setState(source.key, nil)
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

    /// The records under these roots, each root followed by its subtree, each parent before its
    /// children (the copies' natural keys are settled top down). A root not stored has none.
    private func records(under roots: [(type: any SyncModel.Type, name: String)], in store: any Topics) throws -> [Original] {
        var records: [Original] = []
        for root in roots where try store.isStored(type: root.type, recordName: root.name) {
            var next = records.count
            records.append(Original(type: root.type, name: root.name, parent: nil))
            while next < records.count {
                let parent = next
                next += 1
                for childType in records[parent].type.childTypes {
                    for name in try store.childNames(type: childType, parentRecordName: records[parent].name) {
                        records.append(Original(type: childType, name: name, parent: parent))
                    }
                }
            }
        }
        return records
    }

    /// Every record of a zone shared whole, as this device holds it: each of its models' roots
    /// with their subtrees, then any record whose parent has not arrived (kept too, parentless
    /// as it is stored).
    private func records(of zone: ZoneID, in store: any Topics) throws -> [Original] {
        let types = context.sharedTypes(in: zone)
        let recordTypes = Set(types.map { $0.recordType })
        let stored = try types.map { type in (type: type, names: try store.recordNames(type: type, ownerName: zone.ownerName)) }
        var roots: [(type: any SyncModel.Type, name: String)] = []
        for (type, names) in stored where type.parentRecordType.map({ !recordTypes.contains($0) }) ?? true {
            roots += names.map { (type, $0) }
        }
        var records = try records(under: roots, in: store)
        var seen = Set(records.map { RecordKey($0.type.recordType, $0.name) })
        for (type, names) in stored {
            for name in names where seen.insert(RecordKey(type.recordType, name)).inserted {
                records.append(Original(type: type, name: name, parent: nil))
            }
        }
        return records
    }

    /// The records this user created (one the cloud has not seen yet is theirs), each with its
    /// ancestors, in the order given.
    private func createdByThisUser(_ records: [Original], in zone: ZoneID, store: any Topics) throws -> [Original] {
        var versions: [String: SyncRecord] = [:]
        for (_, group) in Dictionary(grouping: records, by: { $0.type.recordType }) {
            versions.merge(try store.serverRecords(group.map(\.name), in: zone)) { first, _ in first }
        }
        var kept = Set<Int>()
        for (index, record) in records.enumerated() {
            let creator = versions[record.name]?.creatorUserRecordName ?? SyncConstants.currentUserOwnerName
            guard creator == SyncConstants.currentUserOwnerName else { continue }
            var next: Int? = index
            while let ancestor = next, kept.insert(ancestor).inserted { next = records[ancestor].parent }
        }
        return records.indices.filter(kept.contains).map { records[$0] }
    }

    private func refuseAssetsNotOnDevice(_ records: [Original], in store: any Topics) throws {
        for record in records where record.type is any CacheableModel.Type {
            for entry in try store.assetEntries(recordType: record.type.recordType, recordName: record.name) where !entry.state.hasLocalFile {
                throw SyncError.assetFiles(.notOnDevice(entry.key))
            }
        }
    }

    /// Saves the copies under new names. A copy that turned out to be an existing record renames
    /// the references to it, so the copies saved before it are saved again with the final names.
    private func save(_ records: [Original], in store: any Topics) throws -> [Copied] {
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
