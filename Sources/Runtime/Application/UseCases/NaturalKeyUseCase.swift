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
/// mark them).
///
/// A copy in the cloud is retired, never deleted (`retireMergedCopies`): CloudKit deletes without
/// a change tag, so a deletion would take a version another device saved since the merge, and
/// a device that hears of a copy only later (a record made under it elsewhere, pulled after)
/// could no longer tell a merged copy from a deleted one. Such a copy is merged once its
/// retirement settles: this device saves it over the version it knows, marked with its
/// survivor (`RecordFieldNames.mergedInto`). Landed, the mark makes this device the copy's one
/// merger, and the whole copy goes into the survivor; met by another device's mark, the other
/// device merged it, and only what this device changed of it since goes in (merged twice, the
/// copy would bring back what was removed from the survivor in between); met by a newer
/// version, the copy takes it, and the mark tries again. A device that saves the copy after
/// the mark meets it, and what it changed goes to the survivor; one that pulls the marked copy
/// takes it for the survivor, and so does what points at it. A copy the cloud never had merges
/// at once.
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
                        var now: [String] = []
                        for loser in stored where loser != survivor {
                            let id = RecordID(recordName: loser, zoneID: context.zone(scopes: type.syncScopes, ownerName: found.owner))
                            guard try store.retirement(type: type, recordName: loser) == nil else { continue }
                            switch try store.serverRecord(id) {
                            case nil:
                                // The cloud never had it: nobody else can have merged it.
                                try complete(loser, of: type, into: survivor, ancestor: nil, store: store)
                            case let known? where known.mergedInto != nil:
                                // Another device merged it already: what changed here since.
                                try complete(loser, of: type, into: survivor, ancestor: known, store: store)
                            default:
                                try store.noteMergedAway(type: type, name: loser, into: survivor, retiring: true)
                                continue
                            }
                            now.append(loser)
                        }
                        if !now.isEmpty { merged.append((RecordKey(key.recordType, survivor), now)) }
                    }
                }
            }
            return merged
        }
        for (survivor, losers) in merged {
            context.events.publish(.duplicatesMerged(survivor, merged: losers))
        }
    }

    /// Merges copy `name` into `survivor`, three-way against `ancestor` (nil: the whole copy):
    /// its fields, what points at it, its children; then the copy goes from this device, noted
    /// merged.
    private func complete(_ name: String, of type: any SyncModel.Type, into survivor: String, ancestor: SyncRecord?, store: any SyncStoreTransaction) throws {
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
    func foldDeletedDuplicate(_ id: RecordID, type: any SyncModel.Type, ancestor: SyncRecord?, store: any SyncStoreTransaction) throws -> Bool {
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
        // What this device changed of the copy, and what points at it here (a record made
        // under it elsewhere, pulled before), go to the survivor; the whole copy, when the mark
        // is this device's own (landed, its reply lost).
        let own = try store.retirement(type: type, recordName: name)?.mark.map(record.uploadVersions.contains) ?? false
        try complete(name, of: type, into: survivor, ancestor: own ? nil : try store.serverRecord(record.id), store: store)
        return true
    }

    /// How many rounds `retireMergedCopies` makes in a pass: each conflict merges a newer
    /// version and tries again; what is left waits for the next pass.
    static let retirementRounds = 3

    /// Retires the copies waiting to merge: each is saved over the version this device knows,
    /// marked with its survivor. Landed, the whole copy merges into the survivor. Met by another
    /// device's mark, only what this device changed of it since does. Met by a newer version, the
    /// copy takes it (`ServerVersion`), and the mark tries again in the next round. A copy the
    /// cloud no longer has (a user deleted it) waits no more: the pull brings its deletion.
    func retireMergedCopies(as account: PassAccount) async throws(SyncError) {
        var merged: [(RecordKey, [String])] = []
        defer {
            for (survivor, losers) in merged { context.events.publish(.duplicatesMerged(survivor, merged: losers)) }
        }
        for _ in 0..<Self.retirementRounds {
            let marks = try context.local { store -> [(type: any SyncModel.Type, record: SyncRecord)] in
                var marks: [(type: any SyncModel.Type, record: SyncRecord)] = []
                for (recordType, name, survivor, sent) in try store.retirements() {
                    guard let type = context.registry.type(forRecordType: recordType) else { continue }
                    let id = RecordID(recordName: name, zoneID: context.zone(scopes: type.syncScopes, ownerName: SyncConstants.currentUserOwnerName))
                    guard let known = try store.serverRecord(id) else {
                        // Its version is no longer known here (its zone went): nobody else merged it.
                        try complete(name, of: type, into: survivor, ancestor: nil, store: store)
                        continue
                    }
                    // Every mark of a copy carries one upload ID, kept before it is sent: met
                    // later, a mark that names it is this device's own.
                    let upload = sent ?? PushUseCase.newUploadID()
                    if sent == nil { try store.noteMarkSent(recordType: recordType, recordName: name, upload: upload) }
                    var mark = known
                    mark.fields[RecordFieldNames.mergedInto] = .string(survivor)
                    mark.base(onServerVersionOf: known)
                    mark.stampUpload(upload, over: known)
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
                        let name = mark.id.recordName
                        guard let survivor = mark.mergedInto else { continue }
                        switch result.savedRecords[mark.id] {
                        case .success(let saved):
                            try store.setServerRecord(saved)
                            try complete(name, of: type, into: survivor, ancestor: nil, store: store)
                            merged.append((RecordKey(type.recordType, survivor), [name]))
                        case .failure(let error) where error.code == .serverRecordChanged:
                            guard let server = error.serverRecord else { continue }
                            if let other = server.mergedInto, try store.isStored(type: type, recordName: other) {
                                // This device's own mark, landed though its reply was lost: the
                                // whole copy. Another device's: what changed here since.
                                let own = mark.uploadVersions.first.map(server.uploadVersions.contains) ?? false
                                try complete(name, of: type, into: other, ancestor: own ? nil : try store.serverRecord(mark.id), store: store)
                                try store.setServerRecord(server)
                                merged.append((RecordKey(type.recordType, other), [name]))
                            } else {
                                _ = try ServerVersion(context: context).apply(server, as: type, in: store)
                            }
                        case .failure(let error) where error.code == .unknownItem:
                            try store.forgetRetirement(recordType: type.recordType, recordName: name)
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
