import SyncCore

/// Rule 16: natural keys (`unique`) and how concurrent edits combine (`merge`).
extension ValidationContext {
    /// Field types whose values every device compares alike: a natural key is made of them (the
    /// scalar types' facts say which; a reference's record name always is). A double is not
    /// among them (two devices' arithmetic may differ in the last bit), nor values without an
    /// equality people mean (data, an asset, a location, a list).
    static var comparableKeyTypes: [FieldKind] {
        FieldKind.allCases.filter { kind in
            switch kind {
            case .scalar(let scalar): scalar.facts.isKeyComparable
            case .reference: true
            case .list: false
            }
        }
    }

    mutating func checkConvergence() {
        for id in allModelIDs {
            checkUniqueKeys(of: id)
            let modelName = model(id).name.value
            if let merge = model(id).merge, let policy = mergePolicy(merge, of: "model '\(modelName)'") {
                if policy.isModelPolicy {
                    modelMergePolicies[id] = policy
                } else {
                    report(Diagnostic(.mergePolicyNotForType, "'\(policy.rawValue)' combines the values of one field; a model's 'merge' is \(Self.modelPolicies) (give '\(policy.rawValue)' to the fields that need it)", at: merge.location))
                }
            }
            for fieldID in fieldIDs(of: id) {
                checkMerge(of: fieldID, model: id)
            }
        }
    }

    /// Whether a field of `type` takes `policy`: `union` a list, `max` and `min` the types whose
    /// facts order them (numbers, dates), the others any field.
    private static func policy(_ policy: MergePolicyName, fits type: FieldType) -> Bool {
        switch policy {
        case .union: type.kind == .list
        case .max, .min: type.scalar?.facts.mergesByExtreme == true
        case .counter: type.scalar == .int || type.scalar == .double
        case .text: type.scalar == .string
        case .lastWriterWins, .serverWins, .clientWins, .custom: true
        }
    }

    private static var modelPolicies: String {
        MergePolicyName.allCases.filter(\.isModelPolicy).map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }

    private mutating func mergePolicy(_ word: Located<String>, of subject: @autoclosure () -> String) -> MergePolicyName? {
        if let policy = MergePolicyName(rawValue: word.value) { return policy }
        report(Diagnostic(.unknownMergePolicy, "unknown merge policy '\(word.value.truncatedForMessage)' on \(subject())\(Suggestion.hint(word.value, choices: MergePolicyName.allCases.map(\.rawValue), noun: "merge policies"))", at: word.location))
        return nil
    }

    private mutating func checkUniqueKeys(of id: ModelID) {
        let model = model(id)
        guard let first = model.unique.first else { return }
        if scopes[id]?.isPublic == true {
            report(Diagnostic(.uniqueOnPublicModel, "model '\(model.name.value)' is public and cannot have a 'unique' key: each public record belongs to its creator, and no device may delete another user's duplicate", at: first.location))
            return
        }
        let fieldIndexes = model.fieldIndexByName
        var keys: [[String]] = []
        var valid = true
        for key in model.unique {
            guard !key.value.isEmpty else {
                valid = false
                report(Diagnostic(.unknownKeyField, "a 'unique' key of model '\(model.name.value)' names no field", at: key.location))
                continue
            }
            var names: [String] = []
            for name in key.value {
                if names.contains(name.value) {
                    report(Diagnostic(.repeatedKeyField, "field '\(name.value)' is named twice in one 'unique' key of model '\(model.name.value)'", at: name.location))
                    continue
                }
                names.append(name.value)
                guard let index = fieldIndexes[name.value] else {
                    valid = false
                    report(Diagnostic(.unknownKeyField, "'unique' key of model '\(model.name.value)' names unknown field '\(name.value.truncatedForMessage)'\(Suggestion.didYouMean(name.value, among: model.fields.map(\.name.value)))", at: name.location))
                    continue
                }
                valid = checkKeyField(FieldID(model: id, index: index), named: name) && valid
            }
            if keys.contains(where: { Set($0) == Set(names) }) {
                report(Diagnostic(.repeatedKeyField, "model '\(model.name.value)' gives the 'unique' key [\(names.joined(separator: ", "))] twice", at: key.location))
            } else {
                keys.append(names)
            }
        }
        if valid { uniqueKeys[id] = keys }
    }

    /// Whether the field can be part of a natural key; reports why not at the key's mention of it.
    private mutating func checkKeyField(_ fieldID: FieldID, named name: Located<String>) -> Bool {
        let field = field(fieldID)
        let owner = model(fieldID.model).name.value
        let reason: String? =
            if field.isLocalOnly { "local-only: other devices never see it" }
            else if field.isServerOwned { "server-owned: a record made on a device has no value of it until the server sets one" }
            else if field.isEncrypted { "encrypted: CloudKit can neither index nor query it, so the records that share a value cannot be found in the cloud" }
            else { nil }
        if let reason {
            report(Diagnostic(.keyFieldNotShared, "field '\(name.value)' of model '\(owner)' cannot be part of a 'unique' key: it is \(reason)", at: name.location, notes: [.init("'\(name.value)' is declared here", at: field.name.location)]))
            return false
        }
        guard let type = fieldTypes[fieldID] else { return false }
        if !Self.comparableKeyTypes.contains(type.kind) {
            report(Diagnostic(.keyFieldNotComparable, "field '\(name.value)' of model '\(owner)' is \(type.article) \(type.kind.rawValue), which a 'unique' key cannot hold; keys are made of \(Self.comparableKeyTypes.map(\.rawValue).sorted().joined(separator: ", ")) fields", at: name.location, notes: [.init("'\(name.value)' is declared here", at: field.name.location)]))
            return false
        }
        return true
    }

    private mutating func checkMerge(of fieldID: FieldID, model id: ModelID) {
        let field = field(fieldID)
        let modelName = model(id).name.value
        guard let word = field.merge else {
            // A conflict keeps one side's whole list: said once, where a new user would lose an
            // element to it, until the schema says which it wants.
            if fieldTypes[fieldID]?.kind == .list, !field.isLocalOnly, !field.isServerOwned {
                report(Diagnostic(.listWithoutMerge, "field '\(field.name.value)' of model '\(modelName)' is a list without 'merge': when two devices change it at once, one device's whole list is kept and what the other added is lost; write 'merge: union' to keep what either added, or 'merge: lastWriterWins' to keep one side's list", at: field.name.location))
            }
            return
        }
        // Built only for a message (a function: nothing is allocated for a valid field).
        func subject() -> String { field.subject(inModel: modelName) }
        guard let policy = mergePolicy(word, of: subject()) else { return }
        if field.isLocalOnly || field.isServerOwned {
            report(Diagnostic(.mergeOnDeviceField, "\(subject()) is \(field.isLocalOnly ? "local-only: a pull never changes it" : "server-owned: the server's value is always taken"), so it is never merged; remove 'merge'", at: word.location))
            return
        }
        if let type = fieldTypes[fieldID], !Self.policy(policy, fits: type) {
            // What the field's type does take, so the fix is in the message.
            let takes = MergePolicyName.allCases.filter { Self.policy($0, fits: type) }.map { "'\($0.rawValue)'" }
            let choices = takes.dropLast().joined(separator: ", ") + " or " + takes.last!
            let does =
                switch policy {
                case .union: "merges lists"
                case .counter: "adds up changes of a number"
                case .text: "merges edits of a text"
                default: "keeps the \(policy == .max ? "larger" : "smaller") number or date"
                }
            report(Diagnostic(.mergePolicyNotForType, "'\(policy.rawValue)' \(does), and \(subject()) is \(type.article) \(type.kind.rawValue); \(type.article) \(type.kind.rawValue) takes \(choices)", at: word.location))
            return
        }
        if policy.combinesChanges, let key = model(id).unique.first(where: { $0.value.contains { $0.value == field.name.value } }) {
            report(Diagnostic(
                .mergeOnKeyField, "\(subject()) is part of a 'unique' key, and '\(policy.rawValue)' would make its value one neither device wrote: copies that agree on their key could stop agreeing; remove 'merge', or the field from the key",
                at: word.location, notes: [.init("the key is given here", at: key.location)]))
            return
        }
        fieldMergePolicies[fieldID] = policy
    }
}
