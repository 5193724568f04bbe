import SyncCore
/// Text a diagnostic echoes from a schema (a name, a value, a file name), made safe to print:
/// control characters, line and paragraph separators, and the invisible format characters
/// (zero-width spaces and joiners, the bidirectional embeddings, overrides, isolates and marks
/// that reorder a line) are shown as `\u{…}` escapes, so a NUL cannot cut a log line, a
/// right-to-left override cannot make a diagnostic read as something else, and a name refused
/// for a character nobody can see shows which one.
enum VisibleText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: QuotedText.isInvisible) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if QuotedText.isInvisible(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
