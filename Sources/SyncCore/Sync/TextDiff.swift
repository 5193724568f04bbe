/// The edits that turn one list of token numbers into another (`TextMerge`'s diff): Myers'
/// O((N+M)·D) diff in linear space (the middle snake, then each half), so a 1 MB text costs
/// memory in proportion to itself, never to its square or its edits'.
///
/// Its work is bounded too: a diff may take `workPerToken` steps for each token of the two
/// lists (a step: a diagonal tried, or a token matched). A part whose search would go past
/// what is left is one edit of the whole part. Edits spread through a text cost about the text
/// and the square of the edits near one another, well within; texts that share little are one
/// change of the whole, in time that grows with the texts, not their square.
struct TextDiff {
    /// One edit: the tokens `base` of the first list replaced by the tokens `side` of the other.
    struct Edit: Equatable {
        var base: Range<Int>
        var side: Range<Int>
    }

    static let workPerToken = 256
    /// The work any diff may take, however short its lists.
    static let leastWork = 1 << 20

    private let a: [Int32]
    private let b: [Int32]
    private var work: Int
    /// The deepest search the work allows (a search to depth d costs at least d² steps), which
    /// sizes the two arrays of furthest reaches.
    private let deepest: Int
    private var forward: [Int]
    private var backward: [Int]
    private var edits: [Edit] = []

    /// The edits from `a` to `b`, in order, each a run of tokens replaced.
    static func edits(from a: [Int32], to b: [Int32]) -> [Edit] {
        var diff = TextDiff(a, b)
        diff.compare(0..<a.count, 0..<b.count)
        return diff.edits
    }

    private init(_ a: [Int32], _ b: [Int32]) {
        self.a = a
        self.b = b
        work = max(Self.leastWork, Self.workPerToken * (a.count + b.count))
        deepest = min((a.count + b.count + 1) / 2, Int(Double(work).squareRoot()) + 1)
        forward = [Int](repeating: -1, count: 2 * deepest + 3)
        backward = forward
    }

    /// Diffs `a[x]` against `b[y]`: their common start and end set aside, then split at the
    /// middle snake and each half diffed, or, past the work allowed, one edit of the whole.
    private mutating func compare(_ x: Range<Int>, _ y: Range<Int>) {
        var (x, y) = (x, y)
        while !x.isEmpty && !y.isEmpty && a[x.lowerBound] == b[y.lowerBound] {
            x = (x.lowerBound + 1)..<x.upperBound
            y = (y.lowerBound + 1)..<y.upperBound
        }
        while !x.isEmpty && !y.isEmpty && a[x.upperBound - 1] == b[y.upperBound - 1] {
            x = x.lowerBound..<(x.upperBound - 1)
            y = y.lowerBound..<(y.upperBound - 1)
        }
        guard !x.isEmpty || !y.isEmpty else { return }
        guard !x.isEmpty, !y.isEmpty, let (splitX, splitY) = middleSnake(x, y) else {
            add(Edit(base: x, side: y))
            return
        }
        compare(x.lowerBound..<splitX, y.lowerBound..<splitY)
        compare(splitX..<x.upperBound, splitY..<y.upperBound)
    }

    /// Where an edit script of least length from `a[x]` to `b[y]` crosses its middle: the paths
    /// searched from both ends, one step deeper each turn, until they meet. Nil when the work
    /// left runs out first. (The search of "An O(ND) Difference Algorithm", Myers 1986, §4b.)
    private mutating func middleSnake(_ x: Range<Int>, _ y: Range<Int>) -> (Int, Int)? {
        let (n, m) = (x.count, y.count)
        let (x0, y0) = (x.lowerBound, y.lowerBound)
        let maxDepth = min((n + m + 1) / 2, deepest)
        let offset = deepest + 1
        let delta = n - m
        let checksForward = delta % 2 != 0
        // The diagonals this search may reach, cleared of an earlier search's reaches.
        let reached = (offset - maxDepth - 1)...(offset + maxDepth + 1)
        for k in reached {
            forward[k] = -1
            backward[k] = -1
        }
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        // Diagonals that ran off an edge are not tried again.
        var (forwardStart, forwardEnd, backwardStart, backwardEnd) = (0, 0, 0, 0)
        for depth in 0..<maxDepth {
            for k in stride(from: -depth + forwardStart, through: depth - forwardEnd, by: 2) {
                let index = offset + k
                var px = k == -depth || (k != depth && forward[index - 1] < forward[index + 1]) ? forward[index + 1] : forward[index - 1] + 1
                var py = px - k
                let from = px
                while px < n && py < m && a[x0 + px] == b[y0 + py] {
                    px += 1
                    py += 1
                }
                work -= 1 + px - from
                forward[index] = px
                if px > n {
                    forwardEnd += 2
                } else if py > m {
                    forwardStart += 2
                } else if checksForward {
                    let other = offset + delta - k
                    if reached.contains(other) && backward[other] != -1 && px >= n - backward[other] {
                        return (x0 + px, y0 + py)
                    }
                }
            }
            for k in stride(from: -depth + backwardStart, through: depth - backwardEnd, by: 2) {
                let index = offset + k
                var px = k == -depth || (k != depth && backward[index - 1] < backward[index + 1]) ? backward[index + 1] : backward[index - 1] + 1
                var py = px - k
                let from = px
                while px < n && py < m && a[x0 + n - px - 1] == b[y0 + m - py - 1] {
                    px += 1
                    py += 1
                }
                work -= 1 + px - from
                backward[index] = px
                if px > n {
                    backwardEnd += 2
                } else if py > m {
                    backwardStart += 2
                } else if !checksForward {
                    let other = offset + delta - k
                    if reached.contains(other) && forward[other] != -1 {
                        let fx = forward[other]
                        if fx >= n - px { return (x0 + fx, y0 + fx - (delta - k)) }
                    }
                }
            }
            if work <= 0 { return nil }
        }
        return nil
    }

    /// Adds an edit, joined to the last when they meet.
    private mutating func add(_ edit: Edit) {
        if let last = edits.last, last.base.upperBound == edit.base.lowerBound, last.side.upperBound == edit.side.lowerBound {
            edits[edits.count - 1] = Edit(base: last.base.lowerBound..<edit.base.upperBound, side: last.side.lowerBound..<edit.side.upperBound)
        } else {
            edits.append(edit)
        }
    }
}
