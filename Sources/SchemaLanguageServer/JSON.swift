import SyncCore
import Foundation
import SyncGenerator

/// A JSON value as the protocol carries it, read and printed here (Foundation's serializer differs
/// between platforms in how it hands booleans over); printed with sorted keys, so what the server
/// writes is the same every run.
enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The value of `bytes`, or nil when they are not one JSON value (RFC 8259).
    init?(parsing bytes: Data) {
        var reader = JSONReader(bytes: Array(bytes))
        guard let value = reader.document() else { return nil }
        self = value
    }

    /// Compact JSON text, keys sorted.
    var text: String {
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
        case .string(let text): out += QuotedText.json(text)
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
                out += QuotedText.json(key)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    // MARK: - Reading

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var int: Int? {
        if case .number(let number) = self, number.rounded() == number, abs(number) < 1e15 { return Int(number) }
        return nil
    }

    var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    var array: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
