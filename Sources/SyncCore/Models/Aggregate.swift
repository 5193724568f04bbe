import Foundation

/// A figure of the models a ``Query`` keeps: how many there are, or the sum, smallest, largest or
/// average of one of their fields, typed by the field. Run one with `SyncStore.aggregate(_:of:)`,
/// or several per group with `Query.grouped(by:_:)`.
///
/// ```swift
/// let open = Query<ListItem>().filter(\.done == false)
/// let items = try store.aggregate(.count, of: open)               // Int
/// let bought = try store.aggregate(.sum(\.quantity), of: open)    // Double, 0 when none
/// let typical = try store.aggregate(.average(\.quantity), of: open)  // Double?, nil when none
/// let first = try store.aggregate(.minimum(\.text), of: open)     // String?, nil when none
/// ```
///
/// A sum of integers is exact (one past `Int64.max` throws rather than round); a sum of doubles
/// is SQLite's `total`; a field with no value counts for nothing (a sum skips it, an average
/// divides by the values there are). An average, a minimum or a maximum of no value is nil, never
/// a NaN. Text compares by its UTF-8 bytes, as a query's sort does.
public struct Aggregate<Model: SyncModel, Value: Sendable>: Sendable {
    package typealias Function = AggregateFunction

    package let function: Function
    /// The field it is computed over; nil for a count.
    package let field: QueryPredicate<Model>.Field?
    /// The figure, from what was computed (nil: no value).
    package let figure: @Sendable (SyncFieldValue?) -> Value

    /// What tells two figures of a grouped query apart: the function and the field's key path.
    package var id: AggregateID { AggregateID(function: function, keyPath: field?.keyPath) }

    fileprivate init(_ function: Function, _ field: QueryPredicate<Model>.Field?, figure: @escaping @Sendable (SyncFieldValue?) -> Value) {
        self.function = function
        self.field = field
        self.figure = figure
    }
}

extension Aggregate where Value == Int {
    /// How many models.
    public static var count: Aggregate {
        Aggregate(.count, nil) { value in if case .int64(let number)? = value { Int(number) } else { 0 } }
    }
}

extension Aggregate where Value == Int64 {
    /// The sum of an integer field, exact; 0 for none.
    public static func sum(_ keyPath: KeyPath<Model, Int64> & Sendable) -> Aggregate {
        sumOfIntegers(QueryPredicate.field(keyPath))
    }

    /// The sum of an optional integer field's values; 0 for none.
    public static func sum(_ keyPath: KeyPath<Model, Int64?> & Sendable) -> Aggregate {
        sumOfIntegers(QueryPredicate.field(keyPath))
    }

    private static func sumOfIntegers(_ field: QueryPredicate<Model>.Field) -> Aggregate {
        Aggregate(.sum, field) { value in if case .int64(let number)? = value { number } else { 0 } }
    }
}

extension Aggregate where Value == Double {
    /// The sum of a double field; 0 for none.
    public static func sum(_ keyPath: KeyPath<Model, Double> & Sendable) -> Aggregate {
        sumOfDoubles(QueryPredicate.field(keyPath))
    }

    /// The sum of an optional double field's values; 0 for none.
    public static func sum(_ keyPath: KeyPath<Model, Double?> & Sendable) -> Aggregate {
        sumOfDoubles(QueryPredicate.field(keyPath))
    }

    private static func sumOfDoubles(_ field: QueryPredicate<Model>.Field) -> Aggregate {
        Aggregate(.sum, field) { value in value.flatMap(AggregateNumber.of) ?? 0 }
    }
}

extension Aggregate where Value == Double? {
    /// The average of an integer field, nil for none.
    public static func average(_ keyPath: KeyPath<Model, Int64> & Sendable) -> Aggregate {
        average(QueryPredicate.field(keyPath))
    }

    /// The average of an optional integer field's values, nil for none.
    public static func average(_ keyPath: KeyPath<Model, Int64?> & Sendable) -> Aggregate {
        average(QueryPredicate.field(keyPath))
    }

    /// The average of a double field, nil for none.
    public static func average(_ keyPath: KeyPath<Model, Double> & Sendable) -> Aggregate {
        average(QueryPredicate.field(keyPath))
    }

    /// The average of an optional double field's values, nil for none.
    public static func average(_ keyPath: KeyPath<Model, Double?> & Sendable) -> Aggregate {
        average(QueryPredicate.field(keyPath))
    }

    private static func average(_ field: QueryPredicate<Model>.Field) -> Aggregate {
        Aggregate(.average, field) { value in value.flatMap(AggregateNumber.of) }
    }
}

extension Aggregate {
    /// The smallest value of a field (text by its bytes), nil for none.
    public static func minimum<Field: QueryComparable>(_ keyPath: KeyPath<Model, Field> & Sendable) -> Aggregate where Value == Field? {
        Aggregate(.minimum, QueryPredicate.field(keyPath)) { value in value.flatMap(Field.fromSyncFieldValue) }
    }

    /// The smallest value an optional field holds, nil for none.
    public static func minimum<Field: QueryComparable>(_ keyPath: KeyPath<Model, Field?> & Sendable) -> Aggregate where Value == Field? {
        Aggregate(.minimum, QueryPredicate.field(keyPath)) { value in value.flatMap(Field.fromSyncFieldValue) }
    }

    /// The largest value of a field, nil for none.
    public static func maximum<Field: QueryComparable>(_ keyPath: KeyPath<Model, Field> & Sendable) -> Aggregate where Value == Field? {
        Aggregate(.maximum, QueryPredicate.field(keyPath)) { value in value.flatMap(Field.fromSyncFieldValue) }
    }

    /// The largest value an optional field holds, nil for none.
    public static func maximum<Field: QueryComparable>(_ keyPath: KeyPath<Model, Field?> & Sendable) -> Aggregate where Value == Field? {
        Aggregate(.maximum, QueryPredicate.field(keyPath)) { value in value.flatMap(Field.fromSyncFieldValue) }
    }
}

/// A number as a sum or an average reads it.
package enum AggregateNumber {
    package static func of(_ value: SyncFieldValue) -> Double? {
        switch value {
        case .double(let number): number
        case .int64(let number): Double(number)
        default: nil
        }
    }
}

/// What an ``Aggregate`` computes.
package enum AggregateFunction: String, Sendable, Hashable {
    case count, sum, minimum, maximum, average
}

/// Which figure of a grouped query a value is: its function and its field.
package struct AggregateID: Hashable, Sendable {
    package let function: AggregateFunction
    package let keyPath: (AnyKeyPath & Sendable)?
}
