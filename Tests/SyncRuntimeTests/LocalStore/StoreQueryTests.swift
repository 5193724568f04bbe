import Foundation
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// Typed queries of the store: each operator on each kind of field, several sort keys, pages and
/// counts, and a randomized store where every query's answer is checked against the same question
/// asked in plain Swift over every row.
@Suite("Store: typed queries")
struct StoreQueryTests {
    static let alice = Member(recordName: "alice", displayName: "Alice", role: "owner")
    static let bob = Member(recordName: "bob", displayName: "Bob", role: "member")

    static func item(_ name: String, _ text: String, parent: String? = "groceries", done: Bool = false, quantity: Double = 1,
                     assignee: Member? = nil, tags: [String] = [], note: String? = nil) -> ListItem {
        ListItem(recordName: name, parent: parent.map { RecordReference(recordName: $0) }, text: text, done: done, quantity: quantity,
                 assignee: assignee.map(RecordReference.init) ?? .unset, tags: tags, note: note)
    }

    static func store() throws -> SyncStore {
        let store = try SyncStore(url: nil)
        try store.save([
            item("1", "Milk", done: true, quantity: 2, assignee: alice, tags: ["dairy"], note: "oat"),
            item("2", "milk chocolate", quantity: 0.5, assignee: bob, tags: ["sweet", "dairy"]),
            item("3", "Bread", quantity: 1, assignee: alice),
            item("4", "Éclair", parent: "bakery", quantity: 3, tags: ["sweet"], note: ""),
            item("5", "Apples", parent: nil, done: true, quantity: 6, note: "green"),
        ])
        return store
    }

    static func names(_ store: SyncStore, _ query: Query<ListItem>) throws -> [String] {
        try store.fetch(query).map(\.recordName)
    }

    /// Each comparison on each kind of field: text by its bytes (case and accents matter),
    /// numbers by value, booleans, optional fields (nil, empty, set), lists, references, the
    /// parent; and/or/not, two-valued (a field without a value fails a comparison, and `!`
    /// keeps it). Breaking it: comparing text with Swift's `==` takes a decomposed "é" for a
    /// composed one, which SQLite, comparing bytes, does not.
    @Test func eachOperatorOnEachKindOfField() throws {
        let store = try Self.store()
        let all = Query<ListItem>()
        #expect(try Self.names(store, all) == ["1", "2", "3", "4", "5"])
        #expect(try store.fetch(all).map(\.id) == ["1", "2", "3", "4", "5"], "Identifiable by record name, for SwiftUI's lists")
        #expect(try Self.names(store, all.filter(\.text == "Milk")) == ["1"])
        #expect(try Self.names(store, all.filter(\.text != "Milk")) == ["2", "3", "4", "5"])
        #expect(try Self.names(store, all.filter(\.done == true)) == ["1", "5"])
        #expect(try Self.names(store, all.filter(\.quantity > 1)) == ["1", "4", "5"])
        #expect(try Self.names(store, all.filter(\.quantity <= 1)) == ["2", "3"])
        #expect(try Self.names(store, all.filter(\.quantity >= 2 && \.quantity < 6)) == ["1", "4"])
        #expect(try Self.names(store, all.filter(\.text < "a")) == ["1", "3", "5"], "uppercase bytes come before lowercase")
        #expect(try Self.names(store, all.filter(\.text > "z")) == ["4"], "a byte above ASCII comes after every ASCII letter")
        #expect(try Self.names(store, all.filter(.isIn(\.text, ["Bread", "Apples", "Pears"]))) == ["3", "5"])
        #expect(try Self.names(store, all.filter(.hasPrefix(\.text, "Milk"))) == ["1"])
        #expect(try Self.names(store, all.filter(.contains(\.text, "ilk"))) == ["1", "2"])
        #expect(try Self.names(store, all.filter(.contains(\.text, "ÉCL"))) == [])
        try store.save(Self.item("6", "Cafe\u{301}"))
        #expect(try Self.names(store, all.filter(\.text == "Café")) == [], "a decomposed é is other bytes than a composed one")
        #expect(try Self.names(store, all.filter(\.text == "Cafe\u{301}")) == ["6"])
        try store.delete(ListItem.self, recordName: "6")

        #expect(try Self.names(store, all.filter(\.note == nil)) == ["2", "3"])
        #expect(try Self.names(store, all.filter(\.note != nil)) == ["1", "4", "5"])
        #expect(try Self.names(store, all.filter(\.note == "")) == ["4"])
        #expect(try Self.names(store, all.filter(\.note > "a")) == ["1", "5"], "a comparison with no value is false")
        #expect(try Self.names(store, all.filter(!(\.note == "oat"))) == ["2", "3", "4", "5"], "not keeps the notes without a value")
        #expect(try Self.names(store, all.filter(.hasPrefix(\.note, "gr"))) == ["5"])

        #expect(try Self.names(store, all.filter(.contains(\.tags, "dairy"))) == ["1", "2"])
        #expect(try Self.names(store, all.filter(\.tags == ["sweet"])) == ["4"])
        #expect(try Self.names(store, all.filter(\.assignee == RecordReference(Self.alice))) == ["1", "3"])
        #expect(try Self.names(store, all.filter(.references(\.assignee, RecordReference(Self.bob)))) == ["2"])
        #expect(try Self.names(store, all.filter(.isChild(of: "groceries"))) == ["1", "2", "3"])
        #expect(try Self.names(store, all.filter(.isChild(of: "groceries") && \.done == false || \.quantity > 5)) == ["2", "3", "5"])
        #expect(try Self.names(store, all.filter(.isChild(of: "groceries")).filter(\.done == false)) == ["2", "3"], "two filters both apply")
    }

    /// Every kind of condition on the schema's fields runs in SQL over the model's table, with its
    /// sort keys and page, a list's elements and references included; one on a property that is
    /// no field runs in Swift over the rows. Breaking it: a condition without an SQL form silently
    /// dropped from the SQL, and the query returns every row.
    @Test func queriesRunInSQLWhereTheyCan() throws {
        let store = try Self.store()
        let table = try store.sqliteTransaction { try $0.changes.tables.table(for: ListItem.self) }
        let inSQL: [QueryPredicate<ListItem>] = [
            \.text == "Milk", \.quantity > 1, \.done == true, \.note == nil, .isIn(\.text, ["Bread"]), .hasPrefix(\.text, "Mi"),
            .contains(\.note, "a"), .isChild(of: "groceries"), \.assignee == RecordReference(Self.alice), \.tags == ["sweet"],
            \.recordName == "3", !(\.text == "Milk") || \.ownerName == SyncConstants.currentUserOwnerName,
            .contains(\.tags, "dairy"), !.contains(\.tags, "sweet"), .contains(\.tags, ""),
        ]
        for (index, predicate) in inSQL.enumerated() {
            let query = Query<ListItem>().filter(predicate).sorted(by: \.quantity, .descending).limit(3, offset: 1)
            #expect(QuerySQL(query, table: table, tables: { _ in nil }) != nil, "condition \(index)")
            #expect(try store.fetch(query) == query.apply(to: try store.fetchAll(ListItem.self)) { _ in .notYetInTheCloud })
        }
        let inSwift = Query<ListItem>().filter(\.isDairy == true && \.done == false)
        #expect(QuerySQL(inSwift, table: table, tables: { _ in nil }) == nil)
        #expect(try Self.names(store, inSwift) == ["2"])
    }

    /// Local-only and encrypted fields are the device's own copy like any other: both query.
    @Test func localOnlyAndEncryptedFieldsQuery() throws {
        let store = try SyncStore(url: nil)
        try store.save([Note(recordName: "a", title: "A", draftCursor: 7), Note(recordName: "b", title: "B", draftCursor: 2)])
        try store.save([SharedList(recordName: "x", title: "X", pin: "1234"), SharedList(recordName: "y", title: "Y")])
        #expect(try store.fetch(Query<Note>().filter(\.draftCursor > 5)).map(\.recordName) == ["a"])
        #expect(try store.fetch(Query<SharedList>().filter(\.pin == "1234")).map(\.recordName) == ["x"])
        let dated = Date(timeIntervalSince1970: 1_000)
        try store.save(Note(recordName: "c", title: "C", createdAt: dated))
        #expect(try store.fetch(Query<Note>().filter(\.createdAt == dated)).map(\.recordName) == ["c"])
        #expect(try store.fetch(Query<Note>().filter(\.createdAt < dated + 1)).map(\.recordName) == ["c"])
    }

    /// Several sort keys, each way; ties and a query without keys by record name; an optional
    /// key with no value first when ascending; pages and counts. Breaking it: applying the
    /// limit before sorting returns the wrong page.
    @Test func sortKeysPagesAndCounts() throws {
        let store = try Self.store()
        let byDoneThenQuantity = Query<ListItem>().sorted(by: \.done, .descending).sorted(by: \.quantity)
        #expect(try Self.names(store, byDoneThenQuantity) == ["1", "5", "2", "3", "4"])
        #expect(try Self.names(store, Query<ListItem>().sorted(by: \.note)) == ["2", "3", "4", "5", "1"])
        #expect(try Self.names(store, Query<ListItem>().sorted(by: \.note, .descending)) == ["1", "5", "4", "2", "3"])
        #expect(try Self.names(store, byDoneThenQuantity.limit(2, offset: 1)) == ["5", "2"])
        #expect(try store.count(Query<ListItem>().filter(\.done == false)) == 3)
        #expect(try store.count(Query<ListItem>().limit(2, offset: 4)) == 1)
        #expect(try Self.names(store, Query<ListItem>().limit(0)) == [])
    }

    /// An enum field sorts, compares and has a minimum and maximum by its case's name (the
    /// order its column keeps, `ScalarTypeFacts.order`), in SQL and in Swift alike; a name this
    /// version does not know takes its place among them. Breaking it: `SyncEnum` no longer
    /// `QueryComparable`, and this does not compile.
    @Test func anEnumOrdersByItsCaseName() throws {
        let store = try SyncStore(url: nil)
        let priorities: [(String, ListItem.Priority)] = [("u", .urgent), ("l", .low), ("c", .unknown("critical")), ("n", .normal)]
        try store.save(priorities.map { ListItem(recordName: $0.0, text: $0.0, priority: $0.1, assignee: .unset) })
        let sorted = Query<ListItem>().sorted(by: \.priority)
        #expect(try Self.names(store, sorted) == ["c", "l", "n", "u"])
        #expect(try Self.names(store, sorted.filter(\.isDairy == false)) == ["c", "l", "n", "u"], "in Swift")
        #expect(try Self.names(store, sorted.filter(\.priority > .low)) == ["n", "u"])
        #expect(try store.aggregate(.maximum(\ListItem.priority)) == .urgent)
        #expect(try store.aggregate(.minimum(\ListItem.priority)) == .unknown("critical"))
    }

    /// A live query of a `Query` follows the store like one of closures.
    @Test func aQueryIsObservedAndLive() async throws {
        let store = try Self.store()
        let open = Query<ListItem>().filter(\.done == false).sorted(by: \.text)
        var results = store.observe(open).makeAsyncIterator()
        #expect(try await results.next()?.map(\.recordName) == ["3", "2", "4"])
        try store.save(Self.item("6", "Butter"))
        #expect(try await results.next()?.map(\.recordName) == ["3", "6", "2", "4"])
        let live = await LiveQuery(store, open)
        #expect(await live.results.map(\.recordName) == ["3", "6", "2", "4"])
    }

    /// A randomized store, and random queries over it: each answer equals the same question
    /// asked in plain Swift over every row (the filter, the order, the page written out by hand).
    /// It keeps the query's meaning fixed whatever executes it.
    @Test(arguments: 0..<20)
    func randomQueriesMatchTheSameQuestionInSwift(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let store = try SyncStore(url: nil)
        let texts = ["Milk", "milk", "Bread", "Éclair", "apples", "Apples", "", "Zucchini", "ζ"]
        let tagPool = ["a", "b", "c"]
        var items: [ListItem] = []
        for index in 0..<60 {
            items.append(Self.item(
                String(format: "%03d", index), texts[random.below(texts.count)],
                parent: random.below(3) == 0 ? nil : ["groceries", "bakery"][random.below(2)],
                done: random.below(2) == 0, quantity: Double(random.below(7)) / 2,
                assignee: [nil, Self.alice, Self.bob][random.below(3)],
                tags: tagPool.filter { _ in random.below(2) == 0 },
                note: random.below(3) == 0 ? nil : texts[random.below(texts.count)]))
        }
        try store.save(items)

        typealias Case = (query: QueryPredicate<ListItem>, swift: (ListItem) -> Bool)
        let text = texts[random.below(texts.count)]
        let quantity = Double(random.below(7)) / 2
        let tag = tagPool[random.below(3)]
        let cases: [Case] = [
            (\.text == text, { $0.text == text }),
            (\.text < text, { $0.text.utf8.lexicographicallyPrecedes(text.utf8) }),
            (\.quantity >= quantity, { $0.quantity >= quantity }),
            (\.note == nil, { $0.note == nil }),
            (\.note >= text, { $0.note.map { !$0.utf8.lexicographicallyPrecedes(text.utf8) } ?? false }),
            (.hasPrefix(\.text, String(text.prefix(2))), { $0.text.utf8.starts(with: text.prefix(2).utf8) }),
            (.contains(\.tags, tag), { $0.tags.contains(tag) }),
            (.isChild(of: "bakery"), { $0.parent?.recordName == "bakery" }),
            (\.assignee == RecordReference(Self.bob), { $0.assignee.recordName == "bob" }),
            (.isIn(\.text, [text, "Milk"]), { [text, "Milk"].contains($0.text) }),
        ]
        for _ in 0..<10 {
            let first = cases[random.below(cases.count)], second = cases[random.below(cases.count)]
            let (predicate, swift): Case = switch random.below(4) {
            case 0: (first.query, first.swift)
            case 1: (first.query && second.query, { first.swift($0) && second.swift($0) })
            case 2: (first.query || !second.query, { first.swift($0) || !second.swift($0) })
            default: (!(first.query && second.query), { !(first.swift($0) && second.swift($0)) })
            }
            let (offset, limit) = (random.below(5), 1 + random.below(30))
            let query = Query<ListItem>().filter(predicate).sorted(by: \.done).sorted(by: \.quantity, .descending).limit(limit, offset: offset)
            let expected = items.filter(swift).sorted { a, b in
                if a.done != b.done { return !a.done }
                if a.quantity != b.quantity { return a.quantity > b.quantity }
                return a.recordName < b.recordName
            }.dropFirst(offset).prefix(limit).map(\.recordName)
            #expect(try Self.names(store, query) == Array(expected), "seed \(seed)")
            #expect(try store.fetch(query) == query.apply(to: try store.fetchAll(ListItem.self)) { _ in .notYetInTheCloud }, "SQL and Swift agree, seed \(seed)")
            #expect(try store.count(query) == expected.count)
        }
    }
}

extension SeededRandom {
    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}
