import Foundation

/// How the store's text search reads a text: the one rule its index (the `syncgen` FTS5
/// tokenizer, `SQLiteDatabase+Search`), its queries and its snippets follow.
///
/// It is the rule CloudKit's own text search states, so that one search box finds the same
/// records offline and on the server: a text's words are what lies between whitespace (Apple,
/// `CKRecord.allTokens()`: "It breaks each value string apart at whitespace boundaries"),
/// compared case and accents aside (`tokenize(%@, 'Cdl')`), and a search ignores the words
/// Apple's "Indexes and Full-Text Search" table lists. Two additions of the device's own: the
/// last word of a search still being typed (no whitespace after it) matches as a prefix, and a
/// NUL counts as whitespace (SQLite's query parser stops at one).
package enum SearchText {
    /// The folded words of `text`, each with the range of bytes it came from in the text's UTF-8.
    package static func words(of text: String) -> [(word: String, bytes: Range<Int>)] {
        var found: [(String, Range<Int>)] = []
        var text = text
        text.withUTF8 { bytes in
            forEachWord(in: bytes) { word, range in found.append((String(decoding: word, as: UTF8.self), range)) }
        }
        return found
    }

    /// Calls `body` with each word of the UTF-8 `bytes`, folded (as bytes, valid only during the
    /// call), and the range of bytes it came from: what the tokenizer hands SQLite for every
    /// searchable text saved, so the common case (ASCII, no capitals) is handed over as it is.
    package static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void) rethrows {
        var folded: [UInt8] = []
        var index = 0
        let count = bytes.count
        while index < count {
            let space = whitespaceLength(bytes, at: index)
            if space > 0 {
                index += space
                continue
            }
            let start = index
            var isASCII = true
            var hasCapital = false
            while index < count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if isASCIIWhitespace(byte) { break }
                    if byte &- 0x41 < 26 { hasCapital = true }
                } else {
                    if whitespaceLength(bytes, at: index) > 0 { break }
                    isASCII = false
                }
                index += 1
            }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if isASCII, !hasCapital {
                try body(word, start..<index)
                continue
            }
            folded.removeAll(keepingCapacity: true)
            if isASCII {
                for byte in word { folded.append(byte &- 0x41 < 26 ? byte | 0x20 : byte) }
            } else {
                folded.append(contentsOf: fold(String(decoding: word, as: UTF8.self)).utf8)
            }
            try folded.withUnsafeBufferPointer { try body($0, start..<index) }
        }
    }

    /// ASCII's whitespace (tab, line feed, vertical tab, form feed, carriage return, space), and
    /// a NUL.
    @inline(__always)
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte &- 0x09 < 5 || byte == 0
    }

    /// A word as the search compares it: case and accents aside.
    package static func fold(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The length in bytes of the whitespace character at `index` (a NUL counts), or 0.
    private static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 { return isASCIIWhitespace(byte) ? 1 : 0 }
        // Unicode's other White_Space characters, U+0085 and up: each starts with one of these.
        guard byte == 0xC2 || byte == 0xE1 || byte == 0xE2 || byte == 0xE3 else { return 0 }
        let length = byte == 0xC2 ? 2 : 3
        guard index + length <= bytes.count else { return 0 }
        var scalar = UInt32(byte & (length == 2 ? 0x1F : 0x0F))
        for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return Unicode.Scalar(scalar)?.properties.isWhitespace == true ? length : 0
    }

    /// What a search looks for: its words, folded, but those CloudKit ignores; the last word of
    /// each text a prefix while it is being typed. Empty when it looks for nothing (then nothing
    /// matches).
    package struct Search: Sendable, Hashable {
        /// Whole words, each of which a match holds.
        package private(set) var words: [String] = []
        /// Starts of words, each of which a match holds a word starting with.
        package private(set) var prefixes: [String] = []

        /// The words of each text: a match holds them all.
        package init(_ texts: [String]) {
            for text in texts {
                var words = SearchText.words(of: text).map(\.word)
                // Still being typed: the last word is whatever it grows into.
                if !words.isEmpty, let last = text.unicodeScalars.last, !last.properties.isWhitespace, last != "\0" {
                    prefixes.append(words.removeLast())
                }
                self.words += words.filter { !SearchText.ignoredWords.contains($0) }
            }
        }

        /// Whether the search looks for nothing.
        package var isEmpty: Bool { words.isEmpty && prefixes.isEmpty }

        /// The search as an FTS5 query: each word a quoted string (so that no character of it
        /// is query syntax), each prefix followed by `*`. Nil when it looks for nothing.
        package var matchExpression: String? {
            guard !isEmpty else { return nil }
            return (words.map(Self.quoted) + prefixes.map { Self.quoted($0) + "*" }).joined(separator: " ")
        }

        /// Whether a folded word of a text is one the search looks for: compared byte for byte,
        /// as the index compares them.
        package func isMatched(_ word: String) -> Bool {
            words.contains { $0.utf8.elementsEqual(word.utf8) } || prefixes.contains { word.utf8.starts(with: $0.utf8) }
        }

        /// Whether texts hold every word and a word starting with every prefix: the search run
        /// over a model's searchable texts, where no index answers it.
        package func isMatch(of texts: [String]) -> Bool {
            guard !isEmpty else { return false }
            let found = texts.flatMap { SearchText.words(of: $0).map(\.word) }
            return words.allSatisfy { word in found.contains { $0.utf8.elementsEqual(word.utf8) } }
                && prefixes.allSatisfy { prefix in found.contains { $0.utf8.starts(with: prefix.utf8) } }
        }

        private static func quoted(_ word: String) -> String {
            "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// The words Apple's table lists ("In a full-text search, CloudKit ignores the following
    /// words if they appear in the token strings"). A word still being typed is not ignored: it
    /// may be the start of another.
    package static let ignoredWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of", "on", "or",
        "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
    ]
}
