import Foundation
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// Counts, sums, averages, minimums and maximums of a query's models, whole or per group (a
/// field, a reference, the parent), sorted and limited by a figure; in SQL, or in Swift for a
/// query SQL cannot say, with the same answers; live.
@Suite("Store: counts and sums")
struct StoreAggregateTests {
    static let alice = RecordReference<Member>(recordName: "alice")
    static let bob = RecordReference<Member>(recordName: "bob")

    static func item(_ name: String, _ text: String, list: String?, done: Bool = false, quantity: Double, priority: ListItem.Priority = .normal,
                     assignee: RecordReference<Member> = .unset, tags: [String] = []) -> ListItem {
        ListItem(recordName: name, parent: list.map { RecordReference(recordName: $0) }, text: text, done: done, quantity: quantity,
                 priority: priority, assignee: assignee, tags: tags)
    }

    static func store() throws -> SyncStore {
        let store = try SyncStore(url: nil)
        try store.save([
            item("1", "Milk", list: "groceries", quantity: 2, priority: .urgent, assignee: alice, tags: ["dairy"]),
            item("2", "Bread", list: "groceries", done: true, quantity: 1, assignee: bob),
            item("3", "Eggs", list: "groceries", quantity: 12, priority: .urgent, assignee: alice, tags: ["dairy"]),
            item("4", "Nails", list: "hardware", quantity: 100),
            item("5", "Glue", list: "hardware", done: true, quantity: 1, priority: .low, assignee: bob),
            item("6", "Loose", list: nil, quantity: 3),
        ])
        return store
    }

    static let count = Aggregate<ListItem, Int>.count
    static let quantity = Aggregate<ListItem, Double>.sum(\.quantity)
    static let average = Aggregate<ListItem, Double?>.average(\.quantity)
    static let first = Aggregate<ListItem, String?>.minimum(\.text)
    static let last = Aggregate<ListItem, String?>.maximum(\.text)

    /// Figures of a whole query; of none, a count and a sum of 0, an average and extremes of nil,
    /// never a NaN. Breaking it: reading `AVG` of no row as 0 gives an average of 0.
    @Test func figuresOfAQuery() throws {
        let store = try Self.store()
        let open = Query<ListItem>().filter(\.done == false)
        #expect(try store.aggregate(.count, of: open) == 4)
        #expect(try store.aggregate(.sum(\.quantity), of: open) == 117)
        #expect(try store.aggregate(.average(\.quantity), of: open) == 29.25)
        #expect(try store.aggregate(.minimum(\.text), of: open) == "Eggs")
        #expect(try store.aggregate(.maximum(\.quantity), of: open) == 100)
        #expect(try store.aggregate(.count, of: Query<ListItem>()) == 6, "every model")
        #expect(try store.aggregate(.count, of: open.limit(2)) == 2, "the query's page chooses the models")
        let none = Query<ListItem>().filter(\.text == "Caviar")
        #expect(try store.aggregate(.count, of: none) == 0)
        #expect(try store.aggregate(.sum(\.quantity), of: none) == 0)
        #expect(try store.aggregate(.average(\.quantity), of: none) == nil)
        #expect(try store.aggregate(.minimum(\.text), of: none) == nil)
        #expect(try SyncStore(url: nil).aggregate(.average(\.quantity), of: Query<ListItem>()) == nil, "a type never stored")
    }

    /// A sum of integers is exact up to `Int64.max`, and one past it throws rather than round.
    /// Breaking it: summing as doubles gives 9223372036854775808.
    @Test func sumsOfIntegersStayExact() throws {
        let store = try SyncStore(url: nil)
        try store.save([Note(recordName: "a", draftCursor: Int64.max - 1), Note(recordName: "b", draftCursor: 1)])
        #expect(try store.aggregate(.sum(\.draftCursor), of: Query<Note>()) == Int64.max)
        #expect(try store.aggregate(.average(\.draftCursor), of: Query<Note>()) == Double(Int64.max) / 2)
        try store.save(Note(recordName: "c", draftCursor: 1))
        #expect(throws: (any Error).self) { try store.aggregate(.sum(\.draftCursor), of: Query<Note>()) }
    }

    /// Per parent, per reference, per field: the groups with models, ordered by key (no key
    /// first), or by a figure, and limited.
    @Test func figuresPerGroup() throws {
        let store = try Self.store()
        let open = Query<ListItem>().filter(\.done == false)
        let perList = try store.fetch(open.groupedByParent(Self.count, Self.quantity, Self.average))
        #expect(perList.map(\.key) == [nil, "groceries", "hardware"])
        #expect(perList.map { $0[Self.count] } == [1, 2, 1])
        #expect(perList.map { $0[Self.quantity] } == [3, 14, 100])
        #expect(perList.map { $0[Self.average] } == [3, 7, 100])

        let busiest = try store.fetch(Query<ListItem>().groupedByParent(Self.count, Self.quantity).sorted(by: Self.count, .descending).limit(2))
        #expect(busiest.map(\.key) == ["groceries", "hardware"], "three items, then two; ties by key")
        let heaviest = try store.fetch(Query<ListItem>().groupedByParent(Self.quantity).sorted(by: Self.quantity, .descending).limit(1, offset: 1))
        #expect(heaviest.map(\.key) == ["groceries"])

        let perAssignee = try store.fetch(Query<ListItem>().grouped(by: \.assignee, Self.count, Self.first))
        #expect(perAssignee.map { $0.key?.recordName } == [nil, "alice", "bob"])
        #expect(perAssignee.map { $0[Self.count] } == [2, 2, 2])
        #expect(perAssignee.map { $0[Self.first] } == ["Loose", "Eggs", "Bread"])

        let perPriority = try store.fetch(Query<ListItem>().grouped(by: \.priority, Self.count).sortedByKey(.descending))
        #expect(perPriority.map(\.key) == [.urgent, .normal, .low], "by the stored names, descending")
        #expect(perPriority.map { $0[Self.count] } == [2, 3, 1])
    }

    /// A query SQL cannot say (a property that is no field) is grouped in Swift, with the answers SQL
    /// gives for the same models. Breaking it: the Swift fold's sum of doubles left at 0.
    @Test func aQueryRunInSwiftGroupsAlike() throws {
        let store = try Self.store()
        let dairy = Query<ListItem>().filter(\.isDairy == true)
        let urgent = Query<ListItem>().filter(\.priority == .urgent)   // the same models, in SQL
        let inSwift = try store.fetch(dairy.groupedByParent(Self.count, Self.quantity, Self.average, Self.first, Self.last))
        let inSQL = try store.fetch(urgent.groupedByParent(Self.count, Self.quantity, Self.average, Self.first, Self.last))
        #expect(inSwift == inSQL)
        #expect(inSwift.first?[Self.quantity] == 14)
        #expect(try store.aggregate(.sum(\.quantity), of: dairy) == 14)
        #expect(try store.aggregate(.count, of: dairy.filter(\.text == "Caviar")) == 0)
    }

    /// A figure of a search: the matches alone are counted.
    @Test func figuresOfASearch() throws {
        let store = try Self.store()
        #expect(try store.aggregate(.count, of: Query<ListItem>().matching("DAIRY ")) == 2)
        let perList = try store.fetch(Query<ListItem>().matching("e").groupedByParent(Self.count))
        #expect(perList.map(\.key) == ["groceries"], "Eggs")
    }

    /// A view's live count and groups: read at once (a view's first frame has them), then
    /// following the commits. Breaking it: a value read only at first never becomes 5, and the
    /// time limit ends the wait with a failure.
    @MainActor @Test(.timeLimit(.minutes(2))) func aViewHoldsALiveCountAndLiveGroups() async throws {
        let store = try Self.store()
        let open = LiveValue(store, .count, of: Query<ListItem>().filter(\.done == false))
        #expect(open.value == 4 && open.error == nil)
        try store.save(Self.item("7", "Soap", list: "groceries", quantity: 1))
        await StoreObservationTests.waitUntil { open.value == 5 }
        let perList = LiveValue(store, Query<ListItem>().groupedByParent(Self.count))
        #expect(perList.value.map { $0[Self.count] } == [1, 4, 2])
        try store.delete(ListItem.self, recordName: "6")
        await StoreObservationTests.waitUntil { perList.value.map { $0[Self.count] } == [4, 2] }
        let sum = LiveValue(store, .sum(\.quantity), of: Query<ListItem>().filter(\.text == "Soap"))
        #expect(sum.value == 1)
    }

    /// Live: a count follows the commits that change it, and only those.
    @Test func aCountIsLive() async throws {
        let store = try Self.store()
        var counts = store.observe(.count, of: Query<ListItem>().filter(\.done == false)).makeAsyncIterator()
        #expect(try await counts.next() == 4)
        try store.save(Self.item("7", "Soap", list: "groceries", quantity: 1))
        #expect(try await counts.next() == 5)
        var groups = store.observe(Query<ListItem>().groupedByParent(Self.count)).makeAsyncIterator()
        #expect(try await groups.next()?.map { $0[Self.count] } == [1, 4, 2])
        try store.delete(ListItem.self, recordName: "6")
        #expect(try await groups.next()?.map { $0[Self.count] } == [4, 2])
    }
}
