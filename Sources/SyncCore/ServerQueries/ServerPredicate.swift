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

    /// The location field lies within `meters` of `location`.
    public static func near<Index: ServerQueryableIndex>(
        _ field: KeyPath<Model.ServerFields, ServerField<Model, SyncLocation, Index>>, _ location: SyncLocation, within meters: Double
    ) -> ServerPredicate {
        condition(field, .withinDistance, [.location(location), .double(meters)])
    }

    /// One condition on the field a key path names.
    static func condition<Value, Index>(
        _ field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, _ comparison: FieldCondition.Comparison, _ values: [SyncFieldValue]
    ) -> ServerPredicate {
        ServerPredicate([FieldCondition(Model.serverFields[keyPath: field].name, comparison, values)])
    }
}

// The comparisons, on a queryable field and a value of its type: equality on any (an enum's
// case included), order on text, numbers, truth values and dates (`QueryComparable`).

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
