import Foundation
import SyncCore
import Testing

/// The one writer of quoted text, in both its syntaxes: what each writes out, and that JSON
/// reads back as the text it was given.
@Suite("Quoted text: JSON and Swift literals")
struct QuotedTextTests {
    @Test func eachSyntaxEscapesWhatItMust() {
        #expect(QuotedText.json("plain") == "\"plain\"")
        #expect(QuotedText.json("a\"b\\c\nd\te\u{1}") == #""a\"b\\c\nd\te\u0001""#)
        // A bidirectional override and a character beyond the first plane that would not show.
        #expect(QuotedText.json("x\u{202E}y\u{E0001}") == #""x\u202ey\udb40\udc01""#)
        #expect(QuotedText.json("café 🎉") == "\"café 🎉\"")
        #expect(QuotedText.swift("a\"b\\c\nd\0e\u{7F}") == #""a\"b\\c\nd\0e\u{7f}""#)
        #expect(QuotedText.swift("x\u{202E}y") == "\"x\u{202E}y\"")
        #expect(QuotedText.jsonArray(["a", "b\"", ""]) == #"["a","b\"",""]"#)
    }

    /// Breaking it: drop the surrogate pair for characters beyond the first plane, and the
    /// decoder refuses the text or reads another.
    @Test(arguments: ["", "plain", "tab\there", "nul\u{0}", "\u{202E}evil", "emoji 🎉", "\u{E0001}tag", "\"quoted\\\""])
    func jsonReadsBackAsTheText(_ text: String) throws {
        let decoded = try JSONDecoder().decode([String].self, from: Data(QuotedText.jsonArray([text, text]).utf8))
        #expect(decoded == [text, text])
    }
}
