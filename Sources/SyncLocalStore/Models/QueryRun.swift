import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// A query run on one connection: in SQL when it has an SQL form (`QuerySQL`), otherwise in
/// Swift over the table's rows, with the same answers. A text search reads the model's search
/// index either way; a store that has none (one opened only to read, whose index was never
/// made) runs the search in Swift over the rows too, unranked.
struct QueryRun<Model: SyncModel> {
    let query: Query<Model>
    let database: SQLiteDatabase
    let table: ModelTable

    /// The search the query makes, or nil.
    private var search: SearchText.Search? {
        query.searchTexts.isEmpty ? nil : SearchText.Search(query.searchTexts)
    }

    /// The models the query keeps, in its order, its page.
    func models() throws -> [Model] {
        if search?.isEmpty == true { return [] }
        let reader = StoreReader(database: database, table: table)
        if let sql = try sql() { return try reader.fetch(Model.self, sql) }
        let authorships = query.predicate?.readsAuthorship == true ? try RecordAuthorshipSQL.all(recordType: Model.recordType, in: database) : [:]
        let all = try reader.fetchAll(Model.self)
        let ranks = try search.map { try self.ranks(of: $0, among: all) }
        // Each condition on related records answered once, for every model.
        var related: [ObjectIdentifier: @Sendable (Model) -> Bool] = [:]
        for condition in query.predicate?.relatedConditions ?? [] { related[ObjectIdentifier(condition.identity)] = try condition.evaluate(self) }
        return query.apply(
            to: all, authorship: { authorships[$0.ownerName]?[$0.recordName] ?? .notYetInTheCloud },
            related: { identity, model in related[ObjectIdentifier(identity)]?(model) ?? false },
            searchRank: ranks.map { ranks in { ranks[$0.recordName] } })
    }

    /// How many models the query keeps (its limit and offset apply).
    func count() throws -> Int {
        if search?.isEmpty == true { return 0 }
        guard let sql = try sql() else { return try models().count }
        return Int(try database.query("SELECT COUNT(*) FROM (SELECT 1 FROM \(table.sqlName) \(sql.join) \(sql.filter) \(sql.order) \(sql.page))", sql.arguments)[0].integer(0))
    }

    /// The query's SQL, or nil where it runs in Swift: it has a part SQL cannot say, or searches
    /// a table with no index.
    func sql() throws -> QuerySQL? {
        if search != nil, try !SearchIndexes.exists(table.recordType, database) { return nil }
        return QuerySQL(query, table: table, tables: otherTable)
    }

    /// The table of another record type, for a condition on related records.
    private func otherTable(_ recordType: String) -> ModelTable? {
        try? ModelTables.load(recordType, database)
    }

    /// How well each model that matches the search does (best lowest), by record name: from the
    /// index, or, where there is none, every model whose searchable texts hold the words, alike.
    private func ranks(of search: SearchText.Search, among models: [Model]) throws -> [String: Double] {
        guard let expression = search.matchExpression else { return [:] }
        guard try SearchIndexes.exists(table.recordType, database) else {
            return Dictionary(models.filter { search.isMatch(of: $0.searchableTexts) }.map { ($0.recordName, 0) }, uniquingKeysWith: { first, _ in first })
        }
        var ranks: [String: Double] = [:]
        try database.forEachRow("SELECT _name, _rank FROM \(table.sqlName) \(SearchIndexes.join(table.recordType))", [.text(expression)]) { row in
            ranks[row.text(0)] = row.real(1)
        }
        return ranks
    }
}

extension SyncModel {
    /// The texts of the model's searchable fields, in schema order: a list's strings one by one.
    var searchableTexts: [String] {
        searchableTextsByField.flatMap(\.texts)
    }

    /// Each searchable field's name and texts (a string's one, a list's strings), in schema
    /// order: what the index holds of the model, read in Swift.
    var searchableTextsByField: [(field: String, texts: [String])] {
        let stored = encodeStoredFields()
        return Self.searchableFields.map { field in
            let texts: [String] = switch stored[field.name] {
            case .string(let text)?: [text]
            case .list(let items)?: items.compactMap { if case .string(let text) = $0 { text } else { nil } }
            default: []
            }
            return (field.name, texts)
        }
    }
}

extension QueryRun: RelatedRecords {
    /// The models of another type a related condition reads, by a query of their own on this
    /// connection (in SQL where it can be).
    func models<Other: SyncModel>(_ type: Other.Type, where predicate: QueryPredicate<Other>?) throws -> [Other] {
        guard let others = otherTable(Other.recordType) else { return [] }
        let query = predicate.map { Query<Other>().filter($0) } ?? Query<Other>()
        return try QueryRun<Other>(query: query, database: database, table: others).models()
    }
}
