import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// The store's text search, counts and sums, and related reads through the engine: what a pull brings in, what it
/// changes, what a merge of two devices' edits makes and what it deletes is found, counted, or no
/// longer, as soon as the pass has committed it. The index is kept by the model table's triggers, in the
/// engine's own transactions: breaking it (the insert trigger left out of `SearchIndexes.make`)
/// leaves a pulled note unfound on the laptop.
@Suite("Engine: searching and counting synced records")
struct EngineSearchTests {
    static func found(_ text: String, on device: SyncWorld.Device) throws -> [String] {
        try device.store.fetch(Query<Note>().matching(text)).map(\.recordName).sorted()
    }

    @Test func pulledMergedAndDeletedRecordsAreSearchedAtOnce() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n1", title: "Groceries", body: "Milk and bread"))
        try phone.store.save(Note(recordName: "n2", title: "Trip", body: "Train to Zürich"))
        await phone.sync()
        await laptop.sync()
        #expect(try Self.found("milk ", on: laptop) == ["n1"], "pulled")
        #expect(try Self.found("zurich ", on: laptop) == ["n2"], "accents aside")

        // Each device edits a field of n1 offline: the merge keeps both, and finds both.
        var onPhone = try #require(try phone.store.fetch(Note.self, recordName: "n1"))
        onPhone.body = "Oat drink and bread"
        try phone.store.save(onPhone)
        var onLaptop = try #require(try laptop.store.fetch(Note.self, recordName: "n1"))
        onLaptop.title = "Weekend shopping"
        try laptop.store.save(onLaptop)
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        for device in [phone, laptop] {
            #expect(try Self.found("oat weekend ", on: device) == ["n1"], "\(device.name): the merged record")
            #expect(try Self.found("milk ", on: device) == [], "\(device.name): the words the edit removed")
        }

        try phone.store.delete(Note.self, recordName: "n2")
        await phone.sync()
        await laptop.sync()
        #expect(try Self.found("zurich ", on: laptop) == [], "deleted by the pull")
        #expect(try laptop.store.count(Query<Note>().matching("train")) == 0)
    }

    /// Each list's open items, counted on a device that pulled them, read with their list, and
    /// again once a pull deleted one: figures and related reads read the rows the engine's
    /// passes commit, nothing of their own.
    @Test func pulledItemsAreCountedAndReadWithTheirList() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        for (name, text) in [("milk", "Milk"), ("eggs", "Eggs")] {
            try phone.store.save(ListItem(recordName: name, parent: RecordReference(recordName: "groceries"), text: text, quantity: 2, assignee: .unset))
        }
        await phone.sync()
        await laptop.sync()
        let count = Aggregate<ListItem, Int>.count
        let quantity = Aggregate<ListItem, Double>.sum(\.quantity)
        let open = Query<ListItem>().filter(\.done == false).groupedByParent(count, quantity)
        #expect(try laptop.store.fetch(open).map { "\($0.key ?? "") \($0[count]) \($0[quantity])" } == ["groceries 2 4.0"])
        #expect(try laptop.store.fetch(Query<ListItem>(), with: \.parent).map { "\($0.model.text) in \($0.target?.title ?? "-")" } == ["Eggs in Groceries", "Milk in Groceries"])
        #expect(try laptop.store.fetch(Query<SharedList>().filter(.isReferenced(by: \ListItem.parent, atLeast: 2))).map(\.title) == ["Groceries"])
        try phone.store.delete(ListItem.self, recordName: "eggs")
        await phone.sync()
        await laptop.sync()
        #expect(try laptop.store.fetch(open).map { "\($0.key ?? "") \($0[count]) \($0[quantity])" } == ["groceries 1 2.0"])
        #expect(try laptop.store.fetch(Query<SharedList>().filter(.isReferenced(by: \ListItem.parent, atLeast: 2))).isEmpty)
    }
}
