import Foundation

/// The models a ``Query`` keeps, in groups that share a field's value, a reference's target or a
/// parent, each with figures of its models (``Aggregate``): "each list with its number of open
/// items and the sum of their quantities". Groups come ordered by their key unless sorted by a
/// figure, and may be limited. Run it with `SyncStore.fetch(_:)` or `observe(_:)`.
///
/// ```swift
/// let count = Aggregate<ListItem, Int>.count
/// let quantity = Aggregate<ListItem, Double>.sum(\.quantity)
/// let busiest = Query<ListItem>().filter(\.done == false)
///     .groupedByParent(count, quantity)
///     .sorted(by: count, .descending)
///     .limit(10)
/// for list in try store.fetch(busiest) {
///     print(list.key ?? "no list", list[count], list[quantity])
/// }
/// ```
///
/// Only groups with at least one model exist. The query's own limit and offset, if any, choose the
/// models before they are grouped.
public struct GroupedQuery<Model: SyncModel, Key: Hashable & Sendable>: Sendable {
    /// What a group shares.
    package enum Grouping: Sendable {
        /// A field's value (a reference's target name, for a reference).
        case field(QueryPredicate<Model>.Field)
        /// The parent's record name.
        case parent
        /// Every model in one group, even none (a figure of the whole query).
        case all

        package var isAll: Bool {
            if case .all = self { true } else { false }
        }
    }

    /// What a group is ordered by.
    package enum Order: Sendable {
        case key
        case figure(AggregateID)
    }

    package let query: Query<Model>
    package let grouping: Grouping
    /// The figures each group has, in the order asked.
    package let figures: [(id: AggregateID, function: AggregateFunction, field: QueryPredicate<Model>.Field?)]
    /// The key from a group's value of `grouping`.
    package let key: @Sendable (SyncFieldValue?) -> Key
    package private(set) var order: [(Order, Query<Model>.Direction)] = []
    package private(set) var limit: Int?
    package private(set) var offset = 0

    package init<each Value>(
        _ query: Query<Model>, _ grouping: Grouping, key: @escaping @Sendable (SyncFieldValue?) -> Key, _ aggregates: repeat Aggregate<Model, each Value>
    ) {
        var figures: [(id: AggregateID, function: AggregateFunction, field: QueryPredicate<Model>.Field?)] = []
        for aggregate in repeat each aggregates {
            guard !figures.contains(where: { $0.id == aggregate.id }) else { continue }
            figures.append((aggregate.id, aggregate.function, aggregate.field))
        }
        self.query = query
        self.grouping = grouping
        self.key = key
        self.figures = figures
    }

    /// Ordered by a figure (after the orders already given; then by key).
    public func sorted<Value>(by aggregate: Aggregate<Model, Value>, _ direction: Query<Model>.Direction = .ascending) -> GroupedQuery {
        precondition(figures.contains { $0.id == aggregate.id }, "a grouped query is sorted by one of its own figures")
        var grouped = self
        grouped.order.append((.figure(aggregate.id), direction))
        return grouped
    }

    /// Ordered by the key, descending or ascending (the default order).
    public func sortedByKey(_ direction: Query<Model>.Direction) -> GroupedQuery {
        var grouped = self
        grouped.order.append((.key, direction))
        return grouped
    }

    /// At most `count` groups, after skipping the first `offset`.
    public func limit(_ count: Int, offset: Int = 0) -> GroupedQuery {
        var grouped = self
        grouped.limit = max(0, count)
        grouped.offset = max(0, offset)
        return grouped
    }
}

/// One group of a ``GroupedQuery``: its key, and its figures, read by the ``Aggregate`` that
/// asked for each.
public struct AggregateGroup<Model: SyncModel, Key: Hashable & Sendable>: Sendable, Hashable {
    /// What the group's models share: the field's value, the reference (nil: none), the parent's
    /// record name (nil: no parent).
    public let key: Key
    /// Each figure, by what asked for it.
    package let figures: [AggregateID: SyncFieldValue?]

    package init(key: Key, figures: [AggregateID: SyncFieldValue?]) {
        self.key = key
        self.figures = figures
    }

    /// The figure `aggregate` computed for the group; it must be one the grouped query asked for.
    public subscript<Value>(_ aggregate: Aggregate<Model, Value>) -> Value {
        guard let figure = figures[aggregate.id] else { preconditionFailure("the grouped query did not ask for \(aggregate.function.rawValue)") }
        return aggregate.figure(figure)
    }
}

extension Query {
    /// The models grouped by a field's value, each group with `aggregates`.
    public func grouped<Field: SyncFieldConvertible & Hashable, each Value>(
        by keyPath: KeyPath<Model, Field> & Sendable, _ aggregates: repeat Aggregate<Model, each Value>
    ) -> GroupedQuery<Model, Field?> {
        GroupedQuery(self, .field(QueryPredicate.field(keyPath)), key: { $0.flatMap(Field.fromSyncFieldValue) }, repeat each aggregates)
    }

    /// The models grouped by an optional field's value (nil: the models without one).
    public func grouped<Field: SyncFieldConvertible & Hashable, each Value>(
        by keyPath: KeyPath<Model, Field?> & Sendable, _ aggregates: repeat Aggregate<Model, each Value>
    ) -> GroupedQuery<Model, Field?> {
        GroupedQuery(self, .field(QueryPredicate.field(keyPath)), key: { $0.flatMap(Field.fromSyncFieldValue) }, repeat each aggregates)
    }

    /// The models grouped by the record a reference points at (nil: the models whose reference
    /// is unset).
    public func grouped<Target, each Value>(
        by keyPath: KeyPath<Model, RecordReference<Target>> & Sendable, _ aggregates: repeat Aggregate<Model, each Value>
    ) -> GroupedQuery<Model, RecordReference<Target>?> {
        let field = QueryPredicate<Model>.Field(keyPath: keyPath) { model in
            let reference = model[keyPath: keyPath]
            return reference.isSet ? .string(reference.recordName) : nil
        }
        return GroupedQuery(self, .field(field), key: Self.reference, repeat each aggregates)
    }

    /// The models grouped by the record an optional reference points at (nil: none).
    public func grouped<Target, each Value>(
        by keyPath: KeyPath<Model, RecordReference<Target>?> & Sendable, _ aggregates: repeat Aggregate<Model, each Value>
    ) -> GroupedQuery<Model, RecordReference<Target>?> {
        let field = QueryPredicate<Model>.Field(keyPath: keyPath) { $0[keyPath: keyPath].map { .string($0.recordName) } }
        return GroupedQuery(self, .field(field), key: Self.reference, repeat each aggregates)
    }

    /// The models grouped by their parent (the schema's `parent:`), by its record name (nil: the
    /// models without one): each list with figures of its items.
    public func groupedByParent<each Value>(_ aggregates: repeat Aggregate<Model, each Value>) -> GroupedQuery<Model, String?> {
        GroupedQuery(self, .parent, key: { value in if case .string(let name)? = value { name } else { nil } }, repeat each aggregates)
    }

    @Sendable private static func reference<Target>(_ value: SyncFieldValue?) -> RecordReference<Target>? {
        switch value {
        case .string(let name)?: RecordReference(recordName: name)
        case .reference(let reference)?: RecordReference(recordName: reference.recordName)
        default: nil
        }
    }
}
