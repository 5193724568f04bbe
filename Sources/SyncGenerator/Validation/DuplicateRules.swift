/// Rule 5: one name per model, one record type per model, one name and one record key per field of
/// a model.
extension ValidationContext {
    mutating func checkDuplicates() {
        for id in allModelIDs {
            let model = model(id)
            if let first = modelID(named: model.name.value), first != id {
                report(Diagnostic(.duplicateModel, "model '\(model.name.value)' is declared more than once", at: model.name.location, notes: [.init("'\(model.name.value)' is first declared here", at: self.model(first).name.location)]))
            }
            checkFieldDuplicates(of: model)
        }
        checkRecordTypeDuplicates()
    }

    private mutating func checkRecordTypeDuplicates() {
        var owners: [String: ModelID] = [:]
        for id in canonicalModelIDs {
            let recordType = model(id).recordType ?? model(id).name
            guard let first = owners[recordType.value] else {
                owners[recordType.value] = id
                continue
            }
            let other = model(first)
            report(Diagnostic(.duplicateRecordType, "models '\(other.name.value)' and '\(model(id).name.value)' both use record type '\(recordType.value)'", at: recordType.location, notes: [.init("'\(other.name.value)' uses it here", at: (other.recordType ?? other.name).location)]))
        }
    }

    private mutating func checkFieldDuplicates(of model: ModelDeclaration) {
        var seen: [String: SourceLocation] = [:]
        seen.reserveCapacity(model.fields.count)
        // By the fields' names alone: a whole declaration is not copied out for its name.
        for name in model.fields.lazy.map(\.name) {
            if let first = seen[name.value] {
                report(Diagnostic(.duplicateField, "model '\(model.name.value)' declares field '\(name.value)' more than once", at: name.location, notes: [.init("'\(name.value)' is first declared here", at: first)]))
            } else {
                seen[name.value] = name.location
            }
        }
        checkRecordKeyDuplicates(of: model)
    }

    /// Two fields stored under one record key would write over each other's values. Fields with
    /// no `recordKey:` are stored under their names, already checked above.
    private mutating func checkRecordKeyDuplicates(of model: ModelDeclaration) {
        guard model.fields.contains(where: { $0.recordKey != nil }) else { return }
        var owners: [String: FieldDeclaration] = [:]
        for field in model.fields {
            let key = field.storedKey
            guard let first = owners[key.value] else {
                owners[key.value] = field
                continue
            }
            guard field.recordKey != nil || first.recordKey != nil else { continue }
            let (place, other) = field.recordKey != nil ? (key, first) : (first.storedKey, field)
            report(Diagnostic(
                .duplicateField, "fields '\(first.name.value)' and '\(field.name.value)' of model '\(model.name.value)' are both stored under the record key '\(key.value)'",
                at: place.location, notes: [.init("'\(other.name.value)' is stored under it here", at: other.storedKey.location)]))
        }
    }
}
