import Foundation

/// The three-way merge of a text both sides changed (`merge: text`): edits to different parts are
/// all kept; where both changed one part, one side's text of it is kept, the same whichever
/// device merges, and the part is reported for review.
///
/// The texts are compared in tokens (a run of letters and digits, a run of spaces, or any other
/// single character), each made of whole characters, so no grapheme cluster (an emoji, a letter
/// and its accents, a `\r\n`) is ever split. Each text is put in Unicode's composed form first,
/// so composed and decomposed spellings of one letter are one. The diff is Myers' O((N+M)·D)
/// over the tokens that differ after the common start and end are set aside, bounded: edits too
/// many to place (texts that share little) are one change of the whole, so the cost grows with
/// the text and its edits, never with the text's square.
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

    /// How many edits a diff places before it calls the whole text one change.
    static let maxEdits = 2_048

    /// Merges `local` and `server`, both changed from `ancestor`. `localIsLater`: whether this
    /// device's edit is the later (by the edits' times); a part both changed keeps the later
    /// edit's text, or, at one time, the text that sorts last, so both devices keep the same.
    package static func merge(ancestor: String, local: String, server: String, localIsLater: Bool?) -> Merged {
        let (base, mine, theirs) = (composed(ancestor), composed(local), composed(server))
        if mine == theirs || mine == base { return Merged(text: theirs, overlaps: []) }
        if theirs == base { return Merged(text: mine, overlaps: []) }
        var ids = TokenIDs()
        let baseTokens = ids.tokens(of: base), mineTokens = ids.tokens(of: mine), theirTokens = ids.tokens(of: theirs)
        let localEdits = edits(from: baseTokens.ids, to: mineTokens.ids)
        let serverEdits = edits(from: baseTokens.ids, to: theirTokens.ids)
        return combine(base: baseTokens, local: (mineTokens, localEdits), server: (theirTokens, serverEdits), localIsLater: localIsLater)
    }

    /// A text in Unicode's canonical composed form (NFC).
    static func composed(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }

    // MARK: - Tokens

    /// A text cut into tokens: each token's number (equal tokens, equal numbers) and its text.
    struct Tokens {
        var ids: [Int] = []
        var texts: [Substring] = []

        func text(_ range: Range<Int>) -> String {
            texts[range].joined()
        }
    }

    /// Numbers tokens, so the diff compares integers.
    struct TokenIDs {
        private var numbers: [Substring: Int] = [:]

        mutating func tokens(of text: String) -> Tokens {
            var tokens = Tokens()
            var start = text.startIndex
            var kind: Kind?
            for index in text.indices {
                let next = Kind(text[index])
                if let current = kind, current == next, current != .other { continue }
                if kind != nil { append(text[start..<index], to: &tokens) }
                start = index
                kind = next
            }
            if kind != nil { append(text[start...], to: &tokens) }
            return tokens
        }

        private mutating func append(_ token: Substring, to tokens: inout Tokens) {
            let number = numbers[token] ?? numbers.count
            numbers[token] = number
            tokens.ids.append(number)
            tokens.texts.append(token)
        }

        private enum Kind: Equatable {
            case word, space, other

            init(_ character: Character) {
                if character.isLetter || character.isNumber { self = .word }
                else if character.isWhitespace && !character.isNewline { self = .space }
                else { self = .other }
            }
        }
    }

    // MARK: - Diff

    /// One side's edit: the ancestor's tokens `base` replaced by the side's tokens `side`.
    struct Edit: Equatable {
        var base: Range<Int>
        var side: Range<Int>
    }

    /// The edits that turn `a` into `b`, in order: Myers' greedy diff over what lies between the
    /// common start and end, at most `maxEdits` of them (more: one edit of everything between).
    static func edits(from a: [Int], to b: [Int]) -> [Edit] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let x = Array(a[prefix..<(a.count - suffix)]), y = Array(b[prefix..<(b.count - suffix)])
        let whole = [Edit(base: prefix..<(a.count - suffix), side: prefix..<(b.count - suffix))]
        guard !x.isEmpty || !y.isEmpty else { return [] }
        guard !x.isEmpty, !y.isEmpty, let script = myers(x, y) else { return whole }
        return script.map { Edit(base: ($0.base.lowerBound + prefix)..<($0.base.upperBound + prefix), side: ($0.side.lowerBound + prefix)..<($0.side.upperBound + prefix)) }
    }

    /// Myers' O((N+M)·D) diff, as runs of replaced tokens; nil past `maxEdits`.
    private static func myers(_ a: [Int], _ b: [Int]) -> [Edit]? {
        let (n, m) = (a.count, b.count)
        let offset = n + m
        var v = [Int](repeating: 0, count: 2 * offset + 2)
        // Each depth keeps the diagonals it can reach alone (k in -d...d): D² in all, not D·(N+M).
        var trace: [[Int]] = []
        for d in 0...min(offset, maxEdits) {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m { return backtrack(trace, n: n, m: m, d: d) }
            }
        }
        return nil
    }

    /// The edits a Myers search found, walked back from its end and joined into runs.
    private static func backtrack(_ trace: [[Int]], n: Int, m: Int, d: Int) -> [Edit] {
        var (x, y) = (n, m)
        var steps: [(x: Int, y: Int, isInsertion: Bool)] = []
        for depth in stride(from: d, to: 0, by: -1) {
            // The diagonals as they stood before this depth, k at k + depth.
            let v = trace[depth]
            let k = x - y
            let previous = k == -depth || (k != depth && v[k - 1 + depth] < v[k + 1 + depth]) ? k + 1 : k - 1
            let previousX = v[previous + depth]
            let previousY = previousX - previous
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
            }
            steps.append((previousX, previousY, previous == k + 1))
            (x, y) = (previousX, previousY)
        }
        var edits: [Edit] = []
        for step in steps.reversed() {
            let edit = step.isInsertion ? Edit(base: step.x..<step.x, side: step.y..<(step.y + 1)) : Edit(base: step.x..<(step.x + 1), side: step.y..<step.y)
            if let last = edits.last, last.base.upperBound == edit.base.lowerBound, last.side.upperBound == edit.side.lowerBound {
                edits[edits.count - 1] = Edit(base: last.base.lowerBound..<edit.base.upperBound, side: last.side.lowerBound..<edit.side.upperBound)
            } else {
                edits.append(edit)
            }
        }
        return edits
    }

    // MARK: - Combining both sides

    /// Walks the ancestor once, taking each side's edits where only it changed the text and
    /// settling a part both changed (edits that overlap, or insert at one place).
    private static func combine(
        base: Tokens, local: (tokens: Tokens, edits: [Edit]), server: (tokens: Tokens, edits: [Edit]), localIsLater: Bool?
    ) -> Merged {
        var text = ""
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
            text += base.text(position..<start)
            let localPart = side(local.tokens, mine[mineGroup], base: base, from: start, to: end)
            let serverPart = side(server.tokens, theirs[theirGroup], base: base, from: start, to: end)
            if mineGroup.isEmpty {
                text += serverPart
            } else if theirGroup.isEmpty || localPart == serverPart {
                text += localPart
            } else {
                let kept = keeps(local: localPart, server: serverPart, localIsLater: localIsLater)
                overlaps.append(Overlap(ancestor: base.text(start..<end), local: localPart, server: serverPart, kept: kept))
                text += kept
            }
            position = end
        }
        text += base.text(position..<base.ids.count)
        return Merged(text: text, overlaps: overlaps)
    }

    /// Whether an edit of `range` touches the group `start..<end`: overlaps it, or inserts at
    /// one of its ends (an empty group, one insertion: only at its place).
    private static func touches(_ range: Range<Int>, _ start: Int, _ end: Int) -> Bool {
        range.lowerBound < end || range.lowerBound == start || (range.isEmpty && range.lowerBound == end)
    }

    /// A side's text of the ancestor's `start..<end`, its edits there applied.
    private static func side(_ tokens: Tokens, _ edits: ArraySlice<Edit>, base: Tokens, from start: Int, to end: Int) -> String {
        var text = ""
        var position = start
        for edit in edits {
            text += base.text(position..<edit.base.lowerBound)
            text += tokens.text(edit.side)
            position = edit.base.upperBound
        }
        return text + base.text(position..<end)
    }

    /// The text a part both sides changed keeps: the later edit's, or, at one time (or none
    /// known), the one that sorts last: the same on both devices.
    private static func keeps(local: String, server: String, localIsLater: Bool?) -> String {
        if let localIsLater { return localIsLater ? local : server }
        return local.unicodeScalars.lexicographicallyPrecedes(server.unicodeScalars) ? server : local
    }
}
