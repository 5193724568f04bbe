/// A query the cloud answers over a model's records, a page at a time: the device holds the page
/// it shows, never the rest. A `[public]` model's records are read in the public database; any
/// other's in the user's zone its records live in. Conditions (`filter`) need fields the schema marks
/// `queryable`, sorts (`sorted(by:)`) fields marked `sortable`; a query on a field without the
/// index does not compile, and the `.ckdb` export declares exactly the schema's indexes, so a
/// query that compiles is one the deployed schema answers.
///
/// ```swift
/// let quick = ServerQuery<PublicRecipe>()
///     .filter(\.minutes <= 30)
///     .sorted(by: \.minutes, .descending)
///     .limit(20)
/// ```
///
/// Records with equal sort keys come in the cloud's order. A page fetches every field but
/// asset contents (a reader downloads a file on demand).
public struct ServerQuery<Model: ServerQueryable>: Sendable {
    package private(set) var conditions: [FieldCondition] = []
    package private(set) var sorts: [FieldSort] = []
    package private(set) var pageSize: Int?

    /// Every record of the type, in the cloud's order.
    public init(_ type: Model.Type = Model.self) {}

    /// Only the records `predicate` keeps (and those the query kept already).
    public func filter(_ predicate: ServerPredicate<Model>) -> ServerQuery {
        var query = self
        query.conditions += predicate.conditions
        return query
    }

    /// Ordered by the sortable field (after the sort keys already given).
    public func sorted<Value, Index: ServerSortableIndex>(
        by field: KeyPath<Model.ServerFields, ServerField<Model, Value, Index>>, _ direction: Query<Model>.Direction = .ascending
    ) -> ServerQuery {
        var query = self
        query.sorts.append(FieldSort(Model.serverFields[keyPath: field].name, ascending: direction == .ascending))
        return query
    }

    /// Only the records whose searchable text holds every word of `text` (words split at
    /// whitespace, case and accents aside), in any of the fields the schema marks `searchable`.
    public func matching(_ text: String) -> ServerQuery where Model: ServerTextSearchable {
        var query = self
        query.conditions.append(FieldCondition("", .allTokens, [.string(text)]))
        return query
    }

    /// At most `count` records a page (at least one); without it the cloud chooses.
    public func limit(_ count: Int) -> ServerQuery {
        var query = self
        query.pageSize = max(1, count)
        return query
    }
}
