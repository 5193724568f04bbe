import Foundation
import SyncCore

/// How schema names, types and literals are spelt in generated Swift. Every standard type is
/// qualified (`Swift.String`, `Foundation.Date`, `SyncCore.RecordReference`), so a model named
/// `Data` or `Task` cannot capture a name the generated code means from a library.
enum SwiftSpelling {
    /// A name as a Swift identifier: keywords in backticks.
    static func identifier(_ name: String) -> String {
        SwiftNaming.keywords.contains(name) ? "`\(name)`" : name
    }

    /// A name as an argument label at a call site: every keyword but `inout` is a label as it
    /// stands there, and Swift warns of backticks it does not need.
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// The Swift type of a field, optionality included. An asset is always optional: nil means no
    /// file is attached.
    static func type(of field: Field) -> String {
        let base = type(of: field.type, enumeration: field.enumeration)
        return field.isOptionalInSwift ? base + "?" : base
    }

    /// A type's Swift spelling; an enum's is the type generated for its field (`enumeration`),
    /// a member of the model.
    static func type(of type: FieldType, enumeration: FieldEnumeration?) -> String {
        switch type {
        case .scalar(let scalar):
            guard let spelling = scalar.facts.swiftType ?? enumeration?.typeName else { preconditionFailure("an enum field without its cases") }
            return spelling
        case .reference(let target, _): return "SyncCore.RecordReference<\(target)>"
        case .list(let element): return "[\(self.type(of: element, enumeration: enumeration))]"
        }
    }

    /// The value a field starts with when the caller gives none; nil when the caller must give one
    /// (a required reference has no sensible zero value).
    static func initialValue(of field: Field) -> String? {
        if let value = field.defaultValue { return literal(value) }
        if field.isOptionalInSwift { return "nil" }
        return zeroValue(of: field.type, enumeration: field.enumeration)
    }

    /// The value a field holds in a record decoded from nothing (`init(emptyRecordNamed:)`).
    static func emptyValue(of field: Field) -> String {
        if let value = initialValue(of: field) { return value }
        switch field.type {
        case .scalar(let scalar): return scalar.facts.unsetValue ?? "nil"
        case .reference: return "SyncCore.RecordReference.unset"
        case .list: return "[]"
        }
    }

    /// A type's zero value; an enum's is its first case.
    private static func zeroValue(of type: FieldType, enumeration: FieldEnumeration?) -> String? {
        switch type {
        case .scalar(let scalar): scalar.facts.zeroValue ?? enumeration?.cases.first.map(enumCase)
        case .reference: nil
        case .list: "[]"
        }
    }

    static func literal(_ value: FieldDefault) -> String {
        switch value {
        case .string(let text): QuotedText.swift(text)
        case .int(let number): String(number)
        case .double(let number): doubleLiteral(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let seconds): "Foundation.Date(timeIntervalSince1970: \(doubleLiteral(seconds)))"
        case .now: "Foundation.Date()"
        case .enumCase(let name): enumCase(name)
        case .list(let items): "[" + items.map(literal).joined(separator: ", ") + "]"
        }
    }

    /// An enum case as an implicit member (`.todo`; a keyword in backticks): where it stands, the
    /// field's type is known.
    static func enumCase(_ name: String) -> String {
        "." + identifier(name)
    }

    /// A literal that reads back as exactly `number`. A subnormal one is spelled by its bits: as
    /// a decimal literal the compiler warns that it underflows.
    private static func doubleLiteral(_ number: Double) -> String {
        if number.isSubnormal { return "Swift.Double(bitPattern: 0x\(String(number.bitPattern, radix: 16)))" }
        return number == number.rounded() && abs(number) < 1e15 ? String(format: "%.1f", number) : "\(number)"
    }
}
