import SyncCore

/// Rule 3 (names) and rule 4 (reserved names).
extension ValidationContext {
    mutating func checkNames() {
        for id in allModelIDs {
            let model = model(id)
            let name = model.name
            if let problem = SwiftNaming.typeNameProblem(name.value) {
                report(Diagnostic(.invalidModelName, "model name '\(name.value.truncatedForMessage)' is not a valid Swift type name: \(problem)", at: name.location))
            } else if let problem = ReservedNames.modelNameProblem(name.value) {
                report(Diagnostic(.invalidModelName, "model name '\(name.value)' is reserved: \(problem)", at: name.location))
            } else if let first = name.value.unicodeScalars.first(where: { $0 != "_" }), !("A"..."Z").contains(first) {
                report(Diagnostic(.modelNameNotCapitalized, "model name '\(name.value)' should start with an upper-case letter, as Swift type names do", at: name.location))
            }
            checkRecordType(of: model)
            for field in model.fields {
                checkFieldName(field.name, model: name.value)
                if let recordKey = field.recordKey { checkRecordKey(recordKey, of: field, model: name.value) }
            }
            checkChildName(of: id)
        }
    }

    /// A child's name must not be hidden inside its parent's generated code, which names it.
    private mutating func checkChildName(of id: ModelID) {
        let child = model(id)
        guard let parentName = child.parent, let parentID = modelID(named: parentName.value) else { return }
        let parent = model(parentID)
        guard let problem = ReservedNames.childNameProblem(child.name.value, parent: parent.name.value, parentFields: parent.fields.map(\.name.value)) else { return }
        let field = parent.fields.first { $0.name.value == child.name.value }
        let note = field.map { Diagnostic.Note("'\(parent.name.value)' declares the field '\(child.name.value)' here", at: $0.name.location) }
        report(Diagnostic(.childNameHiddenInParent, "model '\(child.name.value)' cannot be a child of '\(parent.name.value)' by that name: \(problem)", at: child.name.location, notes: note.map { [$0] } ?? []))
    }

    private mutating func checkRecordType(of model: ModelDeclaration) {
        let recordType = model.recordType ?? model.name
        if let problem = CloudKitNaming.problem(with: recordType.value) {
            if model.recordType != nil {
                report(Diagnostic(.invalidRecordTypeName, "record type '\(recordType.value.truncatedForMessage)' is not a valid CloudKit record type name: \(problem)", at: recordType.location))
            } else if SwiftNaming.typeNameProblem(model.name.value) == nil {
                report(Diagnostic(.invalidRecordTypeName, "model name '\(recordType.value.truncatedForMessage)' is not a valid CloudKit record type name (\(problem)); set 'recordType' to one that is", at: recordType.location))
            }
        }
        if ReservedNames.isReservedRecordType(recordType.value) {
            report(Diagnostic(.reservedRecordTypeName, "record type '\(recordType.value)' is reserved by CloudKit; choose another name or set 'recordType'", at: recordType.location))
        }
    }

    /// A record key is a field name as CloudKit and the device's store see it: the same rules hold
    /// (one rule, `ReservedNames.fieldNameProblem`).
    private mutating func checkRecordKey(_ recordKey: Located<String>, of field: FieldDeclaration, model: String) {
        if let problem = CloudKitNaming.problem(with: recordKey.value) {
            report(Diagnostic(.invalidFieldName, "record key '\(recordKey.value.truncatedForMessage)' of \(field.subject(inModel: model)) is not a valid CloudKit field name: \(problem)", at: recordKey.location))
        } else if let problem = ReservedNames.fieldNameProblem(recordKey.value) {
            report(Diagnostic(.reservedFieldName, "record key '\(recordKey.value)' of \(field.subject(inModel: model)) is reserved: \(problem)", at: recordKey.location))
        }
    }

    private mutating func checkFieldName(_ name: Located<String>, model: String) {
        if let problem = CloudKitNaming.problem(with: name.value) {
            report(Diagnostic(.invalidFieldName, "field name '\(name.value.truncatedForMessage)' of model '\(model)' is not a valid CloudKit field name: \(problem)", at: name.location))
        } else if let problem = ReservedNames.fieldNameProblem(name.value) {
            report(Diagnostic(.reservedFieldName, "field name '\(name.value)' of model '\(model)' is reserved: \(problem)", at: name.location))
        }
    }
}
