import Foundation
import SyncGenerator

/// A JSON value as the checker sees it: what a YAML language server makes of a schema file.
indirect enum Instance: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([Instance])
    case object([(String, Instance)])

    static func == (lhs: Instance, rhs: Instance) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A YAML tree as JSON, scalars resolved by the YAML 1.2 core schema (as language servers do).
    /// JSON is YAML too: the exported JSON Schema is read through the same loader.
    init(_ node: YAMLNode) {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: self = .null
            case .bool(let flag): self = .bool(flag)
            case .int(let number): self = .integer(number)
            case .double(let number): self = .number(number)
            case .integerOutOfRange: self = .number(.infinity)
            case .string(let text): self = .string(text)
            }
        case .sequence(let items):
            self = .array(items.map(Instance.init))
        case .mapping(let entries):
            self = .object(entries.map { ($0.key.text, Instance($0.value)) })
        }
    }

    /// An object's keys; none for anything else.
    var keys: [String] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.0)
    }

    subscript(key: String) -> Instance? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}

/// A small JSON Schema (draft-07) checker: the keywords syncgen's export uses, enough to prove in
/// tests that the schema accepts what the validator accepts and flags misspelt keys. A keyword it
/// does not know fails loudly rather than passing silently.
struct JSONSchemaChecker {
    let root: Instance

    static let knownKeywords: Set<String> = [
        "$schema", "title", "description", "$ref", "definitions", "type", "enum", "const", "properties",
        "patternProperties", "additionalProperties", "required", "propertyNames", "items", "uniqueItems",
        "minItems", "maxLength", "pattern", "oneOf", "anyOf", "allOf", "if", "then",
    ]

    /// Every place `instance` breaks the schema, as `path: reason`.
    func problems(_ instance: Instance) -> [String] {
        check(instance, against: root, at: "$")
    }

    private func check(_ instance: Instance, against schema: Instance, at path: String) -> [String] {
        guard case .object(let keywords) = schema else { return ["\(path): the schema is not an object"] }
        var problems: [String] = []
        for (keyword, value) in keywords {
            guard Self.knownKeywords.contains(keyword) else {
                problems.append("\(path): the checker does not know '\(keyword)'")
                continue
            }
            problems += check(instance, keyword: keyword, value: value, schema: schema, at: path)
        }
        return problems
    }

    private func check(_ instance: Instance, keyword: String, value: Instance, schema: Instance, at path: String) -> [String] {
        switch keyword {
        case "$ref":
            guard case .string(let reference) = value, reference.hasPrefix("#/definitions/"),
                let target = root["definitions"]?[String(reference.dropFirst("#/definitions/".count))]
            else { return ["\(path): unresolvable $ref \(value)"] }
            return check(instance, against: target, at: path)
        case "type":
            let allowed: [String]
            switch value {
            case .string(let one): allowed = [one]
            case .array(let many): allowed = many.compactMap { if case .string(let name) = $0 { name } else { nil } }
            default: return ["\(path): bad 'type'"]
            }
            return allowed.contains(where: { Self.matches(instance, type: $0) }) ? [] : ["\(path): is not \(allowed.joined(separator: " or "))"]
        case "enum":
            guard case .array(let options) = value else { return ["\(path): bad 'enum'"] }
            return options.contains(instance) ? [] : ["\(path): \(instance) is not one of the allowed values"]
        case "const":
            return instance == value ? [] : ["\(path): must be \(value)"]
        case "properties":
            guard case .object(let members) = instance, case .object(let properties) = value else { return [] }
            return members.flatMap { key, member in
                properties.first { $0.0 == key }.map { check(member, against: $0.1, at: "\(path).\(key)") } ?? []
            }
        case "patternProperties":
            guard case .object(let members) = instance, case .object(let patterns) = value else { return [] }
            return members.flatMap { key, member in
                patterns.filter { Self.matches(key, pattern: $0.0) }.flatMap { check(member, against: $0.1, at: "\(path).\(key)") }
            }
        case "additionalProperties":
            guard case .object(let members) = instance else { return [] }
            let declared = schema["properties"]?.keys ?? []
            let patterns = schema["patternProperties"]?.keys ?? []
            let extra = members.filter { key, _ in !declared.contains(key) && !patterns.contains { Self.matches(key, pattern: $0) } }
            if value == .bool(false) {
                return extra.map { "\(path): unknown key '\($0.0)'" }
            }
            return extra.flatMap { check($0.1, against: value, at: "\(path).\($0.0)") }
        case "required":
            guard case .object(let members) = instance, case .array(let names) = value else { return [] }
            return names.compactMap { name in
                guard case .string(let key) = name else { return nil }
                return members.contains { $0.0 == key } ? nil : "\(path): '\(key)' is required"
            }
        case "propertyNames":
            guard case .object(let members) = instance else { return [] }
            return members.flatMap { check(.string($0.0), against: value, at: "\(path).\($0.0) (name)") }
        case "items":
            guard case .array(let items) = instance else { return [] }
            return items.enumerated().flatMap { check($1, against: value, at: "\(path)[\($0)]") }
        case "uniqueItems":
            guard case .array(let items) = instance, value == .bool(true) else { return [] }
            let repeated = items.enumerated().contains { index, item in items[..<index].contains(item) }
            return repeated ? ["\(path): items repeat"] : []
        case "minItems":
            guard case .array(let items) = instance, case .integer(let minimum) = value else { return [] }
            return items.count >= minimum ? [] : ["\(path): fewer than \(minimum) items"]
        case "maxLength":
            guard case .string(let text) = instance, case .integer(let maximum) = value else { return [] }
            return text.unicodeScalars.count <= maximum ? [] : ["\(path): longer than \(maximum)"]
        case "pattern":
            guard case .string(let text) = instance, case .string(let pattern) = value else { return [] }
            return Self.matches(text, pattern: pattern) ? [] : ["\(path): '\(text)' does not match \(pattern)"]
        case "oneOf", "anyOf", "allOf":
            guard case .array(let options) = value else { return ["\(path): bad '\(keyword)'"] }
            let results = options.map { check(instance, against: $0, at: path) }
            let passing = results.filter(\.isEmpty).count
            switch keyword {
            case "allOf": return results.flatMap { $0 }
            case "anyOf": return passing > 0 ? [] : ["\(path): matches none of anyOf: " + results.flatMap { $0 }.joined(separator: "; ")]
            default: return passing == 1 ? [] : ["\(path): matches \(passing) of oneOf: " + results.flatMap { $0 }.joined(separator: "; ")]
            }
        case "if":
            guard check(instance, against: value, at: path).isEmpty, let then = schema["then"] else { return [] }
            return check(instance, against: then, at: path)
        default:
            // Annotations and keywords read by others ("then" by "if", "definitions" by "$ref").
            return []
        }
    }

    private static func matches(_ instance: Instance, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string), ("array", .array), ("object", .object):
            true
        default:
            false
        }
    }

    private static func matches(_ text: String, pattern: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }
}
