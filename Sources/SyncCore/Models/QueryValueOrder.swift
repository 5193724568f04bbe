import Foundation

/// The one order field values are put in, wherever they are compared (a query in SQL or in
/// Swift, a group's order, `merge: max`/`min`), as each type's `ScalarTypeFacts.order` says:
/// strings by their UTF-8 bytes (what SQLite's default collation does), numbers by value (an
/// integer and a double compare as numbers; a NaN has no place), dates by time, bytes byte by
/// byte. Values of different kinds, locations, assets and lists only equal themselves.
package enum QueryValueOrder {
    /// As `compare`, for a field that may hold no value: no value before every value (a sort key,
    /// ascending; a group's key), two that cannot be ordered as equal.
    package static func noneFirst(_ left: SyncFieldValue?, _ right: SyncFieldValue?) -> Int {
        switch (left, right) {
        case (nil, nil): 0
        case (nil, _): -1
        case (_, nil): 1
        case (let left?, let right?): compare(left, right) ?? 0
        }
    }

    /// Negative, zero or positive as `left` is before, equal to or after `right`; nil when the two
    /// cannot be ordered (and are not equal).
    package static func compare(_ left: SyncFieldValue, _ right: SyncFieldValue) -> Int? {
        switch (left, right) {
        case (.string(let a), .string(let b)): return bytes(Array(a.utf8), Array(b.utf8))
        case (.int64(let a), .int64(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.int64, .double), (.double, .int64), (.double, .double):
            guard let a = number(left), let b = number(right), !a.isNaN, !b.isNaN else { return nil }
            return a < b ? -1 : a == b ? 0 : 1
        case (.date(let a), .date(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.bytes(let a), .bytes(let b)): return bytes(Array(a), Array(b))
        case (.reference(let a), .reference(let b)): return a.recordName == b.recordName ? 0 : nil
        default: return left == right ? 0 : nil
        }
    }

    /// Whether `text` holds `part`, byte for byte.
    package static func contains(_ text: String, _ part: String) -> Bool {
        let (text, part) = (Array(text.utf8), Array(part.utf8))
        guard !part.isEmpty else { return true }
        guard part.count <= text.count else { return false }
        return (0...(text.count - part.count)).contains { text[$0..<($0 + part.count)].elementsEqual(part) }
    }

    private static func number(_ value: SyncFieldValue) -> Double? {
        switch value {
        case .int64(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private static func bytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count < b.count ? -1 : a.count == b.count ? 0 : 1
    }
}

/// A field type a query can order by and compare with `<`, `<=`, `>`, `>=`, and take the
/// `minimum` and `maximum` of: the Swift type of each schema type that has an order (its
/// facts' `order`; a test holds the two lists together), compared by that order.
public protocol QueryComparable: SyncFieldConvertible {}

extension String: QueryComparable {}
extension Int64: QueryComparable {}
extension Double: QueryComparable {}
extension Date: QueryComparable {}
extension Bool: QueryComparable {}
/// By its absolute string's UTF-8 bytes, as it is stored.
extension URL: QueryComparable {}
/// By its lowercase string's UTF-8 bytes, as it is stored.
extension UUID: QueryComparable {}
