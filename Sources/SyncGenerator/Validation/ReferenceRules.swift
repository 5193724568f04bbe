/// Rule 6, references: CloudKit references stay inside one zone, so a reference's target must be
/// able to live where its source lives.
extension ValidationContext {
    mutating func checkReferences() {
        for id in allModelIDs {
            guard let sourceScopes = scopes[id] else { continue }
            for fieldID in fieldIDs(of: id) {
                guard let target = fieldTypes[fieldID]?.referenceTarget, let targetID = modelID(named: target),
                    let targetScopes = scopes[targetID], targetScopes != sourceScopes
                else { continue }
                let field = field(fieldID)
                let subject = "field '\(field.name.value)' of model '\(model(id).name.value)' (\(sourceScopes.rawValue))"
                let location = (field.to ?? field.name).location
                if sourceScopes.isPublic || targetScopes.isPublic {
                    report(Diagnostic(.referenceAcrossDatabases, "\(subject) references '\(target)' (\(targetScopes.rawValue)), which lives in another database; references cannot cross databases", at: location, notes: [declaredHere(targetID)]))
                } else {
                    report(Diagnostic(.referenceAcrossScopes, "\(subject) references '\(target)' (\(targetScopes.rawValue)); references stay inside one zone, so records in a shared zone cannot reach their target", at: location, notes: [declaredHere(targetID)]))
                }
            }
        }
    }
}
