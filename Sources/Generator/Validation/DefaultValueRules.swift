import Foundation

/// Rule 6, defaults: a `default` is a literal of its field's type.
extension ValidationContext {
    mutating func checkDefaults() {
        for id in allModelIDs {
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                guard let node = field.defaultValue, let type = fieldTypes[fieldID] else { continue }
                // Built only for a message.
                let modelName = model(id).name.value
                let subject = { "field '\(field.name.value)' of model '\(modelName)'" }
                if node.scalar?.value == .null {
                    if !field.isOptional {
                        report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()) is empty, but the field is not optional", at: node.location))
                    }
                    continue
                }
                if let value = literal(node, of: type, subject: subject()) {
                    defaults[fieldID] = value
                }
            }
        }
    }

    private mutating func literal(_ node: YAMLNode, of type: FieldType, subject: @autoclosure () -> String) -> FieldDefault? {
        switch type {
        case .data, .asset, .location, .reference, .list(of: .data), .list(of: .location), .list(of: .reference):
            report(Diagnostic(.defaultNotSupported, "\(subject()) is \(type), which cannot have a default", at: node.location))
            return nil
        case .list(let element):
            guard let items = node.sequence else {
                return mismatch(node, expected: "a list", subject: subject())
            }
            var values: [FieldDefault] = []
            for item in items {
                guard let value = literal(item, of: element, subject: subject()) else { return nil }
                values.append(value)
            }
            return .list(values)
        case .string:
            guard let scalar = node.scalar, case .string(let text) = scalar.value else {
                let hint = node.scalar.map { " (quote it: \"\($0.text)\")" } ?? ""
                return mismatch(node, expected: "text\(hint)", subject: subject())
            }
            return .string(text)
        case .int:
            switch node.scalar?.value {
            case .int(let number): return .int(number)
            case .integerOutOfRange:
                report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()) does not fit in a 64-bit integer", at: node.location))
                return nil
            default: return mismatch(node, expected: "an integer", subject: subject())
            }
        case .double:
            switch node.scalar?.value {
            case .int(let number): return .double(Double(number))
            case .double(let number) where number.isFinite: return .double(number)
            default: return mismatch(node, expected: "a finite number", subject: subject())
            }
        case .bool:
            guard case .bool(let flag) = node.scalar?.value else {
                return mismatch(node, expected: "true or false", subject: subject())
            }
            return .bool(flag)
        case .date:
            guard case .string(let text) = node.scalar?.value else {
                return mismatch(node, expected: "'now' or an ISO 8601 date such as 2024-05-01T12:00:00Z", subject: subject())
            }
            if text == SchemaVocabulary.nowDefault && node.scalar?.style == .plain { return .now }
            guard let seconds = ISO8601Literal.secondsSince1970(text) else {
                return mismatch(node, expected: "'now' or an ISO 8601 date such as 2024-05-01T12:00:00Z", subject: subject())
            }
            return .date(secondsSince1970: seconds)
        }
    }

    private mutating func mismatch(_ node: YAMLNode, expected: String, subject: @autoclosure () -> String) -> FieldDefault? {
        report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()) must be \(expected), not \(node.kindDescription)", at: node.location))
        return nil
    }
}

/// Dates as the schema writes them: `2024-05-01`, `2024-05-01T12:00:00Z`,
/// `2024-05-01T12:00:00.250+02:00`.
enum ISO8601Literal {
    static func secondsSince1970(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
