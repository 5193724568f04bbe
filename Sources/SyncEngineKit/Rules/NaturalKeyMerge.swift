import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts

/// Records of one zone that share a natural key (`SyncModel.uniqueKeys`) become one, with no
/// server of our own: every device that holds them merges them the same way, whatever the order
/// they arrived in.
///
/// The survivor is the record with the smallest name (the same on every device, and still the
/// smallest when more copies arrive). Each other copy's fields merge into it as a conflict without
/// an ancestor (each field by its own `merge`, else the model's policy: the later writer's value,
/// a union of lists, the larger number); the records that reference a copy, and its children,
/// are moved to the survivor; then the copy goes. Every change goes up as the app's, so the
/// cloud and the other devices agree. It runs after a pull, in the caller's transaction, on the records
/// the store marked for a check (those pulled, and a table's when a key is new to it): a pass
/// with nothing pulled reads one empty table. Only zones of the user's own are merged here: a
/// shared zone's copies are merged by its owner's devices (a participant may not be allowed to
/// mark them).
///
/// A copy in the cloud is retired, never deleted (``RetirementPhase``): CloudKit deletes without
/// a change tag, so a deletion would take a version another device saved since the merge, and
/// a device that hears of a copy only later (a record made under it elsewhere, pulled after)
/// could no longer tell a merged copy from a deleted one. Such a copy is merged once its mark
/// lands: the copy saved over the version this device knows, marked with its survivor
/// (`RecordFieldNames.mergedInto`), in one atomic request with the survivor holding the whole
/// copy. So wherever a mark is seen, the survivor in the cloud already holds the marked version:
/// a device that changed the copy since sends only what it changed, three-way against the mark,
/// to the survivor as it pulled it (`settleMarked`), and never saves the copy again. A copy the
/// cloud never had merges at once.
struct NaturalKeyMerge {
    /// The store topics a merge of natural keys reads and writes.
    typealias Topics = StoredModels & NaturalKeyMerges & ServerVersions & SetAsideChanges & StoreHistory & LostChangeNotices

    let context: SyncContext

    /// How many rounds of checks one call makes at most: a merge that changes a survivor checks
    /// it again, and each round leaves fewer records; what is left waits for the next pass.
    static let maximumRounds = 100

    /// Merges the records marked for a check that share a key with another, in the caller's
    /// transaction; returns each survivor with the copies merged into it, for the caller to
    /// announce once the transaction commits.
    func mergeDuplicates(in store: any Topics) throws -> [(survivor: RecordKey, merged: [String])] {
        let keyed = context.registry.types.filter { !$0.uniqueKeys.isEmpty }
        guard !keyed.isEmpty else { return [] }
        // A key the schema added since this store last met the model marks what it holds.
        for type in keyed { try store.prepareTable(for: type) }
        var merged: [(survivor: RecordKey, merged: [String])] = []
        for _ in 0..<Self.maximumRounds {
            let pending = try store.naturalKeyChecks()
            guard !pending.isEmpty else { break }
            try store.clearNaturalKeyChecks(pending)
            for key in pending {
                guard let type = context.registry.type(forRecordType: key.recordType), !type.uniqueKeys.isEmpty else { continue }
                if let settled = try settleMarked(key.recordName, of: type, store: store) {
                    if case .merged(let survivor) = settled { merged.append((RecordKey(key.recordType, survivor), [key.recordName])) }
                    continue
                }
                guard let found = try store.duplicates(of: key.recordName, type: type), found.owner == SyncConstants.currentUserOwnerName else { continue }
                for group in found.groups {
                    // A group an earlier merge of this round already settled is gone by now.
                    let stored = try group.filter { try store.isStored(type: type, recordName: $0) }
                    guard stored.count > 1, let survivor = stored.min() else { continue }
                    var now: [String] = []
                    for loser in stored where loser != survivor {
                        let id = RecordID(recordName: loser, zoneID: context.zone(of: type, ownerName: found.owner))
                        if try store.isRetiring(type: type, recordName: loser) { continue }
                        if let settled = try settleMarked(loser, of: type, store: store) {
                            if case .merged(let marked) = settled { merged.append((RecordKey(key.recordType, marked), [loser])) }
                            continue
                        }
                        if try store.serverRecord(id) == nil, try store.sentVersions(id).isEmpty {
                            // The cloud never had it (nor a save of it whose reply this
                            // device never read): nobody else can have merged it.
                            try complete(loser, of: type, into: survivor, ancestor: nil, store: store)
                            now.append(loser)
                        } else {
                            try store.noteMergedAway(type: type, name: loser, into: survivor, retiring: true)
                        }
                    }
                    if !now.isEmpty { merged.append((RecordKey(key.recordType, survivor), now)) }
                }
            }
        }
        return merged
    }

    /// A stored copy whose known version is marked merged (by another device, or this one's mark
    /// met as another's): it goes where the mark says, following the survivor's own merges. The
    /// survivor holds the whole marked version already (the mark was saved with it, and the pull
    /// that told of the mark brought it), so what this device changed of the copy since the mark
    /// goes in, three-way against it. A survivor gone since (a user deleted it) takes the copy
    /// with it, and the records under it. Nil when `name` is no such copy.
    func settleMarked(_ name: String, of type: any SyncModel.Type, store: any Topics) throws -> MarkedCopy? {
        guard let owner = try store.parentAndOwner(type: type, recordName: name)?.owner else { return nil }
        let zone = context.zone(of: type, ownerName: owner)
        guard let known = try store.serverRecord(RecordID(recordName: name, zoneID: zone)), let mark = known.mergedInto else { return nil }
        try store.forgetRetirement(recordType: type.recordType, recordName: name)
        if let survivor = try resolvedSurvivor(mark, of: type, in: zone, store: store), survivor != name {
            try complete(name, of: type, into: survivor, ancestor: known, store: store)
            return .merged(into: survivor)
        }
        let changed = try store.hasLocalChange(recordType: type.recordType, recordName: name)
        try store.removeFailedChange(recordType: type.recordType, recordName: name)
        let removed = try store.deletePulled(type: type, recordName: name)
        try ParentChain(context: context).settle(subtree: removed.filter { $0 != RecordKey(type.recordType, name) }, under: name, in: zone, deletedAlready: [], in: store)
        if changed { try LostChanges(context: context).announce(.changeLostToDeletion(RecordKey(type.recordType, name)), in: store) }
        return .removed
    }

    /// What became of a marked copy (`settleMarked`).
    enum MarkedCopy {
        case merged(into: String)
        /// Its survivor is gone: so is the copy.
        case removed
    }

    /// The stored record `name` stands for: itself, or the survivor it was merged into (here, or
    /// by a mark), and that one's, in turn; nil when the chain ends in a record gone.
    private func resolvedSurvivor(_ name: String, of type: any SyncModel.Type, in zone: ZoneID, store: any Topics) throws -> String? {
        var current = name
        var seen: Set<String> = []
        while seen.insert(current).inserted {
            if try store.isStored(type: type, recordName: current) { return current }
            if let next = try store.survivor(ofMergedAway: current, type: type) ?? store.serverRecord(RecordID(recordName: current, zoneID: zone))?.mergedInto {
                current = next
            } else {
                return nil
            }
        }
        return nil
    }
}
