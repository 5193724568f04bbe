/// Reads one YAML mapping of the schema: looks values up by key, and reports unknown keys (with a
/// suggestion) and repeated keys (with a note at the first one).
struct MappingReader {
    private var entries: [String: YAMLMappingEntry] = [:]

    /// `ignoringPrefix`: keys starting with it are skipped without a word (the file level's `x-`
    /// keys, which exist to hold anchors).
    init(
        _ mapping: [YAMLMappingEntry], knownKeys: [String], in context: String,
        ignoringPrefix: String? = nil, diagnostics: inout [Diagnostic]
    ) {
        for entry in mapping {
            let key = entry.key.text
            if let ignoringPrefix, key.hasPrefix(ignoringPrefix) { continue }
            guard knownKeys.contains(key) else {
                diagnostics.append(Diagnostic(
                    .unknownKey,
                    "unknown key '\(key.truncatedForMessage)' in \(context)\(Suggestion.didYouMean(key, among: knownKeys))",
                    at: entry.keyLocation))
                continue
            }
            if let first = entries[key] {
                diagnostics.append(Diagnostic(
                    .duplicateKey, "key '\(key)' appears twice in \(context)", at: entry.keyLocation,
                    notes: [.init("'\(key)' is first written here", at: first.keyLocation)]))
                continue
            }
            entries[key] = entry
        }
    }

    subscript(key: String) -> YAMLMappingEntry? { entries[key] }
}
