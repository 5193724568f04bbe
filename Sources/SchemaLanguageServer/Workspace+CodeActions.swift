import SyncGenerator

/// Quick fixes: each diagnostic that suggests a word ("did you mean 'string'?") is fixed by
/// writing that word where the diagnostic points.
extension Workspace {
    func codeActions(_ uri: String, _ diagnostics: [JSON]) throws(RequestError) -> JSON {
        guard try schemaPath(uri) != nil else { return [] }
        var actions: [JSON] = []
        for diagnostic in diagnostics {
            guard diagnostic["source"]?.string == "syncgen", let message = diagnostic["message"]?.string,
                let word = Suggestion.suggested(in: message), let range = diagnostic["range"]
            else { continue }
            actions.append([
                "title": .string("Change to '\(word)'"),
                "kind": "quickfix",
                "diagnostics": [diagnostic],
                "isPreferred": true,
                "edit": ["changes": .object([uri: [["range": range, "newText": .string(word)]]])],
            ])
        }
        return .array(actions)
    }
}
