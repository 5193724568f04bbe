/// A text cut into the tokens `TextMerge` compares: a run of letters and digits, a run of spaces
/// and tabs, or any other single character. A token is made of whole characters, so no grapheme
/// cluster (an emoji, a letter and its accents, a `\r\n`) is ever split.
///
/// The text is kept as its UTF-8 bytes and each token as where it starts, so a 1 MB text costs
/// its bytes and a few bytes a token. Equal tokens have equal numbers (`TokenNumbering`), so the
/// diff compares integers. Texts come here in composed form (NFC), where two spellings of one
/// text have the same bytes.
struct TextTokens {
    /// The text's UTF-8 bytes.
    let bytes: [UInt8]
    /// Each token's number.
    private(set) var ids: [Int32] = []
    /// Where each token starts in `bytes`, and, last, the end of the text: token `i` is
    /// `starts[i]..<starts[i + 1]`.
    private(set) var starts: [Int32] = [0]

    var count: Int { ids.count }

    /// The bytes of the tokens in `range`.
    func bytes(of range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[Int(starts[range.lowerBound])..<Int(starts[range.upperBound])]
    }

    /// The text of the tokens in `range`.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes(of: range), as: UTF8.self)
    }

    fileprivate init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    fileprivate mutating func append(_ id: Int32, endingAt end: Int) {
        ids.append(id)
        starts.append(Int32(end))
    }
}

/// Numbers the tokens of the texts of one merge: the same token in any of them, the same number.
/// An open-addressing table over the tokens' bytes (a Swift dictionary of substrings hashes each
/// by its characters, several times slower).
struct TokenNumbering {
    /// The bytes of each numbered token, one after another, and where each starts.
    private var known: [UInt8] = []
    private var knownStarts: [Int32] = [0]
    /// Each slot: 0 (empty) or a token's number plus one.
    private var slots = [Int32](repeating: 0, count: 1_024)
    private var hashes: [UInt64] = []

    /// The tokens of `text` (at most `Int32.max` bytes), numbered.
    mutating func tokens(of text: String) -> TextTokens {
        var tokens = TextTokens(bytes: Array(text.utf8))
        let bytes = tokens.bytes
        var start = 0, offset = 0
        var kind: Kind?
        while offset < bytes.count {
            let (end, next) = Self.character(at: offset, in: bytes, of: text)
            if let current = kind, current == next, current != .other {
                offset = end
                continue
            }
            if kind != nil { tokens.append(number(bytes[start..<offset]), endingAt: offset) }
            (start, kind, offset) = (offset, next, end)
        }
        if kind != nil { tokens.append(number(bytes[start..<offset]), endingAt: offset) }
        return tokens
    }

    /// The end of the character that starts at `offset`, and its kind. Between two ASCII
    /// scalars there is always a character boundary but inside `\r\n`; anything else asks the
    /// string for its character.
    private static func character(at offset: Int, in bytes: [UInt8], of text: String) -> (end: Int, kind: Kind) {
        let byte = bytes[offset]
        let following: UInt8 = offset + 1 < bytes.count ? bytes[offset + 1] : 0
        if byte < 0x80 && following < 0x80 {
            if byte == 0x0D && following == 0x0A { return (offset + 2, .other) }
            return (offset + 1, Kind(ascii: byte))
        }
        let character = text[text.utf8.index(text.utf8.startIndex, offsetBy: offset)]
        return (offset + character.utf8.count, Kind(character))
    }

    private mutating func number(_ token: ArraySlice<UInt8>) -> Int32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in token { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash, known[Int(knownStarts[id])..<Int(knownStarts[id + 1])] == token { return Int32(id) }
            slot = (slot + 1) & mask
        }
        let id = Int32(hashes.count)
        hashes.append(hash)
        known.append(contentsOf: token)
        knownStarts.append(Int32(known.count))
        slots[slot] = id + 1
        if hashes.count * 2 > slots.count { grow() }
        return id
    }

    /// Twice the slots, every token placed again: the table stays at most half full.
    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id + 1)
        }
    }

    private enum Kind: Equatable {
        case word, space, other

        init(_ character: Character) {
            if character.isLetter || character.isNumber { self = .word }
            else if character.isWhitespace && !character.isNewline { self = .space }
            else { self = .other }
        }

        /// As `init(_:)` says for an ASCII character.
        init(ascii byte: UInt8) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): self = .word
            case UInt8(ascii: " "), UInt8(ascii: "\t"): self = .space
            default: self = .other
            }
        }
    }
}
