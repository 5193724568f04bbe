import Foundation
import SyncCore
import SyncPorts

/// Planning a push: the changes read from the history become items, each placed in its zone and
/// database, with the ancestors the cloud lacks, in waves of parent depth.
extension PushPhase {
    /// One item per record per zone, the last change winning: a draft and its projection (one
    /// record name, two databases) stay two items, so do a moved record's save and the deletion
    /// of the copy it left. Changes for a zone the user deleted in Settings are left out: they
    /// wait for the app's decision, which uploads the zone's records as they then are, or removes
    /// them. A participant's deletion of a record under a shared root they deleted is left out
    /// too: deleting the root is leaving the share, and the records stay the owner's.
    func collect(_ changes: [HistoryEntry], in store: any Topics) throws -> [PushItem] {
        let userDeleted = Set(try store.stateKeys(prefix: SyncStateKeys.userDeletedZonePrefix))
        let saved = try savedRecords(changes, in: store)
        var order: [RecordID] = []
        var latest: [RecordID: PushItem] = [:]
        order.reserveCapacity(changes.count)
        latest.reserveCapacity(changes.count)
        for change in changes {
            guard let type = context.registry.type(forRecordType: change.recordType) else { continue }
            let item: PushItem
            switch change.kind {
            case .save:
                guard let record = saved[change.recordType]?[change.recordName] else { continue }
                item = PushItem(id: record.id, type: type, operation: .save(record))
            case .delete:
                // Routed by the same rule as saves, from the values the tombstone kept.
                let zone = context.zone(of: type, ownerName: change.ownerName)
                item = PushItem(id: RecordID(recordName: change.recordName, zoneID: zone), type: type, operation: .delete)
            }
            if item.id.scope == .private && userDeleted.contains(SyncStateKeys.userDeletedZone(item.id.zoneID)) { continue }
            if item.id.scope == .shared, case .delete = item.operation, try isUnderDeletedSharedRoot(item.id, in: store) {
                try CloudDeletionArrival(context: context).confirm(item.id, in: store)
                continue
            }
            if latest.updateValue(item, forKey: item.id) == nil { order.append(item.id) }
        }
        return order.compactMap { latest[$0] }
    }

    /// The record each saved model uploads, by type and name, read in one statement per type
    /// rather than one per change; a model no longer stored has none.
    private func savedRecords(_ changes: [HistoryEntry], in store: any Topics) throws -> [String: [String: SyncRecord]] {
        var names: [String: [String]] = [:]
        for change in changes where change.kind == .save { names[change.recordType, default: []].append(change.recordName) }
        var records: [String: [String: SyncRecord]] = [:]
        for (recordType, recordNames) in names {
            guard let type = context.registry.type(forRecordType: recordType) else { continue }
            records[recordType] = try store.uploadRecords(type: type, recordNames: recordNames, routes: context.routes)
        }
        return records
    }

    /// Whether an ancestor of this shared record, by what the server last said, is a share root
    /// this device deleted.
    func isUnderDeletedSharedRoot(_ id: RecordID, in store: any Topics) throws -> Bool {
        var current = try store.serverRecord(id)
        for _ in 0..<ParentChain.maxDepth {
            guard let parent = current?.parentRecordName, let record = try store.serverRecord(RecordID(recordName: parent, zoneID: id.zoneID)) else { return false }
            if record.shareRecordName != nil, let type = context.registry.type(forRecordType: record.recordType) {
                return try !store.isStored(type: type, recordName: parent)
            }
            current = record
        }
        return false
    }

    func prepare(_ items: [PushItem]) async throws(SyncError) -> [PushItem] {
        try await ensureAncestors(try place(items))
    }

    /// Each save goes to the zone of its parent chain (`ParentChain.owner`). A record whose chain
    /// changed owner moves: its subtree moves with it, and the local models take their new owner
    /// when their saves land. Every copy this device knows of a record with a parent in another
    /// zone than its save's is deleted once the save landed: the copy a move leaves, and one left
    /// by a move that landed while a crash took its results (a pull then put the model where the
    /// copy landed). The deletion of a record no longer stored here takes every copy too: the
    /// deletion queued for the copy a move left can be folded into the record's own later
    /// deletion (parking keeps one change per record). Public records are never rewritten.
    func place(_ items: [PushItem]) throws(SyncError) -> [PushItem] {
        // No record that can have a parent, and no zone moved: none moves, none leaves a copy,
        // nothing to read.
        let routes = context.routes
        let placesAll = !routes.moves.isEmpty
        guard items.contains(where: { $0.id.scope != .public && (placesAll || context.registry.parentType(of: $0.type) != nil) }) else { return items }
        return try context.transaction { store in
            let chain = ParentChain(context: context)
            var placed = items
            var known = Set(items.map { RecordKey($0.type.recordType, $0.id.recordName) })
            var present = Set(items.map(\.id))
            var index = 0
            while index < placed.count {
                defer { index += 1 }
                let type = placed[index].type
                guard placed[index].id.scope != .public, placesAll || context.registry.parentType(of: type) != nil else { continue }
                guard case .save(var record) = placed[index].operation else {
                    let name = placed[index].id.recordName
                    // A record still stored here lives on in one zone: only this copy goes.
                    guard try !store.isStored(type: type, recordName: name) else { continue }
                    for copy in try store.serverRecordIDs(recordType: type.recordType, recordName: name)
                    where copy.scope != .public && present.insert(copy).inserted {
                        placed.append(PushItem(id: copy, type: type, operation: .delete))
                    }
                    continue
                }
                if let owner = try chain.owner(under: record.parentRecordName, type: type, in: store), owner != record.id.zoneID.ownerName {
                    let from = record.id
                    record.id = RecordID(recordName: from.recordName, zoneID: context.zone(of: type, ownerName: owner))
                    placed[index].id = record.id
                    placed[index].operation = .save(record)
                    placed[index].isMove = true
                    for childType in context.registry.childTypes(of: type) {
                        for name in try store.childNames(type: childType, parentRecordName: from.recordName) where known.insert(RecordKey(childType.recordType, name)).inserted {
                            guard let child = try store.uploadRecord(type: childType, recordName: name, routes: routes) else { continue }
                            placed.append(PushItem(id: child.id, type: childType, operation: .save(child)))
                        }
                    }
                }
                // A copy in a zone that moved into the save's is removed by the move
                // (`ZoneMovePhase`), by its zone: a deletion queued here is routed by owner, to
                // the save's own zone.
                placed[index].leaves = try store.serverRecordIDs(recordType: type.recordType, recordName: record.id.recordName)
                    .filter { $0 != record.id && routes.resolve($0.zoneID) != record.id.zoneID }
            }
            // A save placed in a zone voids the deletion queued for that zone's copy (the record
            // moved back where an earlier move of it left a copy): CloudKit deletes without a
            // change tag, so the deletion would take the new version with it, and sent apart
            // from the save it could land after it.
            let saved = Set(placed.filter { $0.record != nil }.map(\.id))
            placed.removeAll { $0.record == nil && saved.contains($0.id) }
            return placed
        }
    }

    /// Adds the parents the server does not have yet: parents are looked up locally, their
    /// existence on the server checked in one request per round (a failed check counts as
    /// existing: better to skip an upload than to duplicate), at most ``ParentChain/maxDepth`` rounds.
    func ensureAncestors(_ items: [PushItem]) async throws(SyncError) -> [PushItem] {
        var batch = items
        var present = Set(items.map(\.id))
        for _ in 0..<ParentChain.maxDepth {
            let candidates = try context.transaction { store in
                var candidates: [RecordID: any SyncModel.Type] = [:]
                for item in batch {
                    guard let record = item.record, let parent = record.parentID, !present.contains(parent),
                        try store.serverRecord(parent) == nil,
                        let parentType = context.registry.parentType(of: item.type)
                    else { continue }
                    candidates[parent] = parentType
                }
                return candidates
            }
            guard !candidates.isEmpty else { break }
            var missing: [RecordID] = []
            for (scope, ids) in Dictionary(grouping: candidates.keys, by: \.scope) {
                do {
                    let found = try await context.cloud.fetchRecords(ids, desiredKeys: [], in: scope)
                    for id in ids {
                        if RecoveryPolicy.answer(found[id], for: id).isGone { missing.append(id) }
                    }
                } catch {
                    continue
                }
            }
            guard !missing.isEmpty else { break }
            let parents = try context.transaction { store in
                try missing.sorted(by: { $0.recordName < $1.recordName }).compactMap { id -> PushItem? in
                    guard let type = candidates[id],
                        var parent = try store.uploadRecord(type: type, recordName: id.recordName, routes: context.routes)
                    else { return nil }
                    parent.id = id
                    return PushItem(id: id, type: type, operation: .save(parent))
                }
            }
            batch += parents
            present.formUnion(parents.map(\.id))
        }
        return batch
    }
}
