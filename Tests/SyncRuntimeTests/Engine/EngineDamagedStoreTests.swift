import Foundation
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncStorage
import SyncTesting

/// A store found damaged at launch, healed (`SyncStore(healing:)`), under a running engine: the
/// next pass fills the new store from the cloud and pushes the changes carried out of the damaged
/// file, merged with what other devices did meanwhile.
@Suite("Engine: a damaged store heals from the cloud")
struct EngineDamagedStoreTests {
    static let models: [any SyncModel.Type] = [Note.self, JournalEntry.self]

    /// The phone holds three changes it has not pushed (a note's title edited, a note made, a
    /// note deleted) when a page of its file is overwritten (the journal's), and a read meets it.
    /// Meanwhile the laptop edits the same note's body. At the next launch the phone's store
    /// heals: its three changes come back, and the report names them. One pass later the cloud
    /// holds all three, the edited note has both edits (the version it was made over came along:
    /// a field-by-field merge), and the phone holds every record again, the journal entry
    /// included. Breaking it (the versions the changes were made over not carried): the phone's
    /// edit, made over no version the new store knows, is merged as a whole record, and the
    /// laptop's later save wins it: the phone's title is lost.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theChangesADamagedStoreHeldReachTheCloudAndTheCloudFillsTheNewStore(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        weak var closed: SyncStore?
        do {
            let phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            closed = phone.store
            try phone.store.save([Note(recordName: "shared", title: "Title", body: "Body"), Note(recordName: "doomed", title: "Doomed")])
            try phone.store.save(JournalEntry(recordName: "monday", text: "Slept well"))
            await phone.sync()
            await laptop.sync()
            var edited = try #require(try phone.store.fetch(Note.self, recordName: "shared"))
            edited.title = "Title from the phone"
            try phone.store.save(edited)
            try phone.store.save(Note(recordName: "offline", title: "Written offline"))
            try phone.store.delete(try #require(try phone.store.fetch(Note.self, recordName: "doomed")))
        }
        world.remove("alice-phone")
        #expect(closed == nil, "the phone's store is closed")
        var fromLaptop = try #require(try laptop.store.fetch(Note.self, recordName: "shared"))
        fromLaptop.body = "Body from the laptop"
        try laptop.store.save(fromLaptop)
        await laptop.sync()

        try Self.damageJournal(of: url, clock: world.clock)
        let healed = SyncStore(healing: url, clock: world.clock)
        let report = try DamagedStoreTests.report(of: healed)
        #expect(Set(report.recovered) == [RecordKey("Note", "shared"), RecordKey("Note", "offline"), RecordKey("Note", "doomed")])
        #expect(report.notRecovered.isEmpty, "\(report.notRecovered)")
        let phone = try world.device("alice-phone", account: "alice", store: healed, models: Self.models)
        await phone.sync()
        await laptop.sync()
        for device in [phone, laptop] {
            let notes = try device.store.fetchAll(Note.self).sorted { $0.recordName < $1.recordName }
            #expect(notes.map(\.recordName) == ["offline", "shared"], "\(device.name)")
            let shared = try #require(notes.last)
            #expect(shared.title == "Title from the phone" && shared.body == "Body from the laptop", "\(device.name): \(shared)")
            #expect(try device.store.fetchAll(JournalEntry.self).map(\.text) == ["Slept well"], "\(device.name)")
        }
        #expect(try !healed.hasUnpushedChanges())
    }

    /// Overwrites the page the journal's table begins on (the store closed), and has a session
    /// meet it: SQLite's error leaves the note the next healing opening acts on.
    static func damageJournal(of url: URL, clock: any SyncClock) throws {
        try SQLiteDatabase(.file(url)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let (page, size) = try DamagedStoreTests.rootPage(of: "model_JournalEntry", in: url)
        try DamagedStoreTests.overwrite(url, at: (page - 1) * size, with: Data(repeating: 0xA5, count: size))
        let store = SyncStore(healing: url, clock: clock)
        #expect(throws: LocalStoreError.self) { try store.fetchAll(JournalEntry.self) }
    }

    /// The damaged store was Alice's, and Bob is signed in when it heals: Alice's change carried
    /// out of it is parked for her, as any of her unpushed changes at an account switch, never
    /// pushed into Bob's data. Breaking it (the account the damaged store belonged to not carried
    /// over): the new store takes the change for Bob's, and Bob's zone gets Alice's note.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aChangeCarriedOutOfAnotherAccountsStoreIsParkedForIt(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let url = world.assetFolder.appendingPathComponent("shared-phone.sqlite")
        do {
            let phone = try world.device("shared-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            try phone.store.save(JournalEntry(recordName: "monday", text: "Slept well"))
            await phone.sync()
            try phone.store.save(Note(recordName: "alices", title: "Alice's, not pushed yet"))
        }
        world.remove("shared-phone")
        try Self.damageJournal(of: url, clock: world.clock)
        try world.cloud.signIn("shared-phone", account: "bob")

        let healed = SyncStore(healing: url, clock: world.clock)
        #expect(try DamagedStoreTests.report(of: healed).recovered == [RecordKey("Note", "alices")])
        let phone = try world.device("shared-phone", account: "bob", store: healed, models: Self.models)
        await phone.sync()
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records.isEmpty ?? true)
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 1)])
        #expect(try phone.store.fetchAll(Note.self).isEmpty)
    }
}
