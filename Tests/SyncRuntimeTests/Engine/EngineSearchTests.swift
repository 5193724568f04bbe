import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
import SyncCore

/// The store's text search through the engine: what a pull brings in, what it changes, what a
/// merge of two devices' edits makes and what it deletes is found, or no longer found, as soon
/// as the pass has committed it. The index is kept by the model table's triggers, in the
/// engine's own transactions: breaking it (the insert trigger left out of `SearchIndexes.make`)
/// leaves a pulled note unfound on the laptop.
@Suite("Engine: text search of synced records")
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
}
