/// Rule 9: a private draft publishes into a public projection with the same recordName, so every
/// field the projection declares must come from the draft, with the same type.
extension ValidationContext {
    mutating func checkPublishing() {
        var drafts: [ModelID: ModelID] = [:]
        for id in canonicalModelIDs {
            let draft = model(id)
            guard let publishAs = draft.publishAs else { continue }
            guard let projectionID = modelID(named: publishAs.value) else {
                let suggestion = modelSuggestion(for: publishAs.value)
                report(Diagnostic(.unknownProjection, "model '\(draft.name.value)' publishes as unknown model '\(publishAs.value.truncatedForMessage)'\(suggestion.text)", at: publishAs.location, notes: suggestion.notes))
                continue
            }
            let projection = model(projectionID)
            if let draftScopes = scopes[id], draftScopes.isPublic {
                report(Diagnostic(.draftNotPrivate, "model '\(draft.name.value)' is public, so it cannot be a draft with 'publishAs'; a draft lives in the private database", at: publishAs.location))
                continue
            }
            if let projectionScopes = scopes[projectionID], !projectionScopes.isPublic {
                report(Diagnostic(.projectionNotPublic, "model '\(draft.name.value)' publishes as '\(projection.name.value)', whose scopes are \(projectionScopes.rawValue); a projection's scopes must be exactly [public]", at: publishAs.location, notes: [declaredHere(projectionID)]))
                continue
            }
            if projection.publishAs != nil {
                report(Diagnostic(.projectionIsDraft, "model '\(draft.name.value)' publishes as '\(projection.name.value)', which is itself a draft with 'publishAs'", at: publishAs.location, notes: [declaredHere(projectionID)]))
                continue
            }
            if let firstDraft = drafts[projectionID] {
                report(Diagnostic(.projectionSharedByDrafts, "models '\(model(firstDraft).name.value)' and '\(draft.name.value)' both publish as '\(projection.name.value)'; one recordName cannot come from two drafts", at: publishAs.location, notes: [.init("'\(model(firstDraft).name.value)' publishes as it here", at: model(firstDraft).publishAs!.location)]))
                continue
            }
            drafts[projectionID] = id
            checkProjectionFields(draft: id, projection: projectionID)
        }
    }

    /// Fields the projection takes from the draft: all but the ones the server fills (serverOwned)
    /// or the reader's device keeps (localOnly).
    private mutating func checkProjectionFields(draft draftID: ModelID, projection projectionID: ModelID) {
        let draft = model(draftID)
        let projection = model(projectionID)
        let draftFieldIndexByName = draft.fieldIndexByName
        for fieldID in fieldIDs(of: projectionID) {
            let field = field(fieldID)
            guard !field.isServerOwned && !field.isLocalOnly else { continue }
            let subject = "field '\(field.name.value)' of projection '\(projection.name.value)'"
            guard let draftIndex = draftFieldIndexByName[field.name.value] else {
                let similar = Suggestion.didYouMean(field.name.value, among: draft.fields.map(\.name.value))
                report(Diagnostic(.projectionFieldMissingInDraft, "\(subject) does not exist in draft '\(draft.name.value)', so it would never be published\(similar)", at: field.name.location, notes: [.init("'\(draft.name.value)' publishes as '\(projection.name.value)' here", at: draft.publishAs!.location)]))
                continue
            }
            let draftFieldID = FieldID(model: draftID, index: draftIndex)
            let draftField = self.field(draftFieldID)
            let note = Diagnostic.Note("the draft's field is declared here", at: draftField.name.location)
            if let type = fieldTypes[fieldID], let draftType = fieldTypes[draftFieldID],
                !projects(draftType, onto: type)
            {
                report(Diagnostic(.projectionFieldTypeMismatch, "\(subject) is \(type), but the draft '\(draft.name.value)' declares it as \(draftType)", at: (field.type ?? field.name).location, notes: [note]))
            }
            if field.isOptional != draftField.isOptional {
                let word = { (flag: Bool) in flag ? "optional" : "not optional" }
                report(Diagnostic(.projectionFieldOptionalityMismatch, "\(subject) is \(word(field.isOptional)), but the draft '\(draft.name.value)' declares it \(word(draftField.isOptional))", at: field.optional?.location ?? field.name.location, notes: [note]))
            }
        }
    }

    /// Whether a draft field's values can be copied into a projection field: the same type, or a
    /// reference to a draft model where the projection references that draft's own projection.
    private func projects(_ draftType: FieldType, onto projectionType: FieldType) -> Bool {
        switch (draftType, projectionType) {
        case (.reference(let draftTarget, let draftAction), .reference(let target, let action)):
            guard draftAction == action else { return false }
            return draftTarget == target
                || modelID(named: draftTarget).flatMap { model($0).publishAs?.value } == target
        case (.list(let draftElement), .list(let element)):
            return projects(draftElement, onto: element)
        default:
            return draftType == projectionType
        }
    }
}
