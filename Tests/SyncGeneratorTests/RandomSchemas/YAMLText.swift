/// How the random schemas write names and text in YAML so that they read back as written.
enum YAMLText {
    /// Plain scalars YAML 1.2's core schema reads as something other than text.
    private static let nonText: Set<String> = ["null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE"]

    /// A name as a mapping key or list item: plain when it reads back as the same text, else
    /// double-quoted.
    static func key(_ name: String) -> String {
        isPlainSafe(name) ? name : quoted(name)
    }

    static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !nonText.contains(text) else { return false }
        guard first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" }
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .format || $0.properties.generalCategory == .nonspacingMark }
    }

    /// A double-quoted scalar: quotes, backslashes, controls and invisible or reordering
    /// characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.generalCategory == .format
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
