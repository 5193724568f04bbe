import Foundation

/// The three-way merge of a text both sides changed (`merge: text`): edits to different parts are
/// all kept; where both changed one part, one side's text of it is kept, the same whichever
/// device merges, and the part is reported for review.
///
/// The texts are compared in tokens (``TextTokens``: a run of letters and digits, a run of
/// spaces, or any other single character), each made of whole characters, so no grapheme
/// cluster (an emoji, a letter and its accents, a `\r\n`) is ever split. Each text is put in
/// Unicode's composed form first, so composed and decomposed spellings of one letter are one.
/// The diff (``TextDiff``) is Myers' in linear space with its work bounded: the cost grows with
/// the text and its edits, never with the text's square, and the memory with the text.
package enum TextMerge {
    /// A part both sides changed, each side's text of it, and the text kept.
    package struct Overlap: Sendable, Hashable {
        package var ancestor: String
        package var local: String
        package var server: String
        package var kept: String

        package init(ancestor: String, local: String, server: String, kept: String) {
            (self.ancestor, self.local, self.server, self.kept) = (ancestor, local, server, kept)
        }
    }

    package struct Merged: Sendable, Hashable {
        package var text: String
        package var overlaps: [Overlap]

        package init(text: String, overlaps: [Overlap]) {
            (self.text, self.overlaps) = (text, overlaps)
        }
    }

    /// Merges `local` and `server`, both changed from `ancestor`. `localIsLater`: whether this
    /// device's edit is the later (by the edits' times); a part both changed keeps the later
    /// edit's text, or, at one time, the text that sorts last, so both devices keep the same;
    /// two insertions at one place (neither removing anything) are both kept, the earlier first.
    /// Without an ancestor (`nil`: two copies made apart) the whole text is the part both changed.
    package static func merge(ancestor: String?, local: String, server: String, localIsLater: Bool?) -> Merged {
        let (base, mine, theirs) = (composed(ancestor ?? ""), composed(local), composed(server))
        if mine == theirs || (ancestor != nil && mine == base) { return Merged(text: theirs, overlaps: []) }
        if ancestor != nil && theirs == base { return Merged(text: mine, overlaps: []) }
        // A token's place is 32 bits: past 2 GB (two thousand records' worth), the whole text too.
        guard ancestor != nil, [base, mine, theirs].allSatisfy({ $0.utf8.count < Int(Int32.max) }) else {
            let kept = String(decoding: keeps(local: Array(mine.utf8), server: Array(theirs.utf8), localIsLater: localIsLater), as: UTF8.self)
            return Merged(text: kept, overlaps: [Overlap(ancestor: base, local: mine, server: theirs, kept: kept)])
        }
        var numbering = TokenNumbering()
        let baseTokens = numbering.tokens(of: base), mineTokens = numbering.tokens(of: mine), theirTokens = numbering.tokens(of: theirs)
        let localEdits = TextDiff.edits(from: baseTokens.ids, to: mineTokens.ids)
        let serverEdits = TextDiff.edits(from: baseTokens.ids, to: theirTokens.ids)
        return combine(base: baseTokens, local: (mineTokens, localEdits), server: (theirTokens, serverEdits), localIsLater: localIsLater)
    }

    /// A text in Unicode's canonical composed form (NFC). A text of scalars below U+0300 alone
    /// (no combining mark, no Hangul jamo: every UTF-8 byte below 0xCC) is composed already.
    static func composed(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0xCC } ? text : text.precomposedStringWithCanonicalMapping
    }

    // MARK: - Combining both sides

    /// Walks the ancestor once, taking each side's edits where only it changed the text and
    /// settling a part both changed (edits that overlap, or insert at one place).
    private static func combine(
        base: TextTokens, local: (tokens: TextTokens, edits: [TextDiff.Edit]), server: (tokens: TextTokens, edits: [TextDiff.Edit]), localIsLater: Bool?
    ) -> Merged {
        var text: [UInt8] = []
        text.reserveCapacity(max(local.tokens.bytes.count, server.tokens.bytes.count))
        var overlaps: [Overlap] = []
        var position = 0
        var (i, j) = (0, 0)
        let (mine, theirs) = (local.edits, server.edits)
        while i < mine.count || j < theirs.count {
            // The next group: edits of both sides that touch one another, by their ancestor ranges.
            var start = Int.max
            if i < mine.count { start = min(start, mine[i].base.lowerBound) }
            if j < theirs.count { start = min(start, theirs[j].base.lowerBound) }
            var end = start
            var (mineGroup, theirGroup) = (i..<i, j..<j)
            var grew = true
            while grew {
                grew = false
                if i < mine.count, touches(mine[i].base, start, end) {
                    end = max(end, mine[i].base.upperBound)
                    i += 1
                    mineGroup = mineGroup.lowerBound..<i
                    grew = true
                }
                if j < theirs.count, touches(theirs[j].base, start, end) {
                    end = max(end, theirs[j].base.upperBound)
                    j += 1
                    theirGroup = theirGroup.lowerBound..<j
                    grew = true
                }
            }
            text += base.bytes(of: position..<start)
            let localPart = side(local.tokens, mine[mineGroup], base: base, from: start, to: end)
            let serverPart = side(server.tokens, theirs[theirGroup], base: base, from: start, to: end)
            if mineGroup.isEmpty {
                text += serverPart
            } else if theirGroup.isEmpty || localPart == serverPart {
                text += localPart
            } else {
                // Both inserted at one place and removed nothing: both insertions are kept.
                let bothInserted = start == end
                let kept = bothInserted ? inOrder(local: localPart, server: serverPart, localIsLater: localIsLater) : keeps(local: localPart, server: serverPart, localIsLater: localIsLater)
                overlaps.append(Overlap(
                    ancestor: base.text(start..<end), local: String(decoding: localPart, as: UTF8.self), server: String(decoding: serverPart, as: UTF8.self),
                    kept: String(decoding: kept, as: UTF8.self)))
                text += kept
            }
            position = end
        }
        text += base.bytes(of: position..<base.count)
        return Merged(text: String(decoding: text, as: UTF8.self), overlaps: overlaps)
    }

    /// Whether an edit of `range` touches the group `start..<end`: overlaps it, or inserts at
    /// one of its ends (an empty group, one insertion: only at its place).
    private static func touches(_ range: Range<Int>, _ start: Int, _ end: Int) -> Bool {
        range.lowerBound < end || range.lowerBound == start || (range.isEmpty && range.lowerBound == end)
    }

    /// A side's text of the ancestor's `start..<end`, its edits there applied, in UTF-8.
    private static func side(_ tokens: TextTokens, _ edits: ArraySlice<TextDiff.Edit>, base: TextTokens, from start: Int, to end: Int) -> [UInt8] {
        var text: [UInt8] = []
        var position = start
        for edit in edits {
            text += base.bytes(of: position..<edit.base.lowerBound)
            text += tokens.bytes(of: edit.side)
            position = edit.base.upperBound
        }
        return text + base.bytes(of: position..<end)
    }

    /// Two insertions at one place, one after the other: the earlier edit's first, or, at one
    /// time (or none known), the one that sorts first: the same on both devices.
    private static func inOrder(local: [UInt8], server: [UInt8], localIsLater: Bool?) -> [UInt8] {
        let localFirst = localIsLater.map { !$0 } ?? local.lexicographicallyPrecedes(server)
        return localFirst ? local + server : server + local
    }

    /// The text a part both sides changed keeps: the later edit's, or, at one time (or none
    /// known), the one that sorts last: the same on both devices.
    private static func keeps(local: [UInt8], server: [UInt8], localIsLater: Bool?) -> [UInt8] {
        if let localIsLater { return localIsLater ? local : server }
        // UTF-8's byte order is its scalars' order.
        return local.lexicographicallyPrecedes(server) ? server : local
    }
}
