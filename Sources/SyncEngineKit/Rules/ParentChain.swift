import SyncCore
import SyncPorts
/// Where a record belongs in its share hierarchy, and what becomes of the records under a parent
/// that is gone: the one place the push's placement, a refused child and a pulled orphan take
/// these rules from.
///
/// - A record with a parent lives in its parent chain's zone: it takes the owner of its topmost
///   stored ancestor. A record without a parent, or whose parent is not stored, keeps its owner.
/// - A record whose parent was deleted follows it: it goes here with its subtree, and its copies
///   go from the cloud. The deletion wins over an edit of the child and over a move into the
///   parent, in whichever order the devices hear of them.
struct ParentChain {
    let context: SyncContext

    /// How far up a parent chain the engine looks (a guard against cycles in bad data).
    static let maxDepth = 8

    /// The store's topics these rules read and write.
    typealias Topics = StoredModels & ServerVersions & StoreHistory & SetAsideChanges & LostChangeNotices

    /// The owner of the zone a record of `type` under `parent` belongs in; nil when the record's
    /// own owner decides (no parent, or a parent this device does not store).
    func owner(under parent: String?, type: any SyncModel.Type, in store: any Topics) throws -> String? {
        var name = parent
        var ancestorType = context.registry.parentType(of: type)
        var owner: String?
        for _ in 0..<Self.maxDepth {
            guard let current = name, let currentType = ancestorType, let stored = try store.parentAndOwner(type: currentType, recordName: current) else { break }
            owner = stored.owner
            name = stored.parent
            ancestorType = context.registry.parentType(of: currentType)
        }
        return owner
    }

    /// Deletes a record whose parent is gone, with its subtree, and queues the deletion of every
    /// copy the cloud has of them.
    func follow(deletedParent parent: String, type: any SyncModel.Type, recordName: String, in store: any Topics) throws {
        for key in try store.deletePulled(type: type, recordName: recordName) {
            try store.removeFailedChange(recordType: key.recordType, recordName: key.recordName)
            for copy in try store.serverRecordIDs(recordType: key.recordType, recordName: key.recordName) where copy.scope != .public {
                try store.queueDeletion(recordType: key.recordType, recordName: key.recordName, ownerName: copy.zoneID.ownerName)
            }
        }
        try LostChanges(context: context).announce(.removedWithParent(RecordKey(type.recordType, recordName), parentRecordName: parent), in: store)
    }

    /// The records the deletion of `ancestor`, heard from the cloud, took with it (`removed`, the
    /// ancestor left out). In the user's own zone their copies go from the cloud too, unless the
    /// same page deleted them already: the device that deleted the parent may not have known
    /// them. In a shared zone the owner's devices do that; here only what the server had is
    /// forgotten. A record the app had changed is announced: its change is gone with it, and so
    /// is the copy another zone holds of one this device moved under the parent (the move loses
    /// to the parent's deletion, and the device that deleted the parent never knew of it there).
    ///
    /// Returns the records the app had changed; `announcing` false leaves telling of them to the
    /// caller (a share that ended lists them in its event).
    @discardableResult
    func settle(subtree removed: [RecordKey], under ancestor: String, in zone: ZoneID, deletedAlready: Set<RecordKey>, announcing: Bool = true, in store: any Topics) throws -> [RecordKey] {
        var changed: [RecordKey] = []
        for key in removed where !deletedAlready.contains(key) {
            if try store.hasLocalChange(recordType: key.recordType, recordName: key.recordName) {
                changed.append(key)
                if announcing { try LostChanges(context: context).announce(.removedWithParent(key, parentRecordName: ancestor), in: store) }
                try deleteCopiesLeftByMove(of: key, outside: zone.ownerName, in: store)
            }
            try store.removeFailedChange(recordType: key.recordType, recordName: key.recordName)
            let id = RecordID(recordName: key.recordName, zoneID: zone)
            guard try store.serverRecord(id) != nil else { continue }
            if zone.scope == .private {
                try store.queueDeletion(recordType: key.recordType, recordName: key.recordName, ownerName: zone.ownerName)
            } else {
                try store.removeServerRecord(id)
            }
        }
        return changed
    }

    /// Queues the deletion of the copies the cloud has of a record this device changed, in zones
    /// other than the one of `home` it lives in: copies a move of it left, whose queued deletion
    /// may be gone (folded by parking into a later change of the record), or a move that lost
    /// to a deletion. Only a device that changed the record does this: another device's
    /// knowledge of those copies may be older than a version saved there since (the record
    /// moved back), and CloudKit deletes without a change tag.
    func deleteCopiesLeftByMove(of key: RecordKey, outside home: String, in store: any Topics) throws {
        for copy in try store.serverRecordIDs(recordType: key.recordType, recordName: key.recordName)
        where copy.scope != .public && copy.zoneID.ownerName != home {
            try store.queueDeletion(recordType: key.recordType, recordName: key.recordName, ownerName: copy.zoneID.ownerName)
        }
    }

    /// Deletes this device's copy of a zone (its owner's records of `types`, each with its
    /// subtree): a shared zone left the shared database or this user left its zone-wide share, or
    /// the user purged a private zone and the app chose to remove its data here too. Returns the
    /// records the app had changed there and the cloud never received: those changes are gone too.
    @discardableResult
    func removeCopy(of zone: ZoneID, types: [any SyncModel.Type], in store: any Topics) throws -> [RecordKey] {
        var lost: [RecordKey] = []
        for type in types {
            for name in try store.recordNames(type: type, ownerName: zone.ownerName) {
                for key in try store.deletePulled(type: type, recordName: name) {
                    if try store.hasLocalChange(recordType: key.recordType, recordName: key.recordName) { lost.append(key) }
                    try store.removeFailedChange(recordType: key.recordType, recordName: key.recordName)
                }
            }
        }
        return lost
    }

    /// Deletes a shared root and everything under it, locally (the root's siblings in the zone
    /// stay): the share ended, or this user left it. Returns the records the app had changed
    /// there and the cloud never received, the root's first: those changes are gone too.
    func removeSharedSubtree(root: String, type: any SyncModel.Type, zone: ZoneID, in store: any Topics) throws -> [RecordKey] {
        let key = RecordKey(type.recordType, root)
        let rootChanged = try store.hasLocalChange(recordType: type.recordType, recordName: root)
        try store.removeServerRecord(RecordID(recordName: root, zoneID: zone))
        try store.removeFailedChange(recordType: type.recordType, recordName: root)
        let removed = try store.deletePulled(type: type, recordName: root)
        let children = try settle(subtree: removed.filter { $0 != key }, under: root, in: zone, deletedAlready: [], announcing: false, in: store)
        return (rootChanged ? [key] : []) + children
    }

}
