/// One condition of a server query on one field, as CloudKit's predicate says it: what a
/// `ServerQuery` hands the cloud (`RecordQuery.conditions`), and what a cloud checks each
/// record against. Conditions of a query all hold at once (CloudKit's predicates join with
/// `AND`; it has no `OR`).
public struct FieldCondition: Sendable, Hashable {
    /// How the field's value is compared.
    public enum Comparison: String, Sendable, Hashable {
        /// `==`, `!=`, `<`, `<=`, `>`, `>=`: with `values[0]`.
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        /// `BEGINSWITH`, on a string: with `values[0]`, a string.
        case beginsWith
        /// `IN`: the field equals one of `values`.
        case isIn
        /// `CONTAINS`, on a list field: the list holds `values[0]` (Apple, `CKQuery`: "the
        /// `CONTAINS` operator is only for testing list membership").
        case contains
        /// Text search: every word of `values[0]` (a string) is a word of the record's
        /// searchable text fields (CloudKit's `ALL tokenize(%@, 'Cdl') IN allTokens`: words split
        /// at whitespace, case and accents aside). `field` is empty: the search reads every field
        /// marked `searchable`.
        case allTokens
        /// The location field lies closer to `values[0]` (a location) than `values[1]` meters (a
        /// double): CloudKit's `distanceToLocation:fromLocation:(field, location) < radius`.
        case withinDistance
    }

    /// The field's record key.
    public var field: String
    /// How the field's value is compared with `values`.
    public var comparison: Comparison
    /// The value the field is compared with, or the values of `isIn`.
    public var values: [SyncFieldValue]

    /// A condition on `field`.
    public init(_ field: String, _ comparison: Comparison, _ values: [SyncFieldValue]) {
        self.field = field
        self.comparison = comparison
        self.values = values
    }
}

/// One sort key of a server query: a field, ascending or descending.
public struct FieldSort: Sendable, Hashable {
    /// The field's record key.
    public var field: String
    /// Smallest first; false: largest first.
    public var ascending: Bool

    /// A sort by `field`.
    public init(_ field: String, ascending: Bool = true) {
        self.field = field
        self.ascending = ascending
    }
}
