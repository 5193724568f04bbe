import SyncCore

/// Compares a schema with a baseline (what is deployed): CloudKit's production schema only grows,
/// so a record type or field that disappears, changes type, moves database or changes encryption
/// breaks it. Everything else is listed as a safe change. Compared by record type and CloudKit
/// field, not Swift names: renaming a model that keeps its `recordType` changes nothing deployed.
package enum SchemaDiff {
    /// A change that deployed data and older app versions survive.
    package struct SafeChange: Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package var location: SourceLocation

        /// `Schema/Notes.yaml:12:7: safe change: field 'color' added to 'Note'`, like a diagnostic.
        package var description: String { "\(location): safe change: \(message)" }
    }

    package struct Result: Sendable {
        /// Breaking changes (errors) and risky ones (warnings).
        package var diagnostics: [Diagnostic]
        package var safeChanges: [SafeChange]
    }

    package static func compare(baseline old: Schema, with new: Schema) -> Result {
        var result = Result(diagnostics: [], safeChanges: [])
        let oldTypes = Dictionary(old.models.map { ($0.recordType, $0) }, uniquingKeysWith: { first, _ in first })
        let newTypes = Dictionary(new.models.map { ($0.recordType, $0) }, uniquingKeysWith: { first, _ in first })
        let added = new.models.filter { oldTypes[$0.recordType] == nil }
        for model in old.models where newTypes[model.recordType] == nil {
            let hint = renameCandidate(for: model, in: old, among: added, in: new)
                .map { "; if '\($0.name)' is '\(model.name)' renamed, give it 'recordType: \(model.recordType)' to keep the deployed type" } ?? ""
            result.diagnostics.append(Diagnostic(
                .recordTypeRemoved,
                "record type '\(model.recordType)' (model '\(model.name)') is gone; CloudKit's production schema cannot lose it\(hint)",
                at: model.location))
        }
        for model in added {
            result.safeChanges.append(SafeChange(message: "record type '\(model.recordType)' added (model '\(model.name)')", location: model.location))
        }
        for model in new.models {
            guard let previous = oldTypes[model.recordType] else { continue }
            compare(previous, in: old, with: model, in: new, into: &result)
        }
        result.diagnostics = result.diagnostics.sortedForOutput()
        result.safeChanges.sort { ($0.location, $0.message) < ($1.location, $1.message) }
        return result
    }

    /// An added model holding every field of a removed one: probably the same model renamed.
    /// Only the schema's own fields count (every model has the runtime's), so a removed model
    /// without fields suggests nothing.
    private static func renameCandidate(for removed: Model, in old: Schema, among added: [Model], in new: Schema) -> Model? {
        let fields = Set(CloudKitFields.of(removed, in: old).keys).subtracting(RecordFieldNames.runtimeFields)
        guard !fields.isEmpty else { return nil }
        return added.first { Set(CloudKitFields.of($0, in: new).keys).isSuperset(of: fields) }
    }

    /// The field of `new` added with the same type as the removed field `name` (and, for a
    /// reference or an enum, the same target or cases): probably the field renamed. The first in
    /// the model's order, when several are.
    private static func renamedField(
        from name: String, _ removed: CloudKitFields.Field, among newFields: [String: CloudKitFields.Field],
        oldFields: [String: CloudKitFields.Field], in new: Model
    ) -> String? {
        new.fields.first { candidate in
            guard oldFields[candidate.recordKey] == nil, let added = newFields[candidate.recordKey] else { return false }
            return added.type == removed.type && added.spelling == removed.spelling && added.referenceTarget == removed.referenceTarget
        }?.name
    }

    /// Natural keys and merge policies live in the apps, not in CloudKit: a key removed, or a
    /// policy changed, is safe; a key added needs a thought, since app versions from before keep
    /// creating the duplicates it merges away.
    private static func compareConvergence(_ old: Model, with new: Model, into result: inout Result) {
        let type = new.recordType
        let oldKeys = Set(old.uniqueRecordKeys.map(Set.init)), newKeys = Set(new.uniqueRecordKeys.map(Set.init))
        for key in new.uniqueRecordKeys where !oldKeys.contains(Set(key)) {
            result.diagnostics.append(Diagnostic(
                .uniqueKeyAdded, "new natural key [\(key.joined(separator: ", "))] of record type '\(type)': records from before may hold duplicates, which merge when this version syncs, and older app versions keep creating them",
                at: new.location))
        }
        for key in old.uniqueRecordKeys where !newKeys.contains(Set(key)) {
            result.safeChanges.append(SafeChange(message: "natural key [\(key.joined(separator: ", "))] of '\(type)' removed", location: new.location))
        }
        if old.mergePolicy != new.mergePolicy {
            result.safeChanges.append(SafeChange(message: "merge policy of '\(type)' changed from \(old.mergePolicy?.rawValue ?? "the configuration's") to \(new.mergePolicy?.rawValue ?? "the configuration's")", location: new.location))
        }
        for field in new.fields {
            guard let before = old.field(recordKey: field.recordKey), before.mergePolicy != field.mergePolicy else { continue }
            result.safeChanges.append(SafeChange(message: "merge policy of '\(type).\(field.name)' changed from \(before.mergePolicy?.rawValue ?? "the model's") to \(field.mergePolicy?.rawValue ?? "the model's")", location: field.location))
        }
    }

    /// An asset field's files are found in the cloud by the record keys it travels under, which
    /// its place among the model's asset fields gives (``AssetRecordKeys``): a field that now
    /// travels under other keys, or deployed keys that now belong to another field, leave the
    /// files of deployed records to the wrong field. True when it found any.
    private static func compareAssetKeys(_ old: Model, with new: Model, into result: inout Result) -> Bool {
        let found = result.diagnostics.count
        let before = Dictionary(uniqueKeysWithValues: old.assetFields.map { ($0.field.recordKey, $0) })
        for (field, keys) in new.assetFields {
            let owner = old.assetFields.first { $0.recordKeys == keys }?.field
            if let was = before[field.recordKey], was.recordKeys != keys {
                result.diagnostics.append(Diagnostic(
                    .assetKeysMoved, "asset field '\(field.name)' of record type '\(new.recordType)' now travels under \(keys.contents) instead of \(was.recordKeys.contents): the asset fields were reordered, or one before it removed; the files of deployed records stay under the old keys",
                    at: field.location, notes: [.init("it was declared here", at: was.field.location)]))
            } else if before[field.recordKey] == nil, let owner {
                result.diagnostics.append(Diagnostic(
                    .assetKeysMoved, "new asset field '\(field.name)' of record type '\(new.recordType)' would travel under \(keys.contents), where deployed records keep the files of '\(owner.name)'; declare it after the model's other asset fields",
                    at: field.location, notes: [.init("'\(owner.name)' travelled under \(keys.contents) here", at: owner.location)]))
            }
        }
        return result.diagnostics.count > found
    }

    private static func compare(_ old: Model, in oldSchema: Schema, with new: Model, in newSchema: Schema, into result: inout Result) {
        let type = new.recordType
        if old.scopes.isPublic != new.scopes.isPublic {
            result.diagnostics.append(Diagnostic(
                .databaseChanged,
                "record type '\(type)' moved from \(old.scopes.rawValue) to \(new.scopes.rawValue); its deployed records stay in the other database",
                at: new.location, notes: [.init("it was \(old.scopes.rawValue) here", at: old.location)]))
        } else if old.scopes != new.scopes {
            result.safeChanges.append(SafeChange(message: "record type '\(type)' now has scopes \(new.scopes.rawValue)", location: new.location))
        }
        if !new.scopes.isPublic && old.zone != new.zone {
            result.diagnostics.append(Diagnostic(
                .zoneChanged,
                "record type '\(type)' moved from \(SchemaVocabulary.describeZone(old.zone)) to \(SchemaVocabulary.describeZone(new.zone)); its deployed records stay in the old zone, and a schema change moves none: keep its zone, and declare a new model for records that are to live in the other",
                at: new.location, notes: [.init("it lived in \(SchemaVocabulary.describeZone(old.zone)) here", at: old.location)]))
        }
        compareConvergence(old, with: new, into: &result)
        // Asset keys that moved are said once, by the field that moved: not as keys gone or added.
        let movedAssetKeys = compareAssetKeys(old, with: new, into: &result)
            ? Set((old.assetFields + new.assetFields).flatMap(\.recordKeys.all)) : []
        // The mark of a merged copy comes and goes with the natural keys, compared above; one
        // left in production when the keys go is never written again, and harms nothing.
        let oldFields = CloudKitFields.of(old, in: oldSchema).filter { $0.key != RecordFieldNames.mergedInto && !movedAssetKeys.contains($0.key) }
        let newFields = CloudKitFields.of(new, in: newSchema).filter { $0.key != RecordFieldNames.mergedInto && !movedAssetKeys.contains($0.key) }
        for (name, field) in oldFields.sorted(by: { $0.key < $1.key }) {
            guard let now = newFields[name] else {
                let reason = new.field(recordKey: name)?.isLocalOnly == true ? " (it is local-only now, so it is no longer uploaded)" : ""
                let hint = renamedField(from: name, field, among: newFields, oldFields: oldFields, in: new)
                    .map { "; if '\($0)' is '\(name)' renamed, give it 'recordKey: \(name)' to keep the deployed field" } ?? ""
                result.diagnostics.append(Diagnostic(
                    .fieldRemoved, "field '\(name)' of record type '\(type)' is gone\(reason); CloudKit's production schema cannot lose it, and older app versions still write it\(hint)",
                    at: field.location, notes: [.init("record type '\(type)' is declared here now", at: new.location)]))
                continue
            }
            if now.type != field.type {
                result.diagnostics.append(Diagnostic(
                    .fieldTypeChanged, "field '\(name)' of record type '\(type)' changed from \(field.spelling) (\(field.type)) to \(now.spelling) (\(now.type)); deployed records keep the old type",
                    at: now.location, notes: [.init("it was \(field.spelling) here", at: field.location)]))
            } else if now.spelling != field.spelling, now.referenceTarget == nil, now.scalar != field.scalar, let narrowing = now.scalar?.facts.narrowing {
                result.diagnostics.append(Diagnostic(
                    .fieldNarrowed, "field '\(name)' of record type '\(type)' changed from \(field.spelling) to \(now.spelling), both \(now.type) in CloudKit; in records written before, \(narrowing)",
                    at: now.location, notes: [.init("it was \(field.spelling) here", at: field.location)]))
            } else if now.spelling != field.spelling, now.referenceTarget == nil {
                result.safeChanges.append(SafeChange(
                    message: "field '\(type).\(name)' changed from \(field.spelling) to \(now.spelling), both \(now.type) in CloudKit", location: now.location))
            }
            if now.type == field.type, now.referenceTarget != field.referenceTarget, let before = field.referenceTarget, let after = now.referenceTarget {
                result.diagnostics.append(Diagnostic(
                    .fieldTypeChanged, "field '\(name)' of record type '\(type)' now references '\(after)' instead of '\(before)'; deployed records point at '\(before)' records",
                    at: now.location, notes: [.init("it referenced '\(before)' here", at: field.location)]))
            }
            if let before = field.enumCases, let after = now.enumCases {
                let gone = before.filter { !after.contains($0) }
                if !gone.isEmpty {
                    let names = gone.map { "'\($0)'" }.joined(separator: ", ")
                    result.diagnostics.append(Diagnostic(
                        .enumCaseRemoved, "field '\(name)' of record type '\(type)' no longer has the case\(gone.count == 1 ? "" : "s") \(names); deployed records and older app versions still hold \(gone.count == 1 ? "it" : "them"), and this version reads \(gone.count == 1 ? "it" : "them") as 'unknown'; keep \(gone.count == 1 ? "the case" : "the cases") in 'cases:' and stop writing \(gone.count == 1 ? "it" : "them") in the app instead",
                        at: now.location, notes: [.init("the cases were [\(before.joined(separator: ", "))] here", at: field.location)]))
                }
                for added in after where !before.contains(added) {
                    result.safeChanges.append(SafeChange(message: "case '\(added)' added to '\(type).\(name)': older app versions keep it as 'unknown'", location: now.location))
                }
            }
            if now.isEncrypted != field.isEncrypted {
                result.diagnostics.append(Diagnostic(
                    .encryptionChanged, "field '\(name)' of record type '\(type)' turned \(now.isEncrypted ? "encrypted" : "unencrypted"); CloudKit cannot change a deployed field's encryption",
                    at: now.location, notes: [.init("it was \(field.isEncrypted ? "encrypted" : "unencrypted") here", at: field.location)]))
            }
            for index in now.indexes.subtracting(field.indexes).sorted() {
                result.safeChanges.append(SafeChange(message: "index \(index) added to '\(type).\(name)'", location: now.location))
            }
            for index in field.indexes.subtracting(now.indexes).sorted() {
                result.safeChanges.append(SafeChange(message: "index \(index) removed from '\(type).\(name)'", location: now.location))
            }
        }
        for (name, field) in newFields.sorted(by: { $0.key < $1.key }) where oldFields[name] == nil {
            if field.isRequired {
                result.diagnostics.append(Diagnostic(
                    .requiredFieldAdded, "new field '\(name)' of record type '\(type)' is required: records from before, and older app versions, do not have it (they read as its default)",
                    at: field.location))
            } else {
                result.safeChanges.append(SafeChange(message: "field '\(name)' added to '\(type)'", location: field.location))
            }
        }
    }
}
