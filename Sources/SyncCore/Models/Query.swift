import Foundation

/// A typed query of one model type: which models (`filter`), in what order (`sorted(by:)`), how
/// many (`limit`). A value: build it once, run it with `SyncStore.fetch(_:)`, `count(_:)`,
/// `observe(_:)` or a `LiveQuery`.
///
/// ```swift
/// let urgent = Query<Note>()
///     .filter(\.priority >= 3 && !.hasPrefix(\.title, "Draft"))
///     .sorted(by: \.priority, .descending)
///     .sorted(by: \.title)
///     .limit(20)
/// ```
///
/// Models with equal sort keys (or a query without any) come by record name. A field that holds
/// no value sorts before every value, ascending.
public struct Query<Model: SyncModel>: Sendable {
    /// Which way a sort key orders.
    public enum Direction: Sendable, Hashable {
        case ascending, descending
    }

    package struct SortKey: Sendable {
        package let field: QueryPredicate<Model>.Field
        package let direction: Direction
    }

    package private(set) var predicate: QueryPredicate<Model>?
    package private(set) var sortKeys: [SortKey] = []
    package private(set) var limit: Int?
    package private(set) var offset = 0
    /// The texts searched for (`matching(_:)`): a match holds the words of each.
    package private(set) var searchTexts: [String] = []

    /// Every model of the type, by record name.
    public init(_ type: Model.Type = Model.self) {}

    /// Only the models `predicate` keeps (and those the query kept already).
    public func filter(_ predicate: QueryPredicate<Model>) -> Query {
        var query = self
        query.predicate = self.predicate.map { $0 && predicate } ?? predicate
        return query
    }

    /// Only the models whose searchable fields (the schema's `index: [searchable]`) hold every
    /// word of `text`, best matches first (after the sort keys given, which then come first).
    /// Words are what lies between whitespace, compared case and accents aside, as CloudKit's
    /// text search compares them; the words CloudKit's search ignores ("the", "and"...) are
    /// ignored, and the last word, while it is being typed (no whitespace after it), matches as
    /// the start of a word. Every character of `text` is searched for as written: quotes, `*`,
    /// `-`, `AND` are words or parts of words, never query syntax. A text of no words matches
    /// nothing. Calling it again looks for the words of both.
    ///
    /// ```swift
    /// let found = try store.fetch(Query<Note>().matching("café mil").limit(20))
    /// ```
    public func matching(_ text: String) -> Query where Model: TextSearchable {
        var query = self
        query.searchTexts.append(text)
        return query
    }

    /// Ordered by the field (after the sort keys already given).
    public func sorted<Value: QueryComparable>(by keyPath: KeyPath<Model, Value> & Sendable, _ direction: Direction = .ascending) -> Query {
        sorted(by: QueryPredicate.field(keyPath), direction)
    }

    /// Ordered by the optional field, those without a value first when ascending.
    public func sorted<Value: QueryComparable>(by keyPath: KeyPath<Model, Value?> & Sendable, _ direction: Direction = .ascending) -> Query {
        sorted(by: QueryPredicate.field(keyPath), direction)
    }

    private func sorted(by field: QueryPredicate<Model>.Field, _ direction: Direction) -> Query {
        var query = self
        query.sortKeys.append(SortKey(field: field, direction: direction))
        return query
    }

    /// At most `count` models, after skipping the first `offset`.
    public func limit(_ count: Int, offset: Int = 0) -> Query {
        var query = self
        query.limit = max(0, count)
        query.offset = max(0, offset)
        return query
    }

    /// The query run over models in memory, each with its authorship as the store keeps it:
    /// what it keeps, in its order, its page. `related`: the answer of each related condition
    /// for a model. `searchRank`, for a query that searches text: how well each model matches
    /// (best lowest), nil for one that does not.
    package func apply(
        to models: [Model], authorship: (Model) -> RecordAuthorship, related: (RelatedCondition<Model>.Identity, Model) -> Bool = { _, _ in false },
        searchRank: ((Model) -> Double?)? = nil
    ) -> [Model] {
        var kept = predicate.map { predicate in models.filter { predicate.matches($0, authorship: authorship, related: related) } } ?? models
        if let searchRank { kept.removeAll { searchRank($0) == nil } }
        kept.sort { isInIncreasingOrder($0, $1, searchRank) }
        let page = kept.dropFirst(offset)
        return Array(limit.map { page.prefix($0) } ?? page)
    }

    private func isInIncreasingOrder(_ left: Model, _ right: Model, _ searchRank: ((Model) -> Double?)?) -> Bool {
        for key in sortKeys {
            let order = QueryValueOrder.noneFirst(key.field.value(left), key.field.value(right))
            if order != 0 { return key.direction == .ascending ? order < 0 : order > 0 }
        }
        if let searchRank, let leftRank = searchRank(left), let rightRank = searchRank(right), leftRank != rightRank { return leftRank < rightRank }
        return left.recordName.utf8.lexicographicallyPrecedes(right.recordName.utf8)
    }
}
