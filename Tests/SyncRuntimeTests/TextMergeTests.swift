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
    }

    /// Two insertions at one place, neither removing anything, are both kept, the earlier edit's
    /// first (at one time, the one that sorts first), the same on both devices; the place is
    /// reported for review. Without an ancestor the whole text is the part both changed. Breaking
    /// it (one insertion kept, as for a part both changed): a word someone typed is gone.
    @Test func insertionsAtOnePlaceAreBothKept() {
        let bobLater = TextMerge.merge(ancestor: "a c", local: "a b c", server: "a d c", localIsLater: false)
        #expect(bobLater.text == "a b d c")
        #expect(bobLater.overlaps == [TextMerge.Overlap(ancestor: "", local: "b ", server: "d ", kept: "b d ")])
        #expect(TextMerge.merge(ancestor: "a c", local: "a d c", server: "a b c", localIsLater: true).text == "a b d c", "the same on Bob's device")
        let atOneTime = (TextMerge.merge(ancestor: "", local: "milk", server: "eggs", localIsLater: nil), TextMerge.merge(ancestor: "", local: "eggs", server: "milk", localIsLater: nil))
        #expect(atOneTime.0.text == "eggsmilk" && atOneTime.1.text == "eggsmilk")
        let unknown = TextMerge.merge(ancestor: nil, local: "Buy milk", server: "Buy milk!", localIsLater: true)
        #expect(unknown.text == "Buy milk" && unknown.overlaps.count == 1, "two copies made apart: one text, not both")
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

    /// A large text with edits spread through it keeps every edit, and texts that share little
    /// are one change of the whole. Breaking it (a diff that places only so many edits, as the
    /// first did): the 20,000-word text's edits are one conflict.
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
        let few = Array(words.prefix(2_000))
        let everyOther = few.enumerated().sorted { ($0.offset % 2, $0.offset) < ($1.offset % 2, $1.offset) }.map(\.element)
        let unrelated = TextMerge.merge(ancestor: few.joined(separator: " "), local: few.reversed().joined(separator: " "), server: everyOther.joined(separator: " "), localIsLater: true)
        #expect(unrelated.overlaps.count == 1)
    }
}
