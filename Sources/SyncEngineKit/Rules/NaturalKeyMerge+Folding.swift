import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts

// How a copy folds into its survivor: its fields three-way, what points at it and its children
// moved, then the copy gone; and what a pull meets of copies merged away here.
extension NaturalKeyMerge {
    /// Merges copy `name` into `survivor`, three-way against `ancestor` (nil: the whole copy):
    /// its fields, what points at it, its children; then the copy goes from this device, noted
    /// merged.
    func complete(_ name: String, of type: any SyncModel.Type, into survivor: String, ancestor: SyncRecord?, store: any Topics) throws {
        if let copy = try store.uploadRecord(type: type, recordName: name, routes: context.routes) {
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
            let copy = try store.uploadRecord(type: type, recordName: id.recordName, routes: context.routes)
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
    func absorb(_ copies: [(record: SyncRecord, ancestor: SyncRecord?)], into survivor: String, type: any SyncModel.Type, store: any Topics) throws {
        guard let original = try store.uploadRecord(type: type, recordName: survivor, routes: context.routes) else { return }
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
    func moveReferencesAndChildren(of losers: [String], to survivor: String, type: any SyncModel.Type, store: any Topics) throws {
        try moveReferences(to: survivor, from: losers, targetType: type, store: store)
        for childType in context.registry.childTypes(of: type) {
            for loser in losers {
                for child in try store.childNames(type: childType, parentRecordName: loser) {
                    guard var record = try store.uploadRecord(type: childType, recordName: child, routes: context.routes) else { continue }
                    record.parentRecordName = survivor
                    try rewrite(record, as: childType, store: store)
                }
            }
        }
    }

    /// Points every reference to a loser at the survivor, in every model with a reference field
    /// to the type.
    func moveReferences(to survivor: String, from losers: [String], targetType: any SyncModel.Type, store: any Topics) throws {
        let routes = context.routes
        let doomed = Set(losers)
        for type in context.registry.types {
            for field in type.fieldDescriptors where field.type.referenceTarget == targetType.recordType {
                for name in try store.recordsReferencing(losers, type: type, field: field.name) {
                    guard var record = try store.uploadRecord(type: type, recordName: name, routes: routes),
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
    func rewrite(_ record: SyncRecord, as type: any SyncModel.Type, store: any Topics) throws {
        _ = try store.applyPulled(record, as: type)
        try store.requeue(recordType: type.recordType, recordName: record.id.recordName, ownerName: record.id.zoneID.ownerName)
    }
}
