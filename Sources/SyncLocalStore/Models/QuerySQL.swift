import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// A query as SQL over its model's table: the same answers as the query run in Swift over every
/// row (`Query.apply`), by the same rules. Each comparison is two-valued (a column without a
/// value fails it, and `NOT` keeps it: `COALESCE(..., 0)` under a `NOT`); text compares by SQLite's default
/// collation, its UTF-8 bytes; an integer and a real compare as numbers; ties come by record name.
///
/// A text search joins the matches of the model's search index (`SearchIndexes`), best first
/// after the query's own sort keys.
///
/// A list's elements are tested by the store's SQL functions (`SQLiteDatabase+ListFunctions`).
///
/// Nil when a part has no SQL form here (an order or range over a column kept in binary form, a
/// key path that is not a field), or a search looks for no word: that query runs in Swift over
/// the rows.
struct QuerySQL {
    /// The join of a text search's matches (`_found`, the row; `_rank`, how well it matches,
    /// best lowest), or empty.
    let join: String
    /// `WHERE ...`, or empty.
    let filter: String
    /// `ORDER BY ...`, always ending with the record name.
    let order: String
    /// `LIMIT ? OFFSET ?`, or empty.
    let page: String
    let arguments: [SQLiteValue]

    init?<Model: SyncModel>(_ query: Query<Model>, table: ModelTable, tables: @escaping (String) -> ModelTable?) {
        var arguments: [SQLiteValue] = []
        var filter = ""
        var join = ""
        if !query.searchTexts.isEmpty {
            // A search for no words finds nothing.
            guard let expression = SearchText.Search(query.searchTexts).matchExpression else { return nil }
            join = SearchIndexes.join(table.recordType)
            arguments.append(.text(expression))
        }
        if let predicate = query.predicate {
            var writer = QueryCondition<Model>(table: table, tables: tables, arguments: arguments)
            guard let condition = writer.sql(predicate.node, exact: false) else { return nil }
            arguments = writer.arguments
            filter = "WHERE " + condition
        }
        var keys: [String] = []
        for key in query.sortKeys {
            guard let column = Self.column(key.field, of: Model.self, in: table), column.kind != .form(.encoded) else { return nil }
            keys.append("\(column.sql) \(key.direction == .ascending ? "ASC" : "DESC")")
        }
        if !join.isEmpty { keys.append("_rank ASC") }
        keys.append("_name ASC")
        var page = ""
        if query.limit != nil || query.offset > 0 {
            page = "LIMIT ? OFFSET ?"
            arguments.append(.integer(Int64(query.limit ?? -1)))
            arguments.append(.integer(Int64(query.offset)))
        }
        self.join = join
        self.filter = filter
        self.order = "ORDER BY " + keys.joined(separator: ", ")
        self.page = page
        self.arguments = arguments
    }

    /// The column a query's field reads: the record's name or owner, or a schema field's column.
    static func column<Model: SyncModel>(_ field: QueryPredicate<Model>.Field, of type: Model.Type, in table: ModelTable) -> ModelTable.Column? {
        if let name = Model.fieldName(for: field.keyPath) { return table.columns.first { $0.name == name } }
        // The record's name and owner are the model's own properties, not the protocol's (whose
        // key paths differ): a model made with marked ones says which a key path reads.
        let probe = Model(emptyRecordNamed: "\u{1}name", ownerName: "\u{1}owner")
        switch probe[keyPath: field.keyPath as AnyKeyPath] as? String {
        case "\u{1}name": return ModelTable.Column(name: "_name", kind: .form(.text))
        case "\u{1}owner": return ModelTable.Column(name: "_owner", kind: .form(.text))
        default: return nil
        }
    }
}
