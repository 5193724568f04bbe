import Foundation
import SyncCore

extension SyncStore {
    /// A figure of the models a query keeps (its limit and offset choose them first): how many,
    /// or the sum, average, smallest or largest value of a field (`Aggregate`). In SQL over the
    /// model's table, one statement.
    public func aggregate<Model: SyncModel, Value>(_ aggregate: Aggregate<Model, Value>, of query: Query<Model> = Query()) throws -> Value {
        let groups = try fetch(GroupedQuery(query, .all, key: { _ in 0 }, aggregate))
        // A query of everything has its one group, even of no model.
        return groups.first?[aggregate] ?? aggregate.figure(nil)
    }

    /// The groups of a grouped query, each with its figures, in its order, its page: one SQL
    /// statement (`GROUP BY`) over the model's table.
    public func fetch<Model: SyncModel, Key>(_ grouped: GroupedQuery<Model, Key>) throws -> [AggregateGroup<Model, Key>] {
        guard let table = try tableToRead(Model.self) else {
            // A type never stored (on a store opened to read): no group, or the whole query's.
            let none = Dictionary(uniqueKeysWithValues: grouped.figures.map { ($0.id, SyncFieldValue?.none) })
            return grouped.grouping.isAll ? [AggregateGroup(key: grouped.key(nil), figures: none)] : []
        }
        return try runningSearch(grouped.query) { try AggregateRun(grouped: grouped, database: $0, table: table).groups() }
    }

    /// The figure at once, and again after each commit that changed a model of the type, when
    /// the figure changed: a badge's count.
    public func observe<Model: SyncModel, Value: Equatable>(_ aggregate: Aggregate<Model, Value>, of query: Query<Model> = Query()) -> AsyncThrowingStream<Value, any Error> {
        follow(commits(), when: query.isChanged(by:), read: { store in try store.aggregate(aggregate, of: query) })
    }

    /// The groups at once, and again after each commit that changed a model of the type, when
    /// they changed.
    public func observe<Model: SyncModel, Key>(_ grouped: GroupedQuery<Model, Key>) -> AsyncThrowingStream<[AggregateGroup<Model, Key>], any Error> {
        follow(commits(), when: grouped.query.isChanged(by:), read: { store in try store.fetch(grouped) })
    }
}
