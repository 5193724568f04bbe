import SyncCore

/// Zones (`zone:`, rules 3, 6, 8 and 14): a name CloudKit takes; never on a public model, whose
/// database has one zone; a child in its parent's zone; a reference inside its own zone. A model
/// without `zone` lives in the app's sync zone, which the schema does not name: a model naming
/// that zone by its name is another zone here (`SyncConfiguration.syncZoneName` may differ).
extension ValidationContext {
    mutating func checkZones() {
        for id in allModelIDs {
            let model = model(id)
            if let zone = model.zone {
                if let problem = CloudKitNaming.zoneNameProblem(with: zone.value) {
                    report(Diagnostic(.invalidZoneName, "zone '\(zone.value.truncatedForMessage)' of model '\(model.name.value)' is not a zone name CloudKit accepts: \(problem)", at: zone.location))
                }
                if scopes[id]?.isPublic == true {
                    report(Diagnostic(.publicModelZone, "model '\(model.name.value)' is public and names zone '\(zone.value.truncatedForMessage)'; the public database has one zone: remove 'zone'", at: zone.location))
                }
            }
            guard scopes[id]?.isPublic == false else { continue }
            checkParentZone(of: id)
            checkReferenceZones(of: id)
        }
    }

    /// The zone a model's records live in, as the schema says it: nil for the app's sync zone.
    private func zoneName(of id: ModelID) -> String? {
        model(id).zone?.value
    }

    private func describe(zoneOf id: ModelID) -> String {
        SchemaVocabulary.describeZone(zoneName(of: id))
    }

    private mutating func checkParentZone(of id: ModelID) {
        let model = model(id)
        guard let parent = model.parent, let parentID = modelID(named: parent.value), scopes[parentID]?.isPublic == false,
            zoneName(of: parentID) != zoneName(of: id)
        else { return }
        let fix = zoneName(of: parentID).map { "add 'zone: \($0)'" } ?? "remove 'zone'"
        report(Diagnostic(
            .childZoneMismatch, "model '\(model.name.value)' lives in \(describe(zoneOf: id)) but its parent '\(parent.value)' in \(describe(zoneOf: parentID)); a child lives in its parent's zone: \(fix)",
            at: (model.zone ?? parent).location, notes: [declaredHere(parentID)]))
    }

    private mutating func checkReferenceZones(of id: ModelID) {
        for fieldID in fieldIDs(of: id) {
            guard let target = fieldTypes[fieldID]?.referenceTarget, let targetID = modelID(named: target),
                scopes[targetID]?.isPublic == false, zoneName(of: targetID) != zoneName(of: id)
            else { continue }
            let field = field(fieldID)
            report(Diagnostic(
                .referenceAcrossZones, "field '\(field.name.value)' of model '\(model(id).name.value)' (\(describe(zoneOf: id))) references '\(target)', which lives in \(describe(zoneOf: targetID)); a reference stays inside its zone",
                at: (field.to ?? field.name).location, notes: [declaredHere(targetID)]))
        }
    }
}
