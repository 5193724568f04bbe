import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

@Suite("Engine: push and pull between devices")
struct EngineBasicsTests {
    @Test func aNoteWrittenOnOneDeviceArrivesOnAnother() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n1", title: "Buy milk", body: "2 litres", draftCursor: 7))
        await phone.sync()
        await laptop.sync()
        let note = try #require(try laptop.store.fetch(Note.self, recordName: "n1"))
        #expect(note.title == "Buy milk" && note.body == "2 litres")
        #expect(note.draftCursor == 0)  // local-only: never uploaded
    }

    @Test func editsAndDeletionsTravelToo() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n1", title: "one"))
        try phone.store.save(Note(recordName: "n2", title: "two"))
        await world.syncAll()
        var edited = try #require(try laptop.store.fetch(Note.self, recordName: "n1"))
        edited.title = "ONE"
        try laptop.store.save(edited)
        try laptop.store.delete(Note.self, recordName: "n2")
        await world.syncAll()
        #expect(try phone.store.fetch(Note.self, recordName: "n1")?.title == "ONE")
        #expect(try phone.store.fetch(Note.self, recordName: "n2") == nil)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() == ["n1"])
    }

    @Test func theEnginesOwnWritesAreNeverPushedBack() async throws {  // trap: T5.3, T16.2
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n1", title: "hello"))
        await world.syncAll()
        let before = try world.cloud.counters()["records.saved"] ?? 0
        // Many passes later, nothing pulled was pushed back: no ping-pong.
        for _ in 0..<5 { await world.syncAll() }
        #expect(try world.cloud.counters()["records.saved"] ?? 0 == before)
        #expect(try !laptop.store.hasUnpushedChanges())
    }
}
