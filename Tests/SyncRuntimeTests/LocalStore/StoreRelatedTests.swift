import Foundation
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// Related records: models read with the record a reference or the parent points at, filtered by
/// a field of it, or by the records of another type that point at them; one SQL statement each,
/// the same answers in Swift for a query SQL cannot say; a target not in the store is a nil,
/// never an error or a dropped row; live on either type.
@Suite("Store: related records")
struct StoreRelatedTests {
    static func item(_ name: String, _ text: String, list: String?, done: Bool = false, assignee: String? = nil, tags: [String] = []) -> ListItem {
        ListItem(recordName: name, parent: list.map { RecordReference(recordName: $0) }, text: text, done: done,
                 assignee: assignee.map { RecordReference(recordName: $0) } ?? .unset, tags: tags)
    }

    static func store() throws -> SyncStore {
        let store = try SyncStore(url: nil)
        try store.save([SharedList(recordName: "groceries", title: "Groceries"), SharedList(recordName: "hardware", title: "Hardware"),
                        SharedList(recordName: "empty", title: "Empty")])
        try store.save([Member(recordName: "alice", displayName: "Alice", role: "owner"), Member(recordName: "bob", displayName: "Bob", role: "editor")])
        try store.save([
            item("1", "Milk", list: "groceries", assignee: "alice", tags: ["dairy"]),
            item("2", "Bread", list: "groceries", done: true, assignee: "bob"),
            item("3", "Nails", list: "hardware", done: true),
            item("4", "Glue", list: "hardware", done: true, assignee: "carol"),   // carol is not stored
            item("5", "Stray", list: "not-pulled-yet"),                           // nor is its list
            item("6", "Loose", list: nil),
        ])
        return store
    }

    static func names(_ items: [ListItem]) -> [String] { items.map(\.recordName) }

    /// Each item with its list, in the query's order and page; an item whose list is not stored,
    /// or that has none, comes with nil. Breaking it: an inner JOIN drops items 5 and 6.
    @Test func modelsWithTheRecordTheyPointAt() throws {
        let store = try Self.store()
        let rows = try store.fetch(Query<ListItem>().sorted(by: \.text), with: \.parent)
        #expect(rows.map(\.model.text) == ["Bread", "Glue", "Loose", "Milk", "Nails", "Stray"])
        #expect(rows.map { $0.target?.title } == ["Groceries", "Hardware", nil, "Groceries", "Hardware", nil])
        let page = try store.fetch(Query<ListItem>().sorted(by: \.text, .descending).limit(2, offset: 1), with: \.assignee)
        #expect(page.map(\.model.text) == ["Nails", "Milk"])
        #expect(page.map { $0.target?.displayName } == [nil, "Alice"])
        let found = try store.fetch(Query<ListItem>().matching("glue"), with: \.assignee)
        #expect(found.map(\.model.text) == ["Glue"] && found[0].target == nil, "a reference to a record not stored is a nil")
        #expect(try store.fetch(Query<ListItem>().filter(\.isDairy == true), with: \.parent).map { $0.target?.title } == ["Groceries"], "run in Swift")
    }

    /// Filtered by a field of the record a reference or the parent points at; a target not in
    /// the store keeps nothing, and `!` keeps it. Breaking it: the subquery selecting the
    /// targets' `rowid` rather than their `_name` keeps no item.
    @Test func filteredByAFieldOfTheTarget() throws {
        let store = try Self.store()
        let inGroceries = Query<ListItem>().filter(.references(\.parent, where: \.title == "Groceries"))
        #expect(Self.names(try store.fetch(inGroceries)) == ["1", "2"])
        #expect(Self.names(try store.fetch(Query<ListItem>().filter(!.references(\.parent, where: \.title == "Groceries")))) == ["3", "4", "5", "6"])
        #expect(Self.names(try store.fetch(Query<ListItem>().filter(.references(\.assignee, where: \.role == "owner" || \.role == "editor")))) == ["1", "2"])
        #expect(try store.count(inGroceries.filter(\.done == false)) == 1)
        #expect(Self.names(try store.fetch(inGroceries.filter(\.isDairy == true))) == ["1"], "run in Swift")
    }

    /// Filtered by the records of another type that point at it: lists with an open item, with at
    /// least two items, with none. Breaking it: the link compared with an unqualified `_name`
    /// (the item's own, inside the subquery) finds no list.
    @Test func filteredByTheRecordsThatPointAtIt() throws {
        let store = try Self.store()
        func lists(_ predicate: QueryPredicate<SharedList>) throws -> [String] { try store.fetch(Query<SharedList>().filter(predicate)).map(\.recordName) }
        #expect(try lists(.isReferenced(by: \ListItem.parent, where: \.done == false)) == ["groceries"])
        #expect(try lists(.isReferenced(by: \ListItem.parent, atLeast: 2)) == ["groceries", "hardware"])
        #expect(try lists(.isReferenced(by: \ListItem.parent, where: \.done == true, atLeast: 2)) == ["hardware"])
        #expect(try lists(!.isReferenced(by: \ListItem.parent)) == ["empty"])
        let members = try store.fetch(Query<Member>().filter(.isReferenced(by: \ListItem.assignee, where: \.done == false))).map(\.recordName)
        #expect(members == ["alice"])
        #expect(try lists(.isReferenced(by: \ListItem.parent, where: \.isDairy == true)) == ["groceries"], "the other type's query in Swift")
        let nested = QueryPredicate<SharedList>.isReferenced(by: \ListItem.parent, where: .references(\.assignee, where: \.role == "editor"))
        #expect(try lists(nested) == ["groceries"], "related conditions nest")
    }

    /// Live: a query with a related condition follows commits of the other type too. Breaking
    /// it: `isChanged(by:)` reading the model's own type only misses the list's rename.
    @Test func aRelatedQueryFollowsTheOtherType() async throws {
        let renamed = StoreCommit(changes: [StoreChange(recordType: SharedList.recordType, recordName: "groceries", kind: .save, author: .app)])
        try #require(Query<ListItem>().filter(.references(\.parent, where: \.title == "Groceries")).isChanged(by: renamed))
        #expect(!Query<ListItem>().filter(\.done == true).isChanged(by: renamed))
        let store = try Self.store()
        var results = store.observe(Query<ListItem>().filter(.references(\.parent, where: \.title == "Groceries"))).makeAsyncIterator()
        #expect(try await results.next().map(Self.names) == ["1", "2"])
        try store.save(SharedList(recordName: "groceries", title: "Food"))
        #expect(try await results.next().map(Self.names) == [])
        var joined = store.observe(Query<ListItem>().filter(\.recordName == "5"), with: \.parent).makeAsyncIterator()
        #expect(try await joined.next()?.first?.target == nil)
        try store.save(SharedList(recordName: "not-pulled-yet", title: "Arrived"))
        #expect(try await joined.next()?.first?.target?.title == "Arrived", "the list arrives: the row gets it")
    }

    /// A view's live rows: each item with its assignee, read at once and again when the
    /// assignee's type changes. Breaking it: following the item's type alone leaves carol's
    /// arrival unseen (the `#require` fails before any wait, which would never end).
    @MainActor @Test func aViewHoldsLiveRowsWithWhatTheyPointAt() async throws {
        let store = try Self.store()
        let glue = Query<ListItem>().filter(\.recordName == "4")
        let carolArrives = StoreCommit(changes: [StoreChange(recordType: Member.recordType, recordName: "carol", kind: .save, author: .app)])
        try #require(glue.isChanged(by: carolArrives, joining: Member.self))
        let live = LiveValue(store, glue, with: \.assignee)
        #expect(live.value.map(\.model.text) == ["Glue"] && live.value.first?.target == nil && live.error == nil)
        try store.save(Member(recordName: "carol", displayName: "Carol", role: "editor"))
        await StoreObservationTests.waitUntil { live.value.first?.target?.displayName == "Carol" }
        let lists = LiveValue(store, Query<ListItem>().filter(\.recordName == "5"), with: \.parent)
        #expect(lists.value.first?.target == nil)
        try store.save(SharedList(recordName: "not-pulled-yet", title: "Arrived"))
        await StoreObservationTests.waitUntil { lists.value.first?.target?.title == "Arrived" }
    }

    /// Counted per group with a related filter: the open items of lists titled Groceries.
    @Test func countsWithARelatedFilter() throws {
        let store = try Self.store()
        let count = Aggregate<ListItem, Int>.count
        let groups = try store.fetch(Query<ListItem>().filter(.references(\.parent, where: .hasPrefix(\.title, "G"))).groupedByParent(count))
        #expect(groups.map { "\($0.key ?? "-") \($0[count])" } == ["groceries 2"])
    }
}
