/// Which records a `ServerQuery` asks the cloud for: conditions on queryable fields, written with
/// the key paths of the model's `ServerFields`, joined by `&&` (CloudKit has no `OR`):
///
/// ```swift
/// ServerQuery<PublicRecipe>().filter(\.cuisine == "thai" && \.minutes <= 30 && .hasPrefix(\.title, "Green"))
/// ```
///
/// A condition on a field the schema does not mark `queryable` does not compile.
public struct ServerPredicate<Model: ServerQueryable>: Sendable {
    package let conditions: [FieldCondition]

    package init(_ conditions: [FieldCondition]) {
        self.conditions = conditions
    }

    /// Both predicates' conditions.
    public static func && (lhs: ServerPredicate, rhs: ServerPredicate) -> ServerPredicate {
        ServerPredicate(lhs.conditions + rhs.conditions)
    }

    /// The string field begins with `prefix` (CloudKit's `BEGINSWITH`).
    public static func hasPrefix<Index: ServerQueryableIndex>(_ field: KeyPath<Model.ServerFields, ServerField<Model, String, Index>>, _ prefix: String) -> ServerPredicate {
        condition(field, .beginsWith, [.string(prefix)])
    }

    /// The field equals one of `values` (CloudKit's `IN`).
    public static func isIn<Value: SyncFieldConvertible, Index: ServerQueryableIndex>(
        _ field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, _ values: [Value]
    ) -> ServerPredicate {
        condition(field, .isIn, values.map(\.syncFieldValue))
    }

    /// The reference field names one of `targets` (CloudKit's `IN`, comparing record IDs).
    public static func isIn<Target, Index: ServerQueryableIndex>(
        _ field: KeyPath<Model.ServerFields, ServerField<Model, RecordReference<Target>, Index>>, _ targets: [RecordReference<Target>]
    ) -> ServerPredicate {
        condition(field, .isIn, targets.map(\.queryValue))
    }

    /// The list field holds `value` (CloudKit's `CONTAINS`; text compares case aside).
    public static func contains<Element: SyncFieldConvertible, Index: ServerQueryableIndex>(
        _ field: KeyPath<Model.ServerFields, ServerListField<Model, Element, Index>>, _ value: Element
    ) -> ServerPredicate {
        condition(field, .contains, [value.syncFieldValue])
    }

    /// The list of references holds one to `target`.
    public static func contains<Target, Index: ServerQueryableIndex>(
        _ field: KeyPath<Model.ServerFields, ServerListField<Model, RecordReference<Target>, Index>>, _ target: RecordReference<Target>
    ) -> ServerPredicate {
        condition(field, .contains, [target.queryValue])
    }

    /// The location field lies within `meters` of `location`.
    public static func near<Index: ServerQueryableIndex>(
        _ field: KeyPath<Model.ServerFields, ServerField<Model, SyncLocation, Index>>, _ location: SyncLocation, within meters: Double
    ) -> ServerPredicate {
        condition(field, .withinDistance, [.location(location), .double(meters)])
    }

    /// One condition on the field (or list field) a key path names.
    static func condition<Field: NamedServerField>(
        _ field: KeyPath<Model.ServerFields, Field>, _ comparison: FieldCondition.Comparison, _ values: [SyncFieldValue]
    ) -> ServerPredicate {
        ServerPredicate([FieldCondition(Model.serverFields[keyPath: field].name, comparison, values)])
    }
}

// The comparisons, on a queryable field and a value of its type: equality on any (an enum's
// case and a reference included), order on text, numbers, truth values and dates
// (`QueryComparable`). Text compares case aside: Apple, `CKQuery`, "String-based comparisons are
// case-insensitive".

public func == <Model, Target, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, RecordReference<Target>, Index>>, value: RecordReference<Target>
) -> ServerPredicate<Model> {
    .condition(field, .equal, [value.queryValue])
}

public func != <Model, Target, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, RecordReference<Target>, Index>>, value: RecordReference<Target>
) -> ServerPredicate<Model> {
    .condition(field, .notEqual, [value.queryValue])
}

public func == <Model, Value: SyncFieldConvertible, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, value: Value
) -> ServerPredicate<Model> {
    .condition(field, .equal, [value.syncFieldValue])
}

public func != <Model, Value: SyncFieldConvertible, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, value: Value
) -> ServerPredicate<Model> {
    .condition(field, .notEqual, [value.syncFieldValue])
}

public func < <Model, Value: QueryComparable, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, value: Value
) -> ServerPredicate<Model> {
    .condition(field, .less, [value.syncFieldValue])
}

public func <= <Model, Value: QueryComparable, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, value: Value
) -> ServerPredicate<Model> {
    .condition(field, .lessOrEqual, [value.syncFieldValue])
}

public func > <Model, Value: QueryComparable, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, value: Value
) -> ServerPredicate<Model> {
    .condition(field, .greater, [value.syncFieldValue])
}

public func >= <Model, Value: QueryComparable, Index: ServerQueryableIndex>(
    field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, value: Value
) -> ServerPredicate<Model> {
    .condition(field, .greaterOrEqual, [value.syncFieldValue])
}

extension RecordReference {
    /// The reference as a query compares it: CloudKit matches a reference by its record ID alone,
    /// so no delete action.
    var queryValue: SyncFieldValue { .reference(SyncReference(recordName: recordName)) }
}
