/// Minimal JSON string quoting, so that output keeps a fixed key order and byte-stable formatting
/// (Foundation's encoders promise neither). The language server writes its strings with it too.
package enum JSONText {
    package static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || VisibleText.isInvisible(scalar):
                // Escaped, the text reads back the same, and cannot act on a terminal showing it.
                // Beyond the first plane, JSON escapes a character as its UTF-16 surrogate pair.
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
