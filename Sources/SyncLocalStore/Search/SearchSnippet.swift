import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// The part of a model's searchable text that a search matched, for a row of results: a few
/// words around the first match, the matched words marked.
///
/// ```swift
/// let query = Query<Note>().matching("milk caf").limit(20)
/// for note in try store.fetch(query) {
///     guard let snippet = query.snippet(of: note) else { continue }
///     print(snippet.text)                              // "…buy Milk at the café on…"
///     print(snippet.matches.map { snippet.text[$0] })  // ["Milk", "café"]
/// }
/// ```
public struct SearchSnippet: Sendable, Hashable {
    /// The searchable field the text comes from (its schema name).
    public let field: String
    /// The words around the first match, as the field has them; `…` where the field's text goes
    /// on before or after.
    public let text: String
    /// The matched words, in `text`.
    public let matches: [Range<String.Index>]
}

extension Query where Model: TextSearchable {
    /// The first of the model's searchable fields (in schema order) holding a word the query
    /// searches for, as a snippet of at most `words` words around the first match, the matched
    /// words marked; nil when the query searches no text, or the model holds none of its words.
    public func snippet(of model: Model, words: Int = 12) -> SearchSnippet? {
        guard !searchTexts.isEmpty, words > 0 else { return nil }
        let search = SearchText.Search(searchTexts)
        for (field, texts) in model.searchableTextsByField {
            for text in texts {
                if let snippet = Self.snippet(of: text, field: field, search: search, words: words) { return snippet }
            }
        }
        return nil
    }

    private static func snippet(of text: String, field: String, search: SearchText.Search, words count: Int) -> SearchSnippet? {
        let found = SearchText.words(of: text)
        guard let first = found.firstIndex(where: { search.isMatched($0.word) }) else { return nil }
        // A few words of what comes before the match, then what follows.
        let start = max(0, min(first - count / 4, found.count - count))
        let end = min(found.count, start + count)
        let utf8 = Array(text.utf8)
        let lower = found[start].bytes.lowerBound
        let leading = start > 0 ? "…" : ""
        var snippet = leading + String(decoding: utf8[lower..<found[end - 1].bytes.upperBound], as: UTF8.self)
        if end < found.count { snippet += "…" }
        let shift = leading.utf8.count - lower
        let matches = found[start..<end].filter { search.isMatched($0.word) }.map { word in
            let from = snippet.utf8.index(snippet.utf8.startIndex, offsetBy: word.bytes.lowerBound + shift)
            let to = snippet.utf8.index(snippet.utf8.startIndex, offsetBy: word.bytes.upperBound + shift)
            return from..<to
        }
        return SearchSnippet(field: field, text: snippet, matches: matches)
    }
}
