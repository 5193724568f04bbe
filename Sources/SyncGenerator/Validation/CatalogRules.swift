/// Rule 10: catalogs (how public models are queried).
extension ValidationContext {
    mutating func resolveCatalogs() {
        for id in allModelIDs {
            let model = model(id)
            guard scopes[id] == .publicOnly else {
                if let catalog = model.catalog, scopes[id] != nil {
                    report(Diagnostic(.catalogOnNonPublicModel, "'catalog' is only for public models, but model '\(model.name.value)' has scopes \(scopes[id]!.rawValue)", at: catalog.location))
                }
                continue
            }
            let declared = model.catalog
            let desired = resolveDesiredFields(declared?.desiredKeys, model: id)
            let state = resolveInitialState(declared?.initialState, model: model.name.value)
            if let initialState = declared?.initialState, state != nil, declared?.governed?.value != true {
                report(Diagnostic(.initialStateWithoutGovernance, "'initialState' of model '\(model.name.value)' has no effect: only a governed catalog ('governed: true') keeps a publication state", at: initialState.location))
            }
            if let desired, let state {
                catalogs[id] = Catalog(desiredFields: desired, initialState: state, isGoverned: declared?.governed?.value ?? false)
            }
        }
    }

    /// `auto` (or no `desiredKeys`) means every uploaded field but the asset.
    private mutating func resolveDesiredFields(_ declared: CatalogDeclaration.DesiredKeys?, model id: ModelID) -> [String]? {
        let model = model(id)
        guard case .explicit(let keys) = declared else {
            return fieldIDs(of: id).compactMap { fieldID in
                let field = field(fieldID)
                return fieldTypes[fieldID] == .scalar(.asset) || field.isLocalOnly ? nil : field.name.value
            }
        }
        var names: [String] = []
        var named = Set<String>()
        let fieldIndexByName = model.fieldIndexByName
        var valid = true
        for key in keys {
            guard let index = fieldIndexByName[key.value] else {
                valid = false
                report(Diagnostic(.unknownDesiredKey, "desired key '\(key.value.truncatedForMessage)' of model '\(model.name.value)' names no field\(Suggestion.didYouMean(key.value, among: model.fields.map(\.name.value)))", at: key.location))
                continue
            }
            let fieldID = FieldID(model: id, index: index)
            if fieldTypes[fieldID] == .scalar(.asset) {
                valid = false
                report(Diagnostic(.assetAsDesiredKey, "desired key '\(key.value)' of model '\(model.name.value)' is the asset, whose contents catalog queries never fetch; its suffix and size markers are always desired, and readers download the asset on demand", at: key.location))
                continue
            }
            if field(fieldID).isLocalOnly {
                report(Diagnostic(.localOnlyDesiredKey, "desired key '\(key.value)' of model '\(model.name.value)' is localOnly, so it is never uploaded and queries return nothing for it", at: key.location))
            }
            if named.insert(key.value).inserted { names.append(key.value) }
        }
        return valid ? names : nil
    }

    private mutating func resolveInitialState(_ declared: Located<String>?, model: String) -> PublicationStateName? {
        guard let declared else { return .listed }
        if let state = PublicationStateName(rawValue: declared.value) { return state }
        let states = PublicationStateName.allCases.map(\.rawValue)
        report(Diagnostic(.unknownInitialState, "unknown 'initialState' '\(declared.value.truncatedForMessage)' of model '\(model)'\(Suggestion.hint(declared.value, choices: states, noun: "states"))", at: declared.location))
        return nil
    }
}
