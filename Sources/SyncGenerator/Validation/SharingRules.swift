/// Rule 8: share roots and parent chains.
extension ValidationContext {
    mutating func checkSharing() {
        for id in allModelIDs {
            let model = model(id)
            let modelScopes = scopes[id]
            if let shareable = model.shareable, shareable.value, let modelScopes, !modelScopes.isPublic,
                !modelScopes.scopes.contains(.shared)
            {
                report(Diagnostic(.shareableWithoutSharedScope, "model '\(model.name.value)' is shareable but its scopes \(modelScopes.rawValue) do not include 'shared'; use scopes: [private, shared]", at: shareable.location))
            }
            checkParent(of: id)
        }
        checkParentCycles()
    }

    private mutating func checkParent(of id: ModelID) {
        let model = model(id)
        guard let parent = model.parent else { return }
        guard let parentID = modelID(named: parent.value) else {
            let suggestion = modelSuggestion(for: parent.value)
            report(Diagnostic(.unknownParent, "parent of model '\(model.name.value)' is unknown model '\(parent.value.truncatedForMessage)'\(suggestion.text)", at: parent.location, notes: suggestion.notes))
            return
        }
        // A public child is rule 14's to report; its parent's scopes are then beside the point.
        guard let childScopes = scopes[id], !childScopes.isPublic, let parentScopes = scopes[parentID] else { return }
        if parentScopes.isPublic {
            report(Diagnostic(.publicParent, "parent of model '\(model.name.value)' is '\(parent.value)', a public model; public records have no share hierarchy", at: parent.location, notes: [declaredHere(parentID)]))
        } else if parentScopes != childScopes {
            report(Diagnostic(.parentScopeMismatch, "model '\(model.name.value)' has scopes \(childScopes.rawValue) but its parent '\(parent.value)' has \(parentScopes.rawValue); a child lives in its parent's zone, so both need the same scopes", at: parent.location, notes: [declaredHere(parentID)]))
        }
    }

    /// Reports each cycle once, at the declaration of its first model in schema order. Each model
    /// is walked once: a walk stops at a model an earlier walk finished, so a long chain costs its
    /// length, not its length squared.
    private mutating func checkParentCycles() {
        var finished = Set<ModelID>()
        var cycles: [[ModelID]] = []
        for start in canonicalModelIDs where !finished.contains(start) {
            var path: [ModelID] = []
            var positionOnPath: [ModelID: Int] = [:]
            var current: ModelID? = start
            while let id = current, !finished.contains(id), positionOnPath[id] == nil {
                positionOnPath[id] = path.count
                path.append(id)
                current = model(id).parent.flatMap { modelID(named: $0.value) }
            }
            if let repeated = current, let entry = positionOnPath[repeated] {
                let cycle = path[entry...]
                // Told from the model the schema declares first, wherever the walk entered it.
                let first = cycle.firstIndex(of: cycle.min()!)!
                cycles.append(Array(cycle[first...] + cycle[..<first]))
            }
            finished.formUnion(path)
        }
        for path in cycles.sorted(by: { $0[0] < $1[0] }) {
            let start = path[0]
            let names = (path + [start]).map { model($0).name.value }
            let notes: [Diagnostic.Note] = path.dropFirst().map { id in
                .init("'\(model(id).name.value)' names its parent here", at: model(id).parent!.location)
            }
            report(Diagnostic(.parentCycle, "parent chain of model '\(names[0])' is a cycle: \(names.joined(separator: " -> "))", at: model(start).parent!.location, notes: notes))
        }
    }
}
