import Testing
@testable import SyncCore

/// `TextDiff`: the edits between two token lists, in linear space, its work bounded.
@Suite("Merge: the text diff")
struct TextDiffTests {
    /// On lists from a small alphabet (many short matches, the hard case), the edits turn the
    /// first list into the second, and are as few as can be (the longest common subsequence's
    /// complement, by dynamic programming). Breaking it (a wrong middle snake, a split off by
    /// one): lists that do not rebuild, or more edits than the least.
    @Test func theEditsRebuildTheSecondListWithTheLeastChange() {
        var random = SeededRandom(seed: 61)
        for _ in 0..<300 {
            let a = (0..<Int.random(in: 0...40, using: &random)).map { _ in Int32.random(in: 0..<4, using: &random) }
            let b = (0..<Int.random(in: 0...40, using: &random)).map { _ in Int32.random(in: 0..<4, using: &random) }
            let edits = TextDiff.edits(from: a, to: b)
            var rebuilt: [Int32] = []
            var position = 0
            for edit in edits {
                #expect(edit.base.lowerBound >= position, "edits in order, apart")
                rebuilt += a[position..<edit.base.lowerBound] + b[edit.side]
                position = edit.base.upperBound
            }
            rebuilt += a[position...]
            #expect(rebuilt == b)
            let changed = edits.reduce(0) { $0 + $1.base.count + $1.side.count }
            #expect(changed == a.count + b.count - 2 * Self.longestCommonSubsequence(a, b))
        }
    }

    /// Lists that share little are one edit of the whole, once the work allowed runs out.
    /// Breaking it (no bound on the work: neither its check nor the depth it allows): the
    /// reversed list's real diff, two edits, found in the square of the lists' time.
    @Test func listsThatShareLittleAreOneEditOfTheWhole() {
        let a = (0..<4_000).map { Int32($0) }
        let edits = TextDiff.edits(from: a, to: a.reversed())
        #expect(edits == [TextDiff.Edit(base: 0..<4_000, side: 0..<4_000)])
    }

    /// More edits than the first diff's bound of 2,048 (1,100 tokens replaced: 2,200 edits)
    /// are all found. Breaking it (a bound on the edits again): one edit of the whole.
    @Test func manyEditsSpreadThroughALongListAreEachFound() {
        let a = (0..<22_000).map { Int32($0) }
        var b = a
        for index in stride(from: 7, to: 22_000, by: 20) { b[index] = -1 }
        let edits = TextDiff.edits(from: a, to: b)
        #expect(edits.count == 1_100)
        #expect(edits.allSatisfy { $0.base.count == 1 && $0.side.count == 1 })
    }

    private static func longestCommonSubsequence(_ a: [Int32], _ b: [Int32]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var diagonal = 0
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = x == y ? diagonal + 1 : max(row[j + 1], row[j])
                diagonal = above
            }
        }
        return row[b.count]
    }
}
