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
                        let id = RecordID(recordName: loser, zoneID: context.zone(scopes: type.syncScopes, ownerName: found.owner))
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
        let zone = context.zone(scopes: type.syncScopes, ownerName: owner)
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

    /// Merges copy `name` into `survivor`, three-way against `ancestor` (nil: the whole copy):
    /// its fields, what points at it, its children; then the copy goes from this device, noted
    /// merged.
    func complete(_ name: String, of type: any SyncModel.Type, into survivor: String, ancestor: SyncRecord?, store: any Topics) throws {
        if let copy = try store.uploadRecord(type: type, recordName: name, syncZoneName: context.configuration.syncZoneName) {
            try absorb([(copy, ancestor)], into: survivor, type: type, store: store)
        }
        try moveReferencesAndChildren(of: [name], to: survivor, type: type, store: store)
        try store.deletePulled(type: type, recordName: name)
        try store.removeFailedChange(recordType: type.recordType, recordName: name)
        try store.noteMergedAway(type: type, name: name, into: survivor, retiring: false)
    }

    /// A record the cloud deleted, when another record of the user's shares its natural key (the
    /// survivor a merge on another device kept): what this device changed of it and the cloud
    /// never saw (a change waiting, or one the push found deleted) goes into the survivor instead
    /// of away with the deletion, three-way against the deleted record's last server version (so
    /// only what this device changed moves, and nothing when it changed nothing; a tag another
    /// device removed from the survivor stays removed); its children and the references to it
    /// follow. The caller deletes the record after. Returns whether there was a survivor.
    @discardableResult
    func foldDeletedDuplicate(_ id: RecordID, type: any SyncModel.Type, ancestor: SyncRecord?, store: any Topics) throws -> Bool {
        guard !type.uniqueKeys.isEmpty, let found = try store.duplicates(of: id.recordName, type: type),
            found.owner == SyncConstants.currentUserOwnerName,
            let survivor = found.groups.joined().filter({ $0 != id.recordName }).min(),
            let copy = try store.uploadRecord(type: type, recordName: id.recordName, syncZoneName: context.configuration.syncZoneName)
        else { return false }
        try absorb([(copy, ancestor)], into: survivor, type: type, store: store)
        try moveReferencesAndChildren(of: [id.recordName], to: survivor, type: type, store: store)
        try store.noteMergedAway(type: type, name: id.recordName, into: survivor, retiring: false)
        return true
    }

    /// A version of a record this device merged away, edited on a device that had not heard of
    /// the merge: what changed since the version this device knew goes into the survivor (three-
    /// way, as above), and the record stays away. Returns whether `record` was such a version.
    /// (A marked version of a copy still here is applied as any version is, and the check after
    /// the pull settles it: `settleMarked`.)
    func foldArrival(_ record: SyncRecord, type: any SyncModel.Type, store: any Topics) throws -> Bool {
        guard !type.uniqueKeys.isEmpty else { return false }
        let name = record.id.recordName
        guard let survivor = try store.survivor(ofMergedAway: name, type: type) else { return false }
        try absorb([(record, try store.serverRecord(record.id))], into: survivor, type: type, store: store)
        // A version the retirement has not marked yet (an edit that came first): its copy is
        // retired again, over it.
        if record.mergedInto == nil {
            try store.noteMergedAway(type: type, name: name, into: survivor, retiring: true)
        }
        return true
    }

    /// References and parents that arrived naming records merged away here point at their
    /// survivors instead; returns the targets so redirected.
    func redirect(_ targets: [RecordKey], store: any Topics) throws -> Set<RecordKey> {
        var redirected: Set<RecordKey> = []
        for target in targets {
            guard let type = context.registry.type(forRecordType: target.recordType), !type.uniqueKeys.isEmpty,
                let survivor = try store.survivor(ofMergedAway: target.recordName, type: type)
            else { continue }
            try moveReferencesAndChildren(of: [target.recordName], to: survivor, type: type, store: store)
            redirected.insert(target)
        }
        return redirected
    }

    /// Merges each copy into the survivor: three-way against its ancestor when one is given (what
    /// changed since), else as a conflict of every differing field.
    private func absorb(_ copies: [(record: SyncRecord, ancestor: SyncRecord?)], into survivor: String, type: any SyncModel.Type, store: any Topics) throws {
        guard let original = try store.uploadRecord(type: type, recordName: survivor, syncZoneName: context.configuration.syncZoneName) else { return }
        let merged = self.merged(copies, into: original, type: type)
        if merged.fields != original.fields || merged.encryptedFields != original.encryptedFields {
            try rewrite(merged, as: type, store: store)
        }
    }

    /// `survivor` with each copy merged in, as `absorb` writes it.
    func merged(_ copies: [(record: SyncRecord, ancestor: SyncRecord?)], into survivor: SyncRecord, type: any SyncModel.Type) -> SyncRecord {
        let rules = type.mergeRules(policy: context.configuration.conflictPolicy(for: type))
        var merged = survivor
        let fields = type.fieldDescriptors.map(\.name)
        for (copy, ancestor) in copies {
            var copy = copy
            if ancestor == nil {
                // Two copies made apart, with nothing known of what either changed: a field one
                // of them never set (an optional with no value) is nobody's edit, and does not
                // beat the value the other holds, whatever the policy (lastWriterWins would
                // otherwise let the newer copy's emptiness erase what a user typed).
                Self.fillUnset(fields, of: &copy, from: merged)
                Self.fillUnset(fields, of: &merged, from: copy)
            }
            merged = RecordMerge.merge(ancestor: ancestor, local: copy, server: merged, rules: rules).record
        }
        // The survivor stays where it is (its parent is its own), unmarked and with its own
        // uploads, and the edit time alone changing is no change worth sending.
        merged.parentRecordName = survivor.parentRecordName
        merged.id = survivor.id
        for field in [RecordFieldNames.clientModifiedAt, RecordFieldNames.mergedInto, RecordFieldNames.uploadVersions] {
            merged.fields[field] = survivor.fields[field]
        }
        return merged
    }

    /// Gives `record` the value `other` holds of each of `fields` it holds none of.
    private static func fillUnset(_ fields: [String], of record: inout SyncRecord, from other: SyncRecord) {
        for field in fields {
            if record.fields[field] == nil, record.encryptedFields[field] == nil {
                if let value = other.fields[field] {
                    record.fields[field] = value
                } else if let value = other.encryptedFields[field] {
                    record.encryptedFields[field] = value
                }
            }
        }
    }

    /// The records that reference the losers, and their children, move to the survivor.
    private func moveReferencesAndChildren(of losers: [String], to survivor: String, type: any SyncModel.Type, store: any Topics) throws {
        try moveReferences(to: survivor, from: losers, targetType: type, store: store)
        for childType in context.registry.childTypes(of: type) {
            for loser in losers {
                for child in try store.childNames(type: childType, parentRecordName: loser) {
                    guard var record = try store.uploadRecord(type: childType, recordName: child, syncZoneName: context.configuration.syncZoneName) else { continue }
                    record.parentRecordName = survivor
                    try rewrite(record, as: childType, store: store)
                }
            }
        }
    }

    /// Points every reference to a loser at the survivor, in every model with a reference field
    /// to the type.
    private func moveReferences(to survivor: String, from losers: [String], targetType: any SyncModel.Type, store: any Topics) throws {
        let zone = context.configuration.syncZoneName
        let doomed = Set(losers)
        for type in context.registry.types {
            for field in type.fieldDescriptors where field.type.referenceTarget == targetType.recordType {
                for name in try store.recordsReferencing(losers, type: type, field: field.name) {
                    guard var record = try store.uploadRecord(type: type, recordName: name, syncZoneName: zone),
                        let value = record.fields[field.name]
                    else { continue }
                    record.fields[field.name] = Self.repointed(value, from: doomed, to: survivor)
                    try rewrite(record, as: type, store: store)
                }
            }
        }
    }

    /// A reference, or a list of them, with every target in `doomed` replaced by `survivor` (a
    /// list keeps one reference to it).
    static func repointed(_ value: SyncFieldValue, from doomed: Set<String>, to survivor: String) -> SyncFieldValue {
        switch value {
        case .reference(var reference) where doomed.contains(reference.recordName):
            reference.recordName = survivor
            return .reference(reference)
        case .list(let items):
            var seen = Set<SyncFieldValue>()
            return .list(items.map { repointed($0, from: doomed, to: survivor) }.filter { seen.insert($0).inserted || !Self.isReference($0, to: survivor) })
        default:
            return value
        }
    }

    private static func isReference(_ value: SyncFieldValue, to name: String) -> Bool {
        if case .reference(let reference) = value { return reference.recordName == name }
        return false
    }

    /// Writes a record over its model, as the engine, and queues it to go up as a change of the
    /// app's.
    private func rewrite(_ record: SyncRecord, as type: any SyncModel.Type, store: any Topics) throws {
        _ = try store.applyPulled(record, as: type)
        try store.requeue(recordType: type.recordType, recordName: record.id.recordName, ownerName: record.id.zoneID.ownerName)
    }
}
