import Foundation
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// The escape hatch: an app's own SQL over the store's tables, reading only, typed rows out.
@Suite("Store: reading with SQL")
struct StoreSQLTests {
    static func store(url: URL? = nil) throws -> SyncStore {
        let store = try SyncStore(url: url)
        try store.save([SharedList(recordName: "groceries", title: "Groceries"), SharedList(recordName: "empty", title: "Empty")])
        try store.save([
            ListItem(recordName: "1", parent: RecordReference(recordName: "groceries"), text: "Milk", quantity: 2, assignee: .unset),
            ListItem(recordName: "2", parent: RecordReference(recordName: "groceries"), text: "Bread", done: true, assignee: .unset),
            ListItem(recordName: "3", parent: RecordReference(recordName: "groceries"), text: "Eggs", quantity: 12, assignee: .unset),
        ])
        return store
    }

    /// The documented tables and columns, joined and grouped; arguments bound; values typed.
    @Test func readsTheDocumentedTables() throws {
        let store = try Self.store()
        let rows = try store.read(sql: """
            SELECT l.title, COUNT(i._name) AS open, TOTAL(i.quantity) AS quantity FROM model_SharedList AS l
            LEFT JOIN model_ListItem AS i ON i._parent = l._name AND i.done = ?
            GROUP BY l._name ORDER BY open DESC
            """, [.integer(0)])
        #expect(rows.map { $0.text("title") } == ["Groceries", "Empty"])
        #expect(rows.map { $0.integer("open") } == [2, 0])
        #expect(rows.map { $0.double("quantity") } == [14, 0])
        #expect(rows.first?.columns == ["title", "open", "quantity"])
        let found = try store.read(sql: "SELECT i.text FROM model_ListItem AS i JOIN \"model_ListItem.search\" AS s ON s.rowid = i.rowid WHERE s.\"model_ListItem.search\" MATCH ?", [.text("\"milk\"")])
        #expect(found.map { $0.text("text") } == ["Milk"], "the search index, with the store's tokenizer")
    }

    /// Writes, transaction control, attachments and a second statement are refused with an
    /// error that says so, and the store reads and writes as before. Breaking it: dropping the
    /// `sqlite3_stmt_readonly` check lets `DELETE ... RETURNING` (which has columns) through on
    /// a store in memory.
    @Test func whatWouldWriteIsRefused() throws {
        for url in [nil, FileManager.default.temporaryDirectory.appendingPathComponent("sql-\(UUID().uuidString)/store.sqlite")] {
            defer { if let url { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) } }
            let store = try Self.store(url: url)
            for sql in ["DELETE FROM model_ListItem", "UPDATE model_ListItem SET text = 'x'", "INSERT INTO model_tables (type) VALUES ('X')",
                        "CREATE TABLE mine (a)", "DROP TABLE model_ListItem", "PRAGMA user_version = 7", "BEGIN", "COMMIT",
                        "ATTACH ':memory:' AS other", "SELECT 1; DELETE FROM model_ListItem", "DELETE FROM model_ListItem RETURNING _name", "WITH x AS (SELECT 1) DELETE FROM model_ListItem"] {
                #expect(throws: (any Error).self, "\(sql)") { try store.read(sql: sql) }
            }
            #expect(throws: (any Error).self) { try store.read(sql: "SELECT nothing FROM nowhere") }
            #expect(try store.count(Query<ListItem>()) == 3)
            try store.save(ListItem(recordName: "4", text: "Tea", assignee: .unset))
            #expect(try store.read(sql: "SELECT COUNT(*) AS n FROM model_ListItem;").first?.integer("n") == 4, "a trailing ; is no second statement")
        }
    }
}
