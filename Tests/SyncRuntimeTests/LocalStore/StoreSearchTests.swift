import Foundation
import Testing
@testable import SyncLocalStore
import SyncStorage
import SyncRuntime
import SyncCore

/// The store's text search (`Query.matching`): words between whitespace, case and accents aside,
/// the last word as a prefix while it is typed, the user's text never query syntax, ranked best
/// first, combined with filters, sorts and pages; the index kept in the transaction of the row,
/// built for an old store, made again when damaged.
@Suite("Store: text search")
struct StoreSearchTests {
    static func note(_ name: String, _ title: String, _ body: String = "", pinned: Bool = false, createdAt: Double = 0) -> Note {
        Note(recordName: name, title: title, body: body, createdAt: Date(timeIntervalSince1970: createdAt), pinned: pinned)
    }

    static func store(url: URL? = nil) throws -> SyncStore {
        let store = try SyncStore(url: url)
        try store.save([
            note("1", "Groceries", "Buy MILK and bread at the café", createdAt: 3),
            note("2", "Cafe list", "milk milk milk", pinned: true, createdAt: 2),
            note("3", "Recipes", "Crème brûlée needs cream, eggs and sugar", createdAt: 1),
            note("4", "Mixed", "a-b c:d (x \"quoted\" star* NEAR(one two) -minus \u{1}ctl", createdAt: 4),
        ])
        return store
    }

    static func names(_ store: SyncStore, _ text: String, _ query: Query<Note> = Query<Note>()) throws -> [String] {
        try store.fetch(query.matching(text)).map(\.recordName)
    }

    /// Words compare case and accents aside, in every searchable field (the title and the
    /// body); a search holds every word. Breaking it: the ASCII folding left out (`forEachWord`
    /// copying bytes as they are) loses "MILK" for "milk".
    @Test func wordsMatchWhateverTheirCaseAndAccents() throws {
        let store = try Self.store()
        #expect(Set(try Self.names(store, "milk ")) == ["1", "2"])
        #expect(Set(try Self.names(store, "Milk ")) == ["1", "2"])
        #expect(Set(try Self.names(store, "CAFÉ ")) == ["1", "2"], "café in a body, Cafe in a title")
        #expect(try Self.names(store, "creme brulee ") == ["3"])
        #expect(try Self.names(store, "milk bread ") == ["1"], "every word")
        #expect(try Self.names(store, "milk sugar ") == [])
        #expect(try store.count(Query<Note>().matching("milk ")) == 2)
    }

    /// The last word, while it is typed (nothing after it), matches the start of a word; once
    /// whitespace follows, only the whole word. Words CloudKit's search ignores are ignored.
    @Test func theLastWordIsAPrefixWhileItIsTyped() throws {
        let store = try Self.store()
        #expect(Set(try Self.names(store, "mil")) == ["1", "2"])
        #expect(try Self.names(store, "mil ") == [])
        #expect(try Self.names(store, "crè") == ["3"])
        #expect(try Self.names(store, "cream, egg") == ["3"], "\"cream,\" is a word: punctuation is part of it, as in CloudKit")
        #expect(try Self.names(store, "the milk and bread ") == ["1"], "the and and are ignored")
    }

    /// The user's text is words, never FTS5's query syntax: quotes, `*`, `-`, `:`, `NEAR`,
    /// `AND`, parentheses and control characters are searched for as written and never raise an
    /// error. Breaking it: the search passed to MATCH unquoted makes `c:d` a column filter (an
    /// error) and `NEAR(one` a syntax error.
    @Test func theUsersTextIsNeverQuerySyntax() throws {
        let store = try Self.store()
        #expect(try Self.names(store, "c:d ") == ["4"])
        #expect(try Self.names(store, "a-b ") == ["4"])
        #expect(try Self.names(store, "(x ") == ["4"])
        #expect(try Self.names(store, "\"quoted\" ") == ["4"])
        #expect(try Self.names(store, "star* ") == ["4"])
        #expect(try Self.names(store, "-minus ") == ["4"])
        #expect(try Self.names(store, "NEAR(one two) ") == ["4"])
        #expect(try Self.names(store, "\u{1}ctl ") == ["4"])
        for text in ["\"", "\"\"", "*", "-", ":", "NEAR", "AND", "OR", "NOT", "(", ")", "((", "^", "{a}", "a:", "\u{7}", "\0", "milk\0"] {
            #expect(throws: Never.self) { try Self.names(store, text) }
            #expect(throws: Never.self) { try Self.names(store, text + " ") }
        }
        #expect(Set(try Self.names(store, "milk\0")) == ["1", "2"], "a NUL is whitespace: \"milk\" is a whole word")
    }

    /// A search of no words (nothing, whitespace, only ignored words) matches nothing.
    @Test func anEmptySearchMatchesNothing() throws {
        let store = try Self.store()
        for text in ["", "   ", "\n\t", "the and ", "\0"] {
            #expect(try Self.names(store, text) == [], "\(text.debugDescription)")
            #expect(try store.count(Query<Note>().matching(text)) == 0)
        }
    }

    /// Best first: a note that says the word more often, in less text, comes first; the query's
    /// own sort keys come before the rank, its filter and page apply. Breaking it: dropping
    /// `_rank` from the order gives record-name order ("1" before "2").
    @Test func rankedBestFirstAndCombinedWithFiltersSortsAndPages() throws {
        let store = try Self.store()
        #expect(try Self.names(store, "milk ") == ["2", "1"])
        #expect(try Self.names(store, "milk ", Query<Note>().sorted(by: \.createdAt, .descending)) == ["1", "2"])
        #expect(try Self.names(store, "milk ", Query<Note>().filter(\.pinned == false)) == ["1"])
        #expect(try Self.names(store, "milk ", Query<Note>().limit(1)) == ["2"])
        #expect(try Self.names(store, "milk ", Query<Note>().limit(1, offset: 1)) == ["1"])
        #expect(try store.count(Query<Note>().matching("milk ").limit(1)) == 1)
        #expect(try Self.names(store, "milk", Query<Note>().matching("bre")) == ["1"], "two searches: the words of both")
    }

    /// A query with a part SQL cannot say (a property that is no field) runs in Swift over the rows, and
    /// its search still reads the index: the same answers, in the same order.
    @Test func aQueryRunInSwiftSearchesAlike() throws {
        let store = try SyncStore(url: nil)
        try store.save([
            ListItem(recordName: "a", text: "Oat milk", assignee: .unset, tags: ["dairy", "Vegan"]),
            ListItem(recordName: "b", text: "milk milk", assignee: .unset, tags: ["dairy"]),
            ListItem(recordName: "c", text: "Bread", assignee: .unset, tags: ["vegan"]),
        ])
        let search = Query<ListItem>().matching("milk ")
        #expect(try store.fetch(search).map(\.recordName) == ["b", "a"])
        #expect(try store.fetch(search.filter(\.isDairy == true)).map(\.recordName) == ["b", "a"], "run in Swift")
        #expect(Set(try store.fetch(Query<ListItem>().matching("VEGAN ")).map(\.recordName)) == ["a", "c"], "a list's strings are searched")
    }

    /// The index changes in the transaction that writes the row: an edit's new words are found
    /// and its old ones no longer, a deletion is gone, an edit of another field keeps the row
    /// found, a transaction that fails changes nothing. Breaking it: the update trigger left out
    /// keeps finding "bread" in note 1 once its body no longer says it.
    @Test func theIndexFollowsEveryWrite() throws {
        let store = try Self.store()
        var note = try #require(try store.fetch(Note.self, recordName: "1"))
        note.body = "Buy oat drink"
        try store.save(note)
        #expect(try Self.names(store, "bread ") == [])
        #expect(try Self.names(store, "oat drink ") == ["1"])
        try store.update(Self.note("1", "Groceries", "Buy oat drink", pinned: true), changing: \.pinned)
        #expect(try Self.names(store, "oat ") == ["1"], "an edit of another field keeps the words")
        try store.delete(Note.self, recordName: "1")
        #expect(try Self.names(store, "oat ") == [])
        struct Failed: Error {}
        #expect(throws: Failed.self) {
            try store.write { writer in
                try writer.save(Self.note("5", "Rolled back", "zucchini"))
                throw Failed()
            }
        }
        #expect(try Self.names(store, "zucchini ") == [])
        #expect(try Self.names(store, "rolled ") == [])
    }

    /// A store made before the index existed (no index, no catalog of them) gets one, filled
    /// from its rows, when it first meets the model: its notes are found. Breaking it: the
    /// filling `INSERT ... SELECT` left out of `SearchIndexes.make` finds none.
    @Test func anOldStoresNotesAreIndexedOnOpen() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("search-old-\(UUID().uuidString)/store.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = try Self.store(url: url)
        // What the layout before search held: no index, no triggers, no catalog, no step.
        let database = try SQLiteDatabase(.file(url))
        try database.execute("""
            DROP TRIGGER "model_Note.search.insert"; DROP TRIGGER "model_Note.search.update"; DROP TRIGGER "model_Note.search.delete";
            DROP TABLE "model_Note.search"; DROP TABLE search_indexes;
            DELETE FROM syncgen_migrations WHERE name = 'search.indexes';
            """)
        let reopened = try SyncStore(url: url)
        #expect(Set(try Self.names(reopened, "milk ")) == ["1", "2"])
        try reopened.save(Self.note("5", "New", "milk shake"))
        #expect(Set(try Self.names(reopened, "milk ")) == ["1", "2", "5"])
    }

    /// An index found damaged is made again from the rows, and the search answers. Breaking it:
    /// `runningSearch` reading without the retry throws SQLite's corruption error.
    @Test func aDamagedIndexIsMadeAgain() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("search-damaged-\(UUID().uuidString)/store.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = try Self.store(url: url)
        let database = try SQLiteDatabase(.file(url))
        try database.execute("UPDATE \"model_Note.search_data\" SET block = X'FFFFFFFFFFFFFFFF00' WHERE id > 1")
        let reopened = try SyncStore(url: url)
        #expect(Set(try Self.names(reopened, "milk ")) == ["1", "2"])
        #expect(try Self.names(reopened, "brulee ") == ["3"])
    }

    /// Where a store has no index (opened only to read before it made one, or a SQLite without
    /// FTS5), a search runs in Swift over the rows: the same matches, unranked (by record name).
    /// Breaking it: `QueryRun` reading the index it lacks throws "no such table".
    @Test func withoutAnIndexASearchRunsInSwift() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("search-none-\(UUID().uuidString)/store.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = try Self.store(url: url)
        let database = try SQLiteDatabase(.file(url))
        try database.execute("""
            DROP TRIGGER "model_Note.search.insert"; DROP TRIGGER "model_Note.search.update"; DROP TRIGGER "model_Note.search.delete";
            DROP TABLE "model_Note.search"; DELETE FROM search_indexes;
            """)
        let table = try #require(try ModelTables.load("Note", database))
        func names(_ query: Query<Note>) throws -> [String] { try QueryRun(query: query, database: database, table: table).models().map(\.recordName) }
        #expect(try names(Query<Note>().matching("milk ")) == ["1", "2"])
        #expect(try names(Query<Note>().matching("CAFE")) == ["1", "2"])
        #expect(try names(Query<Note>().matching("creme brul")) == ["3"])
        #expect(try names(Query<Note>().matching("c:d ").filter(\.pinned == false)) == ["4"])
        #expect(try names(Query<Note>().matching("the ")) == [])
        #expect(try QueryRun(query: Query<Note>().matching("milk "), database: database, table: table).count() == 2)
    }

    /// A snippet: a few words around the first match in the first searchable field that has one,
    /// the matched words marked as they are written.
    @Test func aSnippetMarksTheMatchedWords() throws {
        let store = try Self.store()
        let query = Query<Note>().matching("milk caf")
        let note = try #require(try store.fetch(query).first { $0.recordName == "1" })
        let snippet = try #require(query.snippet(of: note))
        #expect(snippet.field == "body")
        #expect(snippet.text == "Buy MILK and bread at the café")
        #expect(snippet.matches.map { String(snippet.text[$0]) } == ["MILK", "café"])
        let long = Self.note("9", "Long", (1...40).map { "w\($0)" }.joined(separator: " ") + " milk " + (41...80).map { "w\($0)" }.joined(separator: " "))
        let cut = try #require(Query<Note>().matching("milk ").snippet(of: long, words: 5))
        #expect(cut.text == "…w40 milk w41 w42 w43…")
        #expect(cut.matches.map { String(cut.text[$0]) } == ["milk"])
        #expect(Query<Note>().matching("zzz").snippet(of: note) == nil)
    }

    /// Live: a search's results follow the commits that change them. The commit both adds a
    /// match and removes one, so a new answer comes whether the index follows or not: breaking
    /// the insert trigger gives ["1"].
    @Test func aSearchIsLive() async throws {
        let store = try Self.store()
        var results = store.observe(Query<Note>().matching("milk ")).makeAsyncIterator()
        #expect(try await results.next()?.map(\.recordName) == ["2", "1"])
        try store.write { writer in
            try writer.save(Self.note("5", "Shake", "milk milk milk milk"))
            try writer.delete(Self.note("2", "Cafe list"))
        }
        #expect(try await results.next()?.map(\.recordName) == ["5", "1"])
    }
}
