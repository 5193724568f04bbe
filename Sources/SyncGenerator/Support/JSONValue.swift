import SyncCore
/// A JSON document built in code and printed with a fixed key order and indentation, so exported
/// files are byte-stable (Foundation's serializers promise neither).
indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringInterpolation, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case string(String)
    case int(Int64)
    case bool(Bool)
    case array([JSONValue])
    /// Keys in the order they are printed.
    case object([(String, JSONValue)])

    init(stringLiteral value: String) { self = .string(value) }
    init(stringInterpolation: DefaultStringInterpolation) { self = .string(String(stringInterpolation: stringInterpolation)) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int64) { self = .int(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.printed() == rhs.printed() }

    /// Two-space indentation; empty arrays and objects and arrays of scalars on one line.
    func printed(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .string(let text): return QuotedText.json(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy(\.isScalar) { return "[" + items.map { $0.printed() }.joined(separator: ", ") + "]" }
            return "[\n" + items.map { inner + $0.printed(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let lines = members.map { inner + QuotedText.json($0.0) + ": " + $0.1.printed(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
