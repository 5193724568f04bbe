/// Text a diagnostic echoes from a schema (a name, a value, a file name), made safe to print:
/// control characters and the Unicode controls that reorder a line (bidirectional embeddings,
/// overrides, isolates and marks) are shown as `\u{…}` escapes, so a NUL cannot cut a log line
/// and a right-to-left override cannot make a diagnostic read as something else.
enum VisibleText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
