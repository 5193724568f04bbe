import Foundation
import SyncCore

/// Rule 6, defaults: a `default` is a literal of its field's type.
extension ValidationContext {
    mutating func checkDefaults() {
        for id in allModelIDs {
            for fieldID in fieldIDs(of: id) {
                let field = field(fieldID)
                guard let node = field.defaultValue, let type = fieldTypes[fieldID] else { continue }
                // Built only for a message (a function: nothing is allocated for a valid field).
                let modelName = model(id).name.value
                func subject() -> String { field.subject(inModel: modelName) }
                if node.scalar?.value == .null {
                    if !field.isOptional {
                        report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()) is empty, but the field is not optional", at: node.location))
                    }
                    continue
                }
                if let value = literal(node, of: type, cases: enumCases[fieldID] ?? [], subject: subject()) {
                    defaults[fieldID] = value
                }
            }
        }
    }

    private mutating func literal(_ node: YAMLNode, of type: FieldType, cases: [String], subject: @autoclosure () -> String) -> FieldDefault? {
        // What a default is written as is the scalar type's fact; a list's is its element's,
        // each item written so.
        guard let written = type.valueScalar?.facts.defaultLiteral else {
            report(Diagnostic(.defaultNotSupported, "\(subject()) is \(type), which cannot have a default", at: node.location))
            return nil
        }
        if case .list(let element) = type {
            guard let items = node.sequence else {
                return mismatch(node, expected: "a list", subject: subject())
            }
            var values: [FieldDefault] = []
            for item in items {
                guard let value = literal(item, of: element, cases: cases, subject: subject()) else { return nil }
                values.append(value)
            }
            return .list(values)
        }
        switch written {
        case .text:
            guard let scalar = node.scalar, case .string(let text) = scalar.value else {
                let hint = node.scalar.map { " (quote it: \"\($0.text)\")" } ?? ""
                return mismatch(node, expected: "text\(hint)", subject: subject())
            }
            return .string(text)
        case .integer:
            switch node.scalar?.value {
            case .int(let number): return .int(number)
            case .integerOutOfRange:
                report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()) does not fit in a 64-bit integer", at: node.location))
                return nil
            default: return mismatch(node, expected: "an integer", subject: subject())
            }
        case .number:
            switch node.scalar?.value {
            case .int(let number): return .double(Double(number))
            case .double(let number) where number.isFinite:
                // A number Double cannot hold is refused, never rounded to 0.
                if number == 0, let text = node.scalar?.text, Self.hasNonzeroMantissa(text) {
                    report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()), \(text), is too small for a Double (the smallest is 4.9e-324) and would be 0", at: node.location))
                    return nil
                }
                return .double(number)
            case .double(let number) where number.isInfinite && node.scalar.map({ Self.hasNonzeroMantissa($0.text) }) == true:
                report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()), \(node.scalar?.text ?? ""), is too large for a Double (the largest is 1.7976931348623157e308)", at: node.location))
                return nil
            default: return mismatch(node, expected: "a finite number", subject: subject())
            }
        case .boolean:
            guard case .bool(let flag) = node.scalar?.value else {
                return mismatch(node, expected: "true or false", subject: subject())
            }
            return .bool(flag)
        case .moment:
            guard case .string(let text) = node.scalar?.value else {
                return mismatch(node, expected: "'now' or an ISO 8601 date such as 2024-05-01T12:00:00Z", subject: subject())
            }
            if text == SchemaVocabulary.nowDefault && node.scalar?.style == .plain { return .now }
            switch ISO8601Literal.parse(text) {
            case .date(let seconds): return .date(secondsSince1970: seconds)
            case .impossible(let reason):
                report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()), \(text), is not a date: \(reason)", at: node.location))
                return nil
            case .notADate:
                return mismatch(node, expected: "'now' or an ISO 8601 date such as 2024-05-01T12:00:00Z", subject: subject())
            }
        case .caseName:
            guard case .string(let name) = node.scalar?.value else {
                return mismatch(node, expected: "one of its cases (\(cases.joined(separator: ", ")))", subject: subject())
            }
            guard cases.contains(name) else {
                report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()), '\(name.truncatedForMessage)', is not one of its cases (\(cases.joined(separator: ", ")))\(Suggestion.didYouMean(name, among: cases))", at: node.location))
                return nil
            }
            return .enumCase(name)
        }
    }

    /// Whether a number's digits before its exponent hold anything but zeros (`1e-400` does,
    /// `0.0e5` does not).
    private static func hasNonzeroMantissa(_ text: String) -> Bool {
        text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    private mutating func mismatch(_ node: YAMLNode, expected: String, subject: @autoclosure () -> String) -> FieldDefault? {
        report(Diagnostic(.defaultTypeMismatch, "the default of \(subject()) must be \(expected), not \(node.kindDescription)", at: node.location))
        return nil
    }
}

/// Dates as the schema writes them: `2024-05-01`, `2024-05-01T12:00:00Z`,
/// `2024-05-01T12:00:00.250+02:00`. Read strictly: a day, hour, minute, second or offset out of
/// its range is refused, never rolled over into the next (`2024-02-30` is no March 1st).
enum ISO8601Literal {
    enum Reading: Equatable {
        case date(Double)
        /// Shaped as a date, but no such moment exists; the reason says which part is wrong.
        case impossible(String)
        case notADate
    }

    static func parse(_ text: String) -> Reading {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else { return .notADate }
        guard (1...12).contains(month) else { return .impossible("a month is 01 to 12") }
        let monthDays = daysIn(month: month, year: year)
        guard (1...monthDays).contains(day) else { return .impossible("\(monthNames[month - 1]) \(year) has \(monthDays) days") }
        var seconds = Double(daysSince1970(year: year, month: month, day: day)) * 86_400
        if index == bytes.count { return .date(seconds) }
        guard expect("T"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2) else { return .notADate }
        guard hour < 24 else { return .impossible("an hour is 00 to 23") }
        guard minute < 60 else { return .impossible("a minute is 00 to 59") }
        guard second < 60 else { return .impossible("a second is 00 to 59") }
        seconds += Double(hour * 3_600 + minute * 60 + second)
        if expect(".") {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start, let fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else { return .notADate }
            seconds += fraction
        }
        if expect("Z") {
            return index == bytes.count ? .date(seconds) : .notADate
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return .notADate }
        let sign: Double = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let offsetHours = digits(2), expect(":"), let offsetMinutes = digits(2), index == bytes.count else { return .notADate }
        guard offsetHours < 24, offsetMinutes < 60 else { return .impossible("an offset from UTC is at most 23:59") }
        return .date(seconds - sign * Double(offsetHours * 3_600 + offsetMinutes * 60))
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's
    /// days-from-civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
