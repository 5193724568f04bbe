/// Reads one YAML mapping of the schema: looks values up by key, and reports unknown keys (with a
/// suggestion) and repeated keys (with a note at the first one).
///
/// Only known keys are kept, and a mapping has a dozen at most, so they are searched in order
/// rather than hashed: a schema has one of these per field, and this is cheaper.
struct MappingReader {
    private var entries: [YAMLMappingEntry] = []
    /// Each entry's key, in `entries` order: a lookup compares these short strings rather than
    /// copy every entry (its nodes and locations) it passes.
    private var keys: [String] = []

    /// `ignoringPrefix`: keys starting with it are skipped without a word (the file level's `x-`
    /// keys, which exist to hold anchors). `explainingUnknown`: what an unknown key may be
    /// instead, when no known key is close to it ("; ...", or nil).
    init(
        _ mapping: [YAMLMappingEntry], knownKeys: [String], in context: @autoclosure () -> String,
        ignoringPrefix: String? = nil, explainingUnknown: (YAMLMappingEntry) -> String? = { _ in nil },
        diagnostics: inout [Diagnostic]
    ) {
        entries.reserveCapacity(mapping.count)
        keys.reserveCapacity(mapping.count)
        for entry in mapping {
            let key = entry.key.text
            if let ignoringPrefix, key.hasPrefix(ignoringPrefix) { continue }
            guard knownKeys.contains(key) else {
                let suggestion = Suggestion.didYouMean(key, among: knownKeys)
                diagnostics.append(Diagnostic(
                    .unknownKey,
                    "unknown key '\(key.truncatedForMessage)' in \(context())\(suggestion.isEmpty ? explainingUnknown(entry) ?? "" : suggestion)",
                    at: entry.keyLocation))
                continue
            }
            if let first = keys.firstIndex(of: key) {
                diagnostics.append(Diagnostic(
                    .duplicateKey, "key '\(key)' appears twice in \(context())", at: entry.keyLocation,
                    notes: [.init("'\(key)' is first written here", at: entries[first].keyLocation)]))
                continue
            }
            entries.append(entry)
            keys.append(key)
        }
    }

    subscript(key: String) -> YAMLMappingEntry? { keys.firstIndex(of: key).map { entries[$0] } }

    /// The known entries, each once, in the order written: one pass where a reader of many
    /// keys would look each up in turn.
    var knownEntries: Zip2Sequence<[String], [YAMLMappingEntry]> { zip(keys, entries) }
}
