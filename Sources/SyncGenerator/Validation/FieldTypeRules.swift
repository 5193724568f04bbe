import SyncCore

/// Rule 6: every field has a known type, lists name their element, references their target, enums
/// their cases, and no field takes a record key an asset field travels under.
extension ValidationContext {
    mutating func resolveFieldTypes() {
        for id in allModelIDs {
            var assets: [FieldDeclaration] = []
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                guard let type = resolveType(of: field, model: model(id).name.value),
                    let cases = resolveCases(of: field, type: type, model: model(id).name.value)
                else { continue }
                fieldTypes[fieldID] = type
                if !cases.isEmpty { enumCases[fieldID] = cases }
                if type == .scalar(.asset) { assets.append(field) }
            }
            checkAssetRecordKeys(of: assets, in: id)
        }
    }

    /// A field stored under a record key an asset field travels under would share it in CloudKit.
    /// The first asset field's keys are reserved for every model (``ReservedNames``); a further
    /// one's are its record key (its name, unless it says `recordKey:`) before them, reserved in
    /// its model only.
    private mutating func checkAssetRecordKeys(of assets: [FieldDeclaration], in id: ModelID) {
        guard assets.count > 1 else { return }
        let keys = AssetRecordKeys.of(assetFields: assets.map(\.storedKey.value))
        for (asset, assetKeys) in zip(assets, keys).dropFirst() {
            for fieldID in fieldIDs(of: id) where assetKeys.all.contains(field(fieldID).storedKey.value) {
                let clash = field(fieldID).storedKey
                report(Diagnostic(
                    .reservedFieldName, "'\(clash.value)' is the record key syncgen adds for the asset field '\(asset.name.value)' of model '\(model(id).name.value)'; \(field(fieldID).recordKey == nil ? "rename the field" : "choose another record key")",
                    at: clash.location, notes: [.init("the asset field '\(asset.name.value)' is declared here", at: asset.name.location)]))
            }
            if let long = assetKeys.all.first(where: { $0.count > CloudKitNaming.maxNameLength }) {
                report(Diagnostic(
                    .invalidFieldName, "the asset field '\(asset.name.value)' travels under the record key '\(long.prefix(24))…', longer than CloudKit's \(CloudKitNaming.maxNameLength) characters; shorten the field's \(asset.recordKey == nil ? "name" : "record key")",
                    at: asset.storedKey.location))
            }
        }
    }

    private mutating func resolveType(of field: FieldDeclaration, model: String) -> FieldType? {
        // Built only for a message (a function: nothing is allocated for a valid field).
        func subject() -> String { field.subject(inModel: model) }
        guard let word = field.type, let kind = resolveKind(word, subject: subject(), listHint: false) else { return nil }
        var element: FieldKind?
        if kind == .list {
            element = resolveElement(of: field, subject: subject())
        } else if let of = field.of {
            report(Diagnostic(.elementTypeOnNonList, "'of' is only for lists, but \(subject()) is \(kind.rawValue)", at: of.location))
        }
        let isReference = kind == .reference || element == .reference
        if !isReference {
            if let to = field.to {
                report(Diagnostic(.referenceTargetOnNonReference, "'to' is only for references, but \(subject()) is \(kind.rawValue)", at: to.location))
            }
            if let onDelete = field.onDelete {
                report(Diagnostic(.onDeleteOnNonReference, "'onDelete' is only for references, but \(subject()) is \(kind.rawValue)", at: onDelete.location))
            }
        }
        switch kind {
        case .list:
            guard let element else { return nil }
            guard case .scalar(let scalar) = element else { return resolveReference(of: field, subject: subject()).map { .list(of: $0) } }
            return .list(of: .scalar(scalar))
        case .reference:
            return resolveReference(of: field, subject: subject())
        case .scalar(let scalar):
            return .scalar(scalar)
        }
    }

    /// An enum's cases (none for a field of another type), or nil when they are missing or
    /// invalid (reported).
    private mutating func resolveCases(of field: FieldDeclaration, type: FieldType, model: String) -> [String]? {
        func subject() -> String { field.subject(inModel: model) }
        guard type.valueScalar == .enum else {
            if let cases = field.cases {
                report(Diagnostic(.casesOnNonEnum, "'cases' is only for enums, but \(subject()) is \(type)", at: cases.location))
            }
            return []
        }
        guard let cases = field.cases, !cases.value.isEmpty else {
            report(Diagnostic(.missingEnumCases, "\(subject()) is an enum but names no cases; add 'cases: [NAME, ...]'", at: field.cases?.location ?? (field.type ?? field.name).location))
            return nil
        }
        var seen: [String: SourceLocation] = [:]
        var valid = true
        for name in cases.value {
            if let problem = ReservedNames.enumCaseProblem(name.value) {
                report(Diagnostic(.invalidEnumCase, "case '\(name.value.truncatedForMessage)' of \(subject()) \(problem)", at: name.location))
                valid = false
            } else if let first = seen[name.value] {
                report(Diagnostic(.invalidEnumCase, "case '\(name.value)' of \(subject()) is named twice", at: name.location, notes: [.init("it is named first here", at: first)]))
                valid = false
            } else {
                seen[name.value] = name.location
            }
        }
        return valid ? cases.value.map(\.value) : nil
    }

    private mutating func resolveKind(_ word: Located<String>, subject: @autoclosure () -> String, listHint: Bool) -> FieldKind? {
        if let kind = FieldKind(rawValue: word.value) { return kind }
        if let target = modelID(named: word.value) {
            let spelling = listHint ? "{ type: list, of: reference, to: \(word.value) }" : "{ type: reference, to: \(word.value) }"
            report(Diagnostic(.modelNameUsedAsType, "\(subject()) uses model '\(word.value)' as a type; a reference is written \(spelling)", at: word.location, notes: [declaredHere(target)]))
            return nil
        }
        let types = FieldKind.allCases.map(\.rawValue)
        // A word of another schema language (`integer`, `text`), or a misspelling of one
        // (`integr`), means one of ours: suggest that one, not the nearest spelling.
        // A close spelling of one of ours comes first (`strng`).
        let lowered = word.value.lowercased()
        let meant = FieldKind.synonyms[lowered]?.rawValue
            ?? Suggestion.closest(to: word.value, among: types)
            ?? Suggestion.closest(to: lowered, among: FieldKind.synonyms.keys).flatMap { FieldKind.synonyms[$0]?.rawValue }
        let hint = meant.map(Suggestion.phrase) ?? Suggestion.hint(word.value, choices: types, noun: "types")
        report(Diagnostic(.unknownType, "unknown type '\(word.value.truncatedForMessage)' for \(subject())\(hint)", at: word.location))
        return nil
    }

    private mutating func resolveElement(of field: FieldDeclaration, subject: @autoclosure () -> String) -> FieldKind? {
        guard let of = field.of else {
            report(Diagnostic(.missingListElementType, "\(subject()) is a list but does not say what it holds; add 'of: TYPE'", at: (field.type ?? field.name).location))
            return nil
        }
        guard let element = resolveKind(of, subject: subject(), listHint: true) else { return nil }
        switch element {
        case .list:
            report(Diagnostic(.nestedList, "\(subject()) is a list of lists, which CloudKit cannot store", at: of.location))
            return nil
        case .scalar(let scalar) where !scalar.facts.isListElement:
            report(Diagnostic(.listOfAssets, "\(subject()) is a list of \(scalar.rawValue)s, which syncgen does not support; use a child model with one \(scalar.rawValue) each", at: of.location))
            return nil
        default:
            return element
        }
    }

    private mutating func resolveReference(of field: FieldDeclaration, subject: @autoclosure () -> String) -> FieldType? {
        var action = DeleteActionName.none
        var valid = true
        if let onDelete = field.onDelete {
            if let parsed = DeleteActionName(rawValue: onDelete.value) {
                action = parsed
            } else {
                valid = false
                report(Diagnostic(.unknownDeleteAction, "unknown 'onDelete' action '\(onDelete.value.truncatedForMessage)' for \(subject())\(Suggestion.hint(onDelete.value, choices: DeleteActionName.allCases.map(\.rawValue), noun: "actions"))", at: onDelete.location))
            }
        }
        guard let to = field.to else {
            report(Diagnostic(.missingReferenceTarget, "\(subject()) is a reference but does not say to which model; add 'to: ModelName'", at: (field.type ?? field.name).location))
            return nil
        }
        guard modelID(named: to.value) != nil else {
            let suggestion = modelSuggestion(for: to.value)
            report(Diagnostic(.unknownReferenceTarget, "field '\(field.name.value)' references unknown model '\(to.value.truncatedForMessage)'\(suggestion.text)", at: to.location, notes: suggestion.notes))
            return nil
        }
        return valid ? .reference(to: to.value, onDelete: action) : nil
    }
}
