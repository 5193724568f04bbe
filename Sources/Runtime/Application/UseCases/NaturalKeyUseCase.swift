import Foundation
import SyncCore
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
/// cloud and the other devices agree. It runs after a pull, in one transaction, on the records
/// the store marked for a check (those pulled, and a table's when a key is new to it): a pass
/// with nothing pulled reads one empty table. Only zones of the user's own are merged here: a
/// shared zone's copies are merged by its owner's devices (a participant may not be allowed to
/// delete them).
///
/// A copy in the cloud is retired before it is deleted (`retireMergedCopies`): CloudKit deletes
/// without a change tag, so a deletion would take a version another device saved since the
/// merge. The copy is first saved over the version merged, marked with its survivor
/// (`RecordFieldNames.mergedInto`): a newer version makes that save fail, is merged in turn,
/// and the mark goes over it. Once the mark is the version in the cloud, the copy is deleted; a
/// device that saves the copy after the mark meets it, and what it changed goes to the survivor.
struct NaturalKeyUseCase {
    let context: SyncContext

    /// How many rounds of checks one call makes at most: a merge that changes a survivor checks
    /// it again, and each round leaves fewer records; what is left waits for the next pass.
    static let maximumRounds = 100

    func mergeDuplicates() throws(SyncError) {
        let keyed = context.registry.types.filter { !$0.uniqueKeys.isEmpty }
        guard !keyed.isEmpty else { return }
        let merged = try context.local { store in
            // A key the schema added since this store last met the model marks what it holds.
            for type in keyed { try store.prepareTable(for: type) }
            var merged: [(RecordKey, [String])] = []
            for _ in 0..<Self.maximumRounds {
                let pending = try store.naturalKeyChecks()
                guard !pending.isEmpty else { break }
                try store.clearNaturalKeyChecks(pending)
                for key in pending {
                    guard let type = context.registry.type(forRecordType: key.recordType), !type.uniqueKeys.isEmpty,
                        let found = try store.duplicates(of: key.recordName, type: type), found.owner == SyncConstants.currentUserOwnerName
                    else { continue }
                    for group in found.groups {
                        // A group an earlier merge of this round already settled is gone by now.
                        let stored = try group.filter { try store.isStored(type: type, recordName: $0) }
                        guard stored.count > 1, let survivor = stored.min() else { continue }
                        let losers = stored.filter { $0 != survivor }
                        var copies: [(record: SyncRecord, ancestor: SyncRecord?)] = []
                        var inCloud: Set<String> = []
                        for loser in losers {
                            guard let copy = try store.uploadRecord(type: type, recordName: loser, syncZoneName: context.configuration.syncZoneName) else { continue }
                            let known = try store.serverRecord(copy.id)
                            if known != nil { inCloud.insert(loser) }
                            // A copy another device merged already (its cloud version names the
                            // survivor): only what this device changed of it since goes in.
                            copies.append((copy, known?.mergedInto != nil ? known : nil))
                        }
                        try absorb(copies, into: survivor, type: type, store: store)
                        try moveReferencesAndChildren(of: losers, to: survivor, type: type, store: store)
                        for loser in losers {
                            try store.deletePulled(type: type, recordName: loser)
                            try store.removeFailedChange(recordType: type.recordType, recordName: loser)
                            try store.noteMergedAway(type: type, name: loser, into: survivor, retiring: inCloud.contains(loser))
                        }
                        merged.append((RecordKey(key.recordType, survivor), losers))
                    }
                }
            }
            return merged
        }
        for (survivor, losers) in merged {
            context.events.publish(.duplicatesMerged(survivor, merged: losers))
        }
    }

    /// A record the cloud deleted, when another record of the user's shares its natural key (the
    /// survivor a merge on another device kept): what this device changed of it and the cloud
    /// never saw (a change waiting, or one the push found deleted) goes into the survivor instead
    /// of away with the deletion, three-way against the deleted record's last server version (so
    /// only what this device changed moves, and nothing when it changed nothing; a tag another
    /// device removed from the survivor stays removed); its children and the references to it
    /// follow. The caller deletes the record after.
    func foldDeletedDuplicate(_ id: RecordID, type: any SyncModel.Type, ancestor: SyncRecord?, store: any SyncStoreTransaction) throws {
        guard !type.uniqueKeys.isEmpty, let found = try store.duplicates(of: id.recordName, type: type),
            found.owner == SyncConstants.currentUserOwnerName,
            let survivor = found.groups.joined().filter({ $0 != id.recordName }).min(),
            let copy = try store.uploadRecord(type: type, recordName: id.recordName, syncZoneName: context.configuration.syncZoneName)
        else { return }
        try absorb([(copy, ancestor)], into: survivor, type: type, store: store)
        try moveReferencesAndChildren(of: [id.recordName], to: survivor, type: type, store: store)
        try store.noteMergedAway(type: type, name: id.recordName, into: survivor, retiring: false)
    }

    /// A version of a record this device merged away, edited on a device that had not heard of
    /// the merge: what changed since the version this device knew goes into the survivor (three-
    /// way, as above), and the record stays away. Returns whether `record` was such a version.
    ///
    /// A version another device marked merged (`SyncRecord.mergedInto`), into a record this
    /// device holds, takes the copy away here too: what this device changed of it since the
    /// version it knew goes to the survivor. (Into a record this device does not hold yet, the
    /// version is kept as the copy, and merged once the survivor arrives; the push never sends
    /// such a copy again meanwhile.)
    func foldArrival(_ record: SyncRecord, type: any SyncModel.Type, store: any SyncStoreTransaction) throws -> Bool {
        guard !type.uniqueKeys.isEmpty else { return false }
        let name = record.id.recordName
        if let survivor = try store.survivor(ofMergedAway: name, type: type) {
            try absorb([(record, try store.serverRecord(record.id))], into: survivor, type: type, store: store)
            // A version the retirement has not marked yet (an edit that came first): its copy is
            // retired again, over it.
            if record.mergedInto != survivor {
                try store.noteMergedAway(type: type, name: name, into: survivor, retiring: true)
            }
            return true
        }
        guard let survivor = record.mergedInto, try store.isStored(type: type, recordName: survivor) else { return false }
        if let local = try store.uploadRecord(type: type, recordName: name, syncZoneName: context.configuration.syncZoneName) {
            try absorb([(local, try store.serverRecord(record.id))], into: survivor, type: type, store: store)
            try moveReferencesAndChildren(of: [name], to: survivor, type: type, store: store)
            try store.deletePulled(type: type, recordName: name)
            try store.removeFailedChange(recordType: type.recordType, recordName: name)
        }
        try store.noteMergedAway(type: type, name: name, into: survivor, retiring: false)
        return true
    }

    /// How many rounds `retireMergedCopies` makes in a pass: each conflict merges a newer
    /// version and tries again; what is left waits for the next pass.
    static let retirementRounds = 3

    /// Retires the copies merged here: each is saved over the version this device merged (or a
    /// newer one it merged since), marked with its survivor; once marked, its deletion is queued
    /// for the push that follows. A newer version met on the way is merged into the survivor
    /// (`ServerVersion`, so `foldArrival`), and marked in the next round; a copy the cloud no
    /// longer has is done.
    func retireMergedCopies(as account: PassAccount) async throws(SyncError) {
        for _ in 0..<Self.retirementRounds {
            let marks = try context.local { store -> [(type: any SyncModel.Type, record: SyncRecord)] in
                var marks: [(type: any SyncModel.Type, record: SyncRecord)] = []
                for (recordType, name, survivor) in try store.retirements() {
                    guard let type = context.registry.type(forRecordType: recordType) else { continue }
                    let id = RecordID(recordName: name, zoneID: context.zone(scopes: type.syncScopes, ownerName: SyncConstants.currentUserOwnerName))
                    guard let known = try store.serverRecord(id) else {
                        try store.finishRetirement(recordType: recordType, recordName: name)
                        continue
                    }
                    var mark = known
                    mark.fields[RecordFieldNames.mergedInto] = .string(survivor)
                    mark.base(onServerVersionOf: known)
                    mark.stampUpload(PushUseCase.newUploadID(), over: known)
                    marks.append((type, mark))
                }
                return marks
            }
            guard !marks.isEmpty else { return }
            for chunk in stride(from: 0, to: marks.count, by: CloudKitLimits.maxItemsPerRequest).map({ Array(marks[$0..<min($0 + CloudKitLimits.maxItemsPerRequest, marks.count)]) }) {
                try await account.verify()
                let result = try await context.cloud.modify(ModifyRequest(recordsToSave: chunk.map(\.record)), in: .private)
                try await account.verify()
                try context.local { store in
                    for (type, mark) in chunk {
                        switch result.savedRecords[mark.id] {
                        case .success(let saved):
                            try store.setServerRecord(saved)
                            try store.queueDeletion(recordType: type.recordType, recordName: mark.id.recordName, ownerName: mark.id.zoneID.ownerName)
                            try store.finishRetirement(recordType: type.recordType, recordName: mark.id.recordName)
                        case .failure(let error) where error.code == .serverRecordChanged:
                            if let server = error.serverRecord { _ = try ServerVersion(context: context).apply(server, as: type, in: store) }
                        case .failure(let error) where error.code == .unknownItem:
                            try store.removeServerRecord(mark.id)
                            try store.finishRetirement(recordType: type.recordType, recordName: mark.id.recordName)
                        default:
                            // Tried again in the next round, or the next pass.
                            continue
                        }
                    }
                }
            }
        }
    }

    /// References and parents that arrived naming records merged away here point at their
    /// survivors instead; returns the targets so redirected.
    func redirect(_ targets: [RecordKey], store: any SyncStoreTransaction) throws -> Set<RecordKey> {
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
    private func absorb(_ copies: [(record: SyncRecord, ancestor: SyncRecord?)], into survivor: String, type: any SyncModel.Type, store: any SyncStoreTransaction) throws {
        guard let original = try store.uploadRecord(type: type, recordName: survivor, syncZoneName: context.configuration.syncZoneName) else { return }
        let rules = type.mergeRules(policy: context.configuration.conflictPolicy(for: type))
        var merged = original
        for (copy, ancestor) in copies {
            merged = RecordMerge.merge(ancestor: ancestor, local: copy, server: merged, rules: rules).record
        }
        // The survivor stays where it is (its parent is its own), and the edit time alone
        // changing is no change worth sending.
        merged.parentRecordName = original.parentRecordName
        merged.id = original.id
        merged.fields[RecordFieldNames.clientModifiedAt] = original.fields[RecordFieldNames.clientModifiedAt]
        if merged.fields != original.fields || merged.encryptedFields != original.encryptedFields {
            try rewrite(merged, as: type, store: store)
        }
    }

    /// The records that reference the losers, and their children, move to the survivor.
    private func moveReferencesAndChildren(of losers: [String], to survivor: String, type: any SyncModel.Type, store: any SyncStoreTransaction) throws {
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
    private func moveReferences(to survivor: String, from losers: [String], targetType: any SyncModel.Type, store: any SyncStoreTransaction) throws {
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
    private func rewrite(_ record: SyncRecord, as type: any SyncModel.Type, store: any SyncStoreTransaction) throws {
        _ = try store.applyPulled(record, as: type)
        try store.requeue(recordType: type.recordType, recordName: record.id.recordName, ownerName: record.id.zoneID.ownerName)
    }
}
