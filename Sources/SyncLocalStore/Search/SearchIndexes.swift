import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// Each model's text-search index: an FTS5 table of the words of its searchable fields (the
/// schema's `index: [searchable]`), split by `SearchText`'s rule (the `syncgen` tokenizer).
///
/// The index is kept by triggers on the model's table, so it changes in the transaction that
/// writes the row, whoever writes it: a save of the app, a pulled or merged record, a deletion,
/// a natural-key retirement, a kept query result, an account's rows parked. A crash can never
/// leave a row without its words, or words of a row gone.
///
/// It is contentless (`content=''`): the words point at the model's row (`rowid`), and no text
/// is kept twice. The catalog (`search_indexes`) records the fields each index covers and the
/// rule's folding it was built with; when either differs from what the model and this process
/// say (a field became searchable, or stopped being; a system whose folding changed), the index
/// is made again from the rows, in the transaction that first meets the model.
enum SearchIndexes {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("search.indexes", sql: """
            -- The fields each model's search index covers, and the folding it was built with.
            CREATE TABLE IF NOT EXISTS search_indexes (type TEXT PRIMARY KEY, fields TEXT NOT NULL, folding TEXT NOT NULL);
            """),
    ]

    /// The index's table of a record type, quoted. A record type holds no `.`, so the name (and
    /// the names FTS5 gives its own tables, `….search_data`...) is no model's table.
    static func sqlName(_ recordType: String) -> String { "\"model_\(recordType).search\"" }

    /// The index of the model's searchable fields, made (or made again) when the catalog says
    /// it covers other fields, or was built with another folding.
    static func ensure<Model: SyncModel>(_ type: Model.Type, table: ModelTable, _ database: SQLiteDatabase) throws {
        // A SQLite without FTS5 keeps no index: a search then runs in Swift over the rows.
        guard database.canSearch else { return }
        let columns = Model.searchableFields.compactMap { table.column(named: $0.name) }.filter { $0.kind == .form(.text) || $0.kind == .form(.encoded) }
        let stored = try database.query("SELECT fields, folding FROM search_indexes WHERE type = ?", [.text(table.recordType)]).first
        let fields = columns.map(\.name).joined(separator: ",")
        if let stored, stored.text(0) == fields, stored.text(1) == folding { return }
        if stored == nil, columns.isEmpty { return }
        try make(table.recordType, columns: columns, database)
    }

    /// Makes the record type's index again from its rows: what a damaged one needs.
    static func rebuild(_ recordType: String, _ database: SQLiteDatabase) throws {
        guard let table = try ModelTables.load(recordType, database),
              let stored = try database.query("SELECT fields FROM search_indexes WHERE type = ?", [.text(recordType)]).first else { return }
        let names = stored.text(0).split(separator: ",").map(String.init)
        try make(recordType, columns: names.compactMap { table.column(named: $0) }, database)
    }

    /// The join of the model's table with the rows of its index that match the search bound
    /// to its one argument (an FTS5 query): `_found`, the row; `_rank`, how well it matches
    /// (FTS5's `rank`, BM25: best lowest). Names starting with `_`, which no field's has.
    static func join(_ recordType: String) -> String {
        let index = sqlName(recordType)
        return "JOIN (SELECT rowid AS _found, rank AS _rank FROM \(index) WHERE \(index) MATCH ?) ON _found = \(ModelTable.sqlName(recordType)).rowid"
    }

    /// Whether the record type has an index to search.
    static func exists(_ recordType: String, _ database: SQLiteDatabase) throws -> Bool {
        try database.canSearch && database.tableExists("search_indexes") && !database.query("SELECT 1 FROM search_indexes WHERE type = ? AND fields != ''", [.text(recordType)]).isEmpty
    }

    /// Drops the index and its triggers, and makes them again over `columns` (none: no index),
    /// filled from the rows the table holds.
    private static func make(_ recordType: String, columns: [ModelTable.Column], _ database: SQLiteDatabase) throws {
        let index = sqlName(recordType)
        let model = ModelTable.sqlName(recordType)
        for trigger in ["insert", "update", "delete"] { try database.execute("DROP TRIGGER IF EXISTS \(triggerName(recordType, trigger))") }
        do {
            try database.execute("DROP TABLE IF EXISTS \(index)")
        } catch {
            guard error.primaryCode == .corrupt else { throw error }
            try mend(recordType, database)
            try database.execute("DROP TABLE IF EXISTS \(index)")
        }
        try database.query(
            "INSERT OR REPLACE INTO search_indexes (type, fields, folding) VALUES (?, ?, ?)",
            [.text(recordType), .text(columns.map(\.name).joined(separator: ",")), .text(folding)])
        guard !columns.isEmpty else { return }
        // The index's columns are the fields' names after an underscore: never `rank` or
        // `rowid`, which FTS5 keeps for itself.
        let names = columns.map { ModelTable.quoted("_" + $0.name) }.joined(separator: ", ")
        let watched = columns.map { ModelTable.quoted($0.name) }.joined(separator: ", ")
        let new = columns.map { text($0, of: "new") }.joined(separator: ", ")
        let old = columns.map { text($0, of: "old") }.joined(separator: ", ")
        let changed = columns.map { "old.\(ModelTable.quoted($0.name)) IS NOT new.\(ModelTable.quoted($0.name))" }.joined(separator: " OR ")
        try database.execute("""
            CREATE VIRTUAL TABLE \(index) USING fts5(\(names), content = '', tokenize = '\(SQLiteDatabase.searchTokenizer)');
            CREATE TRIGGER \(triggerName(recordType, "insert")) AFTER INSERT ON \(model) BEGIN
                INSERT INTO \(index) (rowid, \(names)) VALUES (new.rowid, \(new));
            END;
            CREATE TRIGGER \(triggerName(recordType, "delete")) AFTER DELETE ON \(model) BEGIN
                INSERT INTO \(index) (\(index), rowid, \(names)) VALUES ('delete', old.rowid, \(old));
            END;
            CREATE TRIGGER \(triggerName(recordType, "update")) AFTER UPDATE OF \(watched) ON \(model) WHEN \(changed) BEGIN
                INSERT INTO \(index) (\(index), rowid, \(names)) VALUES ('delete', old.rowid, \(old));
                INSERT INTO \(index) (rowid, \(names)) VALUES (new.rowid, \(new));
            END;
            INSERT INTO \(index) (rowid, \(names)) SELECT rowid, \(columns.map { text($0, of: nil) }.joined(separator: ", ")) FROM \(model);
            """)
    }

    /// Makes a damaged index one FTS5 can open (and so drop): SQLite opens an FTS5 table, even
    /// to drop it, by reading its structure from its own tables, and refuses one whose structure
    /// is damaged. Its tables are emptied and given the structure of a new, empty index.
    private static func mend(_ recordType: String, _ database: SQLiteDatabase) throws {
        let fresh = "temp.\"syncgen_empty_search\""
        try database.execute("CREATE VIRTUAL TABLE \(fresh) USING fts5(words, content = '')")
        for part in ["data", "idx", "docsize", "config"] {
            let table = "\"model_\(recordType).search_\(part)\""
            try database.execute("DELETE FROM \(table)")
            if part == "data" || part == "config" { try database.execute("INSERT INTO \(table) SELECT * FROM temp.\"syncgen_empty_search_\(part)\"") }
        }
        try database.execute("DROP TABLE \(fresh)")
    }

    /// A column's text as the index reads it: a text as it is, a list of strings (kept in binary
    /// form) through `syncgen_search_text`. `row`: `new` or `old` in a trigger, nil in a select.
    private static func text(_ column: ModelTable.Column, of row: String?) -> String {
        let value = (row.map { $0 + "." } ?? "") + ModelTable.quoted(column.name)
        return column.kind == .form(.text) ? value : "\(SQLiteDatabase.searchTextFunction)(\(value))"
    }

    private static func triggerName(_ recordType: String, _ kind: String) -> String {
        "\"model_\(recordType).search.\(kind)\""
    }

    /// What the rule's folding makes of letters whose folding a system's Unicode tables decide:
    /// an index built with other answers is made again (its words would no longer be found).
    static let folding = SearchText.fold("AÀÉÎÕÜßÇÑÆŒǅﬁİıΣςЁǄ")
}
