import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

@Suite("Engine: conflicts")
struct EngineConflictTests {
    /// Two of Alice's devices with the same note, both synced.
    static func twoDevices(_ configuration: SyncConfiguration = SyncConfiguration()) async throws -> (SyncWorld, SyncWorld.Device, SyncWorld.Device) {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", configuration: configuration)
        let laptop = try world.device("alice-laptop", account: "alice", configuration: configuration)
        try phone.store.save(Note(recordName: "n", title: "Title", body: "Body", createdAt: Date(timeIntervalSince1970: 0)))
        await world.syncAll()
        return (world, phone, laptop)
    }

    /// Changes the note "n" on a device, as the app does.
    static func edit(on device: SyncWorld.Device, sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout Note) -> Void) throws {
        var note = try #require(try device.store.fetch(Note.self, recordName: "n"), sourceLocation: sourceLocation)
        change(&note)
        try device.store.save(note)
    }

    /// Both devices hold the phone's title and the laptop's body.
    static func expectBothEdits(on devices: [SyncWorld.Device], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for device in devices {
            let note = try #require(try device.store.fetch(Note.self, recordName: "n"), sourceLocation: sourceLocation)
            #expect(note.title == "Phone title" && note.body == "Laptop body", "\(device.name)", sourceLocation: sourceLocation)
        }
    }

    @Test func editsToDifferentFieldsBothSurvive() async throws {  // trap: T20.1
        let (world, phone, laptop) = try await Self.twoDevices()
        try Self.edit(on: phone) { $0.title = "Phone title" }
        world.clock.advance(by: 1)
        try Self.edit(on: laptop) { $0.body = "Laptop body" }
        await phone.sync()
        await laptop.sync()  // meets the phone's change: merged, not overwritten
        await phone.sync()
        try Self.expectBothEdits(on: [phone, laptop])
    }

    /// The laptop's push meets the phone's edit on the server (the phone pushes between the
    /// laptop's pull and its push): the save is merged onto the server's record, so both edits
    /// survive. Breaking it: sending the laptop's whole record again with the server's change tag
    /// instead of the merge erases the phone's title everywhere.
    @Test func aConflictMetByThePushIsMergedNotOverwritten() async throws {  // trap: T20.1
        let (world, phone, laptop) = try await Self.twoDevices()
        try Self.edit(on: phone) { $0.title = "Phone title" }
        world.clock.advance(by: 1)
        try Self.edit(on: laptop) { $0.body = "Laptop body" }
        let pushedBetween = Once()
        let phoneEngine = phone.engine
        laptop.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard pushedBetween.first() else { return }
                _ = await phoneEngine.sync()
            }
        }
        let events = laptop.recordEvents()
        await laptop.sync()
        #expect(await events.events().contains(.conflictResolved(RecordID(recordName: "n", zoneID: ZoneID(zoneName: SyncConstants.defaultSyncZoneName)))))
        await phone.sync()
        // The cloud, whole: one note with the phone's title and the laptop's body.
        try world.expectCloud(is: "a-conflict-met-by-the-push-merged")
        try Self.expectBothEdits(on: [phone, laptop])
    }

    /// The app edits a note while the phone's pull waits for the page that brings the laptop's
    /// edit of it: the page is merged into the fresh edit, never written over it. Breaking it:
    /// judging "changed here" only by what was pending when the pull began writes the laptop's
    /// version over the phone's new title, and it is lost everywhere.
    @Test func anAppWriteDuringAPullIsMergedNotOverwritten() async throws {
        let (world, phone, laptop) = try await Self.twoDevices()
        try Self.edit(on: laptop) { $0.body = "Laptop body" }
        await laptop.sync()
        world.clock.advance(by: 1)
        let store = phone.store
        let editedOnce = Once()
        phone.gateway.hooks.withLock {
            $0.before[.fetchZoneChanges] = {
                guard editedOnce.first() else { return }
                // The app writes while the request is on its way.
                if var note = try? store.fetch(Note.self, recordName: "n") {
                    note.title = "Phone title"
                    try? store.save(note)
                }
            }
        }
        await phone.sync()
        await laptop.sync()
        try Self.expectBothEdits(on: [phone, laptop])
    }

    @Test func theLaterWriterWinsAFieldBothChanged() async throws {
        let (world, phone, laptop) = try await Self.twoDevices()
        try Self.edit(on: laptop) { $0.title = "Laptop (earlier)" }
        world.clock.advance(by: 10)
        try Self.edit(on: phone) { $0.title = "Phone (later)" }
        // The earlier edit reaches the server first; the later one still wins.
        await laptop.sync()
        await phone.sync()
        await laptop.sync()
        #expect(try laptop.store.fetch(Note.self, recordName: "n")?.title == "Phone (later)")
        #expect(try phone.store.fetch(Note.self, recordName: "n")?.title == "Phone (later)")
    }

    @Test func aTieGoesToTheServer() {
        let id = RecordID(recordName: "n", zoneID: ZoneID(zoneName: "Z"))
        let time = SyncFieldValue.date(Date(timeIntervalSince1970: 100))
        let ancestor = SyncRecord(recordType: "Note", id: id, fields: ["title": .string("a")])
        let local = SyncRecord(recordType: "Note", id: id, fields: ["title": .string("mine"), "clientModifiedAt": time])
        let server = SyncRecord(recordType: "Note", id: id, fields: ["title": .string("theirs"), "clientModifiedAt": time], changeTag: "7")
        let merged = RecordMerge.merge(ancestor: ancestor, local: local, server: server, policy: .lastWriterWins)
        #expect(merged.fields["title"] == .string("theirs"))
        #expect(merged.changeTag == "7")
        #expect(RecordMerge.merge(ancestor: ancestor, local: local, server: server, policy: .clientWins).fields["title"] == .string("mine"))
    }

    @Test func thePolicyCanBeSetPerModel() async throws {
        let (world, phone, laptop) = try await Self.twoDevices(SyncConfiguration(conflictPolicies: ["Note": .serverWins]))
        try Self.edit(on: laptop) { $0.title = "Laptop (first to the server)" }
        await laptop.sync()
        world.clock.advance(by: 10)
        try Self.edit(on: phone) { $0.title = "Phone (later, but the server wins)" }
        await phone.sync()
        #expect(try phone.store.fetch(Note.self, recordName: "n")?.title == "Laptop (first to the server)")
    }

    @Test func aLostReplyIsRetriedWithoutDuplicates() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "once", createdAt: Date(timeIntervalSince1970: 0)))
        world.cloud.inject(ScriptedFault(CloudError(.serverResponseLost), on: .modify, account: "alice"))
        _ = await phone.engine.sync()
        await phone.sync()
        // The cloud, whole: the note once.
        try world.expectCloud(is: "a-lost-reply-retried-once")
        #expect(try !phone.store.hasUnpushedChanges())
    }

    @Test func anEditOfARecordDeletedElsewhereLetsTheDeletionWin() async throws {
        let (_, phone, laptop) = try await Self.twoDevices()
        try phone.store.delete(Note.self, recordName: "n")
        await phone.sync()
        try Self.edit(on: laptop) { $0.title = "too late" }
        await laptop.sync()
        await laptop.sync()
        #expect(try laptop.store.fetch(Note.self, recordName: "n") == nil)
    }

    /// Saving a child can give its parent a new change tag on the server (Apple,
    /// `CKRecord.recordChangeTag`), which LocalCloud always does: the owner's next edit of the
    /// parent then meets a tag it never saw and goes through the merge, and lands. Breaking it:
    /// giving up on `serverRecordChanged`, or saving the stale tag again, leaves the title on
    /// this device only.
    @Test func anEditOfAParentWhoseChildWasSavedLands() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await phone.sync()
        try phone.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
        await phone.sync()
        var list = try #require(try phone.store.fetch(SharedList.self, recordName: "groceries"))
        list.title = "Weekly groceries"
        try phone.store.save(list)
        let events = phone.recordEvents()
        await phone.sync()
        #expect(await events.events().contains { if case .conflictResolved = $0 { true } else { false } })
        #expect(try !phone.store.hasUnpushedChanges())
        await laptop.sync()
        #expect(try laptop.store.fetch(SharedList.self, recordName: "groceries")?.title == "Weekly groceries")
        #expect(try laptop.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
    }
}
