import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore

/// `TextMerge`: the three-way merge of a text both sides changed.
@Suite("Merge: texts")
struct TextMergeTests {
    static let note = "Buy milk at the shop. Call the plumber about the sink. Water the plants on Sunday."

    /// Two typo fixes in different sentences are both kept, whichever device merges. Breaking it
    /// (one side's whole text kept): one fix is gone.
    @Test func editsOfDifferentPartsAreAllKept() {
        let alice = Self.note.replacingOccurrences(of: "shop", with: "market")
        let bob = Self.note.replacingOccurrences(of: "Sunday", with: "Saturday")
        let expected = "Buy milk at the market. Call the plumber about the sink. Water the plants on Saturday."
        #expect(TextMerge.merge(ancestor: Self.note, local: alice, server: bob, localIsLater: true) == TextMerge.Merged(text: expected, overlaps: []))
        #expect(TextMerge.merge(ancestor: Self.note, local: bob, server: alice, localIsLater: false).text == expected)
        let inserted = TextMerge.merge(ancestor: "one two three", local: "zero one two three", server: "one two three four", localIsLater: nil)
        #expect(inserted.text == "zero one two three four")
    }

    /// Both sides changed one word: one text is kept, the later edit's (or, at one time, the same
    /// on both devices), and the part is reported with both sides' text of it.
    @Test func aPartBothChangedKeepsOneTextAndReportsIt() {
        let alice = Self.note.replacingOccurrences(of: "plumber", with: "electrician")
        let bob = Self.note.replacingOccurrences(of: "plumber", with: "landlord")
        let later = TextMerge.merge(ancestor: Self.note, local: alice, server: bob, localIsLater: true)
        #expect(later.text == alice)
        #expect(later.overlaps == [TextMerge.Overlap(ancestor: "plumber", local: "electrician", server: "landlord", kept: "electrician")])
        let onAlices = TextMerge.merge(ancestor: Self.note, local: alice, server: bob, localIsLater: nil)
        let onBobs = TextMerge.merge(ancestor: Self.note, local: bob, server: alice, localIsLater: nil)
        #expect(onAlices.text == onBobs.text, "the same text whichever device merges")
        let bothInsertHere = TextMerge.merge(ancestor: "a c", local: "a b c", server: "a d c", localIsLater: false)
        #expect(bothInsertHere.text == "a d c" && bothInsertHere.overlaps.count == 1)
    }

    /// Emoji, accents and CJK are never split, composed and decomposed letters are one, and line
    /// endings stay as they were.
    @Test func graphemesFormsAndLineEndingsSurvive() {
        let ancestor = "👩‍👩‍👧 café\r\n東京 🇯🇵"
        let local = "👩‍👩‍👧‍👦 café\r\n東京 🇯🇵"
        let server = "👩‍👩‍👧 cafe\u{301}\r\n東京都 🇯🇵"
        let merged = TextMerge.merge(ancestor: ancestor, local: local, server: server, localIsLater: true)
        #expect(merged.text == "👩‍👩‍👧‍👦 café\r\n東京都 🇯🇵")
        #expect(merged.overlaps.isEmpty, "the decomposed é is the composed one: not a change")
        #expect(merged.text.contains("\r\n"))
    }

    /// A large text with edits spread through it merges in time that grows with the text, and
    /// texts that share little are one change of the whole. Breaking it (no bound on the edits):
    /// two unrelated 20,000-word texts take the diff's square.
    @Test func editsSpreadThroughALargeTextAreAllKept() {
        let words = (0..<20_000).map { "w\($0)" }
        let ancestor = words.joined(separator: " ")
        var local = words, server = words
        for index in stride(from: 100, to: 20_000, by: 1_000) { local[index] = "L\(index)" }
        for index in stride(from: 600, to: 20_000, by: 1_000) { server[index] = "S\(index)" }
        var expected = words
        for index in stride(from: 100, to: 20_000, by: 1_000) { expected[index] = "L\(index)" }
        for index in stride(from: 600, to: 20_000, by: 1_000) { expected[index] = "S\(index)" }
        let merged = TextMerge.merge(ancestor: ancestor, local: local.joined(separator: " "), server: server.joined(separator: " "), localIsLater: true)
        #expect(merged.text == expected.joined(separator: " ") && merged.overlaps.isEmpty)
        let unrelated = TextMerge.merge(ancestor: ancestor, local: words.reversed().joined(separator: " "), server: words.shuffled().joined(separator: " "), localIsLater: true)
        #expect(unrelated.overlaps.count == 1)
    }
}
