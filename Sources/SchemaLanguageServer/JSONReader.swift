import Foundation

/// A strict JSON reader (RFC 8259): one value, nothing but whitespace around it, nesting bounded.
struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Deeper documents are refused rather than read by deeper recursion.
    private static let maxDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() -> JSON? {
        guard let value = value() else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    private mutating func value() -> JSON? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSON.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object() -> JSON? {
        guard enter() else { return nil }
        defer { depth -= 1 }
        index += 1
        var members: [String: JSON] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")), let value = value() else { return nil }
            members[key] = value
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}")) ? .object(members) : nil
        }
    }

    private mutating func array() -> JSON? {
        guard enter() else { return nil }
        defer { depth -= 1 }
        index += 1
        var items: [JSON] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(items) }
        while true {
            guard let item = value() else { return nil }
            items.append(item)
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]")) ? .array(items) : nil
        }
    }

    private mutating func enter() -> Bool {
        depth += 1
        return depth <= Self.maxDepth
    }

    private mutating func string() -> String? {
        index += 1  // the opening quote
        var run = index  // start of bytes copied as they are
        var text = ""
        func flush(_ end: Int) -> Bool {
            guard let chunk = String(bytes: bytes[run..<end], encoding: .utf8) else { return false }
            text += chunk
            return true
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard flush(index) else { return nil }
                index += 1
                return text
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                guard flush(index) else { return nil }
                index += 1
                guard index < bytes.count, let scalar = escape() else { return nil }
                text.unicodeScalars.append(scalar)
                run = index
                continue
            }
            index += 1
        }
        return nil
    }

    /// The scalar an escape after `\` stands for; `index` is past it after.
    private mutating func escape() -> Unicode.Scalar? {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(unit)
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value * 16 + UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func number() -> JSON? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard digits() else { return nil }
        if take(UInt8(ascii: ".")) { guard digits() else { return nil } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        guard let text = String(bytes: bytes[start..<index], encoding: .utf8), let number = Double(text) else { return nil }
        return .number(number)
    }

    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: String, _ value: JSON) -> JSON? {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return nil }
        index += expected.count
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }
}
