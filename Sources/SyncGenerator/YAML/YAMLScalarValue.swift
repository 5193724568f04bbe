/// What a scalar means, resolved by the YAML 1.2 core schema.
///
/// Deliberately not YAML 1.1: `yes`, `on` and `y` are text, not booleans, and `0777` is decimal.
package enum YAMLScalarValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// An integer literal that does not fit in 64 bits: kept apart so the error can say so.
    case integerOutOfRange
    case string(String)

    package init(resolving scalar: YAMLScalar) {
        guard scalar.style == .plain else {
            self = .string(scalar.text)
            return
        }
        let text = scalar.text
        if let word = Self.word(text) {
            self = word
        } else if !Self.mayBeNumber(text) {
            self = .string(text)
        } else if let integer = Self.integer(text) {
            self = integer
        } else if Self.isFloatLiteral(text), let number = Double(text) {
            self = .double(number)
        } else {
            self = .string(text)
        }
    }

    /// The core schema's null, booleans and special numbers, written as words; nil for any other
    /// text. Its first byte rules out most scalars (a schema's are mostly names) before any
    /// comparison of the words.
    private static func word(_ text: String) -> YAMLScalarValue? {
        guard let first = text.utf8.first else { return .null }
        guard "~nNtTfF.+-".utf8.contains(first) else { return nil }
        switch text {
        case "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: return nil
        }
    }

    /// Whether `text` starts as every number does, with a digit, a sign or a dot. Most scalars of a
    /// schema are names, which this tells apart without a number parse.
    private static func mayBeNumber(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
    }

    /// `[-+]?[0-9]+`, `0x[0-9a-fA-F]+`, `0o[0-7]+`.
    private static func integer(_ text: String) -> YAMLScalarValue? {
        var digits = Substring(text)
        var radix = 10
        var negative = false
        if digits.hasPrefix("0x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0o") {
            radix = 8
            digits = digits.dropFirst(2)
        } else if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        let isDigit: (Character) -> Bool =
            switch radix {
            case 16: { $0.isASCII && $0.isHexDigit }
            case 8: { ("0"..."7").contains($0) }
            default: { ("0"..."9").contains($0) }
            }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        guard let magnitude = UInt64(digits, radix: radix) else { return .integerOutOfRange }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .int(.min) }
            guard magnitude <= UInt64(Int64.max) else { return .integerOutOfRange }
            return .int(-Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .integerOutOfRange }
        return .int(Int64(magnitude))
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloatLiteral(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var mantissaDigits = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if let exponent = bytes.first, exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
