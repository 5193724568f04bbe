import SyncCore

/// Rules 11 (encryption), 12 (local-only and server-owned fields) and 13 (indexes).
extension ValidationContext {
    mutating func checkFieldOptions() {
        for id in allModelIDs {
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                // Built only for a message (a function: nothing is allocated for a valid field).
                let modelName = model(id).name.value
                func subject() -> String { field.subject(inModel: modelName) }
                if let kinds = resolveIndexes(of: field, subject: subject()) {
                    indexes[fieldID] = kinds
                }
                checkEncryption(of: field, type: fieldTypes[fieldID], scopes: scopes[id], subject: subject())
                checkDeviceFields(field, subject: subject())
                if let type = fieldTypes[fieldID] {
                    checkIndexTypes(field, type: type, subject: subject())
                }
            }
        }
    }

    private mutating func resolveIndexes(of field: FieldDeclaration, subject: @autoclosure () -> String) -> [IndexKind]? {
        var kinds: [IndexKind] = []
        var valid = true
        for word in field.index {
            guard let kind = IndexKind(rawValue: word.value) else {
                valid = false
                report(Diagnostic(.unknownIndex, "unknown index '\(word.value.truncatedForMessage)' on \(subject())\(Suggestion.hint(word.value, choices: IndexKind.allCases.map(\.rawValue), noun: "indexes"))", at: word.location))
                continue
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return valid ? kinds : nil
    }

    private mutating func checkEncryption(of field: FieldDeclaration, type: FieldType?, scopes: ScopeSet?, subject: @autoclosure () -> String) {
        guard let encrypted = field.encrypted, encrypted.value else { return }
        if type?.isReferenceOrListOfReferences == true {
            report(Diagnostic(.encryptedReference, "\(subject()) is a reference, which cannot be encrypted: CloudKit must read references on the server", at: encrypted.location))
        }
        if type == .scalar(.asset) {
            report(Diagnostic(.encryptedAssetRedundant, "'encrypted' on asset \(subject()) is redundant: CloudKit always encrypts assets", at: encrypted.location))
        }
        if scopes == .publicOnly {
            report(Diagnostic(.encryptedInPublicModel, "\(subject()) is encrypted, but the public database stores no encrypted values", at: encrypted.location))
        }
        if let index = field.index.first {
            report(Diagnostic(.encryptedIndexed, "\(subject()) is encrypted, and CloudKit cannot index encrypted values; remove 'index' or 'encrypted'", at: index.location))
        }
    }

    /// localOnly and serverOwned fields never travel up, so encryption and indexes mean nothing
    /// for them, and a field cannot be both.
    private mutating func checkDeviceFields(_ field: FieldDeclaration, subject: @autoclosure () -> String) {
        guard field.isLocalOnly || field.isServerOwned else { return }
        let word = field.isLocalOnly ? "localOnly" : "serverOwned"
        if field.isLocalOnly && field.isServerOwned, let serverOwned = field.serverOwned {
            report(Diagnostic(.localOnlyAndServerOwned, "\(subject()) cannot be both localOnly (never uploaded, never overwritten) and serverOwned (always taken from the server)", at: serverOwned.location))
        }
        if let encrypted = field.encrypted, encrypted.value {
            report(Diagnostic(.deviceFieldEncrypted, "\(subject()) is \(word) and is never uploaded, so it cannot be encrypted", at: encrypted.location))
        }
        if let index = field.index.first {
            report(Diagnostic(.deviceFieldIndexed, "\(subject()) is \(word) and is never uploaded, so it cannot have an index", at: index.location))
        }
    }

    private mutating func checkIndexTypes(_ field: FieldDeclaration, type: FieldType, subject: @autoclosure () -> String) {
        for word in field.index {
            switch IndexKind(rawValue: word.value) {
            case .searchable where type.valueScalar?.facts.isSearchable != true:
                report(Diagnostic(.searchableNonString, "'searchable' needs a string or a list of strings, but \(subject()) is \(type)", at: word.location))
            case .sortable where type.scalar?.facts.isSortable != true:
                report(Diagnostic(.sortableUnsupported, "'sortable' is not available for \(type), the type of \(subject())", at: word.location))
            default:
                break
            }
        }
    }
}
