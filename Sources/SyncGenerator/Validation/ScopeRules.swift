/// Rule 7: a model's scopes are one of the allowed sets.
extension ValidationContext {
    mutating func resolveScopes() {
        for id in allModelIDs {
            guard let declared = model(id).scopes else {
                scopes[id] = .privateOnly
                continue
            }
            if let set = resolveScopeSet(declared, model: model(id).name.value) {
                scopes[id] = set
            }
        }
    }

    private mutating func resolveScopeSet(_ declared: Located<[Located<String>]>, model: String) -> ScopeSet? {
        var names = Set<ScopeName>()
        var allKnown = true
        for word in declared.value {
            guard let scope = ScopeName(rawValue: word.value) else {
                allKnown = false
                report(Diagnostic(.unknownScope, "unknown scope '\(word.value.truncatedForMessage)' in model '\(model)'\(Suggestion.hint(word.value, choices: ScopeName.allCases.map(\.rawValue), noun: "scopes"))", at: word.location))
                continue
            }
            if !names.insert(scope).inserted {
                report(Diagnostic(.repeatedScope, "scope '\(scope.rawValue)' is listed twice in model '\(model)'", at: word.location))
            }
        }
        guard allKnown else { return nil }
        if let set = ScopeSet(names) { return set }
        if names.contains(.private) && names.contains(.public) {
            report(Diagnostic(.privateAndPublicScopes, "model '\(model)' cannot live in both the private and the public database; keep it [private] and add 'publishAs: SomePublicModel' to publish a public copy", at: declared.location))
        } else {
            let allowed = ScopeSet.allCases.map(\.rawValue).joined(separator: ", ")
            let written = "[" + declared.value.map(\.value).joined(separator: ", ") + "]"
            report(Diagnostic(.invalidScopeSet, "scopes \(written) of model '\(model)' are not an allowed set; use one of \(allowed)", at: declared.location))
        }
        return nil
    }
}
