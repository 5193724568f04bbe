import Foundation

/// A JSON value as the protocol carries it, read and printed here (Foundation's serializer differs
/// between platforms in how it hands booleans over); printed with sorted keys, so what the server
/// writes is the same every run.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The value of `bytes`, or nil when they are not one JSON value (RFC 8259).
    public init?(parsing bytes: Data) {
        var reader = JSONReader(bytes: Array(bytes))
        guard let value = reader.document() else { return nil }
        self = value
    }

    /// Compact JSON text, keys sorted.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                out += String(Int64(number))
            } else {
                out += "\(number)"
            }
        case .string(let text): Self.quote(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    private static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    // MARK: - Reading

    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var int: Int? {
        if case .number(let number) = self, number.rounded() == number, abs(number) < 1e15 { return Int(number) }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
