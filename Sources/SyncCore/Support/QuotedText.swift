/// Text as a quoted literal: one writer for every place the project quotes a string, in JSON (the
/// generator's JSON output, the language server's messages, the store's `json_each` arguments)
/// or in Swift (the generator's string literals). Both escape the quote, the backslash and the
/// line breaks the same way; they differ in how another character is written out (`\u0001`,
/// `\u{1}`), and JSON also writes out every character that would not show (a bidirectional
/// override in a diagnostic's name cannot act on the terminal that shows it).
package enum QuotedText {
    package enum Syntax: Sendable {
        case json, swift
    }

    /// `text` as a JSON string.
    package static func json(_ text: String) -> String {
        var quoted = ""
        append(text, as: .json, to: &quoted)
        return quoted
    }

    /// `text` as a Swift string literal.
    package static func swift(_ text: String) -> String {
        var quoted = ""
        append(text, as: .swift, to: &quoted)
        return quoted
    }

    /// Strings as one JSON array (`["a","b"]`).
    package static func jsonArray(_ texts: [String]) -> String {
        var json = "["
        for (index, text) in texts.enumerated() {
            if index > 0 { json += "," }
            append(text, as: .json, to: &json)
        }
        return json + "]"
    }

    /// Appends `text`, quoted, to `output`: text with nothing to escape (most record names) is
    /// appended whole.
    package static func append(_ text: String, as syntax: Syntax, to output: inout String) {
        output += "\""
        defer { output += "\"" }
        let mayHoldInvisible = syntax == .json
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || (mayHoldInvisible && $0 >= 0x80) })
        else {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\0" where syntax == .swift: output += "\\0"
            case _ where syntax == .swift && (scalar.value < 0x20 || scalar.value == 0x7F):
                output += "\\u{\(String(scalar.value, radix: 16))}"
            case _ where syntax == .json && (scalar.value < 0x20 || isInvisible(scalar)):
                // Beyond the first plane, JSON writes a character as its UTF-16 surrogate pair.
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default:
                output.unicodeScalars.append(scalar)
            }
        }
    }

    /// Whether a character would not show: a control, a format character (a bidirectional
    /// override, a zero-width joiner) or a line or paragraph separator.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
