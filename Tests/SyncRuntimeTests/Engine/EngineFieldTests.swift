import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// What a save changes on the server: the fields the model sets, the fields it cleared, and
/// nothing else. CloudKit keeps a key a save leaves out, so a field is cleared by saying so, and a
/// field the model does not know (another app version's) is left alone.
@Suite("Engine: cleared fields and fields another app version wrote")
struct EngineFieldTests {
    static func server(_ world: SyncWorld, _ name: String) throws -> SyncRecord? {
        try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records[name]
    }

    /// A pulled edit lands on the model this device stores: its local-only field stays, in a page
    /// that also brings records the device never had. Breaking it: taking a page's stored model
    /// for a new one (`PageReads` answering "not stored") rebuilds it from the record alone, and
    /// the cursor resets to 0.
    @Test func aPulledEditKeepsTheLocalOnlyFields() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "first"))
        await world.syncAll()
        var here = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        here.draftCursor = 42
        try phone.store.save(here)
        await phone.sync()
        var there = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        there.title = "edited"
        try laptop.store.save([there, Note(recordName: "new", title: "new")])
        await laptop.sync()
        await phone.sync()
        let note = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "edited" && note.draftCursor == 42)
        #expect(try phone.store.fetch(Note.self, recordName: "new") != nil)
    }

    /// Setting an optional field to nil clears it everywhere, plain or encrypted. Breaking it:
    /// leaving the cleared keys out of the save (the shipped T21.10) keeps the old values on the
    /// server, and they come back on every other device.
    @Test func clearingAnOptionalFieldClearsItEverywhere() async throws {  // trap: T21.10
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "list", title: "Groceries", color: "red", pin: "1234"))
        await world.syncAll()
        #expect(try laptop.store.fetch(SharedList.self, recordName: "list")?.pin == "1234")
        var list = try #require(try phone.store.fetch(SharedList.self, recordName: "list"))
        list.color = nil
        list.pin = nil
        try phone.store.save(list)
        await world.syncAll()
        let record = try #require(try Self.server(world, "list"))
        #expect(record.fields["color"] == nil && record.encryptedFields["pin"] == nil && record.fields["title"] == .string("Groceries"))
        let onLaptop = try #require(try laptop.store.fetch(SharedList.self, recordName: "list"))
        #expect(onLaptop.color == nil && onLaptop.pin == nil)
    }

    /// A field cleared on one device while another edits a different field: the merge keeps both
    /// changes, the clearing included.
    @Test func aClearingSurvivesAMergeWithAnotherDevicesEdit() async throws {  // trap: T21.10
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "list", title: "Groceries", color: "red"))
        await world.syncAll()
        var onPhone = try #require(try phone.store.fetch(SharedList.self, recordName: "list"))
        onPhone.color = nil
        try phone.store.save(onPhone)
        var onLaptop = try #require(try laptop.store.fetch(SharedList.self, recordName: "list"))
        onLaptop.title = "Food"
        try laptop.store.save(onLaptop)
        await laptop.sync()
        await phone.sync()  // meets the laptop's edit: merged
        await laptop.sync()
        for device in [phone, laptop] {
            let list = try #require(try device.store.fetch(SharedList.self, recordName: "list"))
            #expect(list.title == "Food" && list.color == nil, "\(device.name)")
        }
        #expect(try Self.server(world, "list")?.fields["color"] == nil)
    }

    /// A device still on an older version of the app (its `Note` has only a title and a body)
    /// edits a note a newer version pinned: its save leaves `pinned` as the server has it, also
    /// when the two edit at once. Breaking it: a save that replaces the record's fields (the
    /// shipped T21.11) unpins it.
    @Test func anOlderAppVersionNeverErasesWhatANewerOneWrote() async throws {  // trap: T21.11
        let world = try SyncWorld()
        let new = try world.device("alice-phone", account: "alice")
        let old = try world.device("alice-old-ipad", account: "alice", models: [NoteVersion1.self])
        try new.store.save(Note(recordName: "n", title: "Plan", body: "Body", pinned: true))
        await new.sync()
        await old.sync()
        var onOld = try #require(try old.store.fetch(NoteVersion1.self, recordName: "n"))
        onOld.title = "Plan (edited on the old iPad)"
        try old.store.save(onOld)
        await old.sync()
        #expect(try Self.server(world, "n")?.fields["pinned"] == .int64(1))
        await new.sync()
        #expect(try new.store.fetch(Note.self, recordName: "n")?.pinned == true)

        // At once: the old iPad edits the body, the newer phone unpins; the iPad pushes last.
        world.clock.advance(by: 1)
        var onNew = try #require(try new.store.fetch(Note.self, recordName: "n"))
        onNew.pinned = false
        try new.store.save(onNew)
        await new.sync()
        world.clock.advance(by: 1)
        onOld = try #require(try old.store.fetch(NoteVersion1.self, recordName: "n"))
        onOld.body = "Body (old iPad)"
        try old.store.save(onOld)
        await old.sync()
        await new.sync()
        let record = try #require(try Self.server(world, "n"))
        #expect(record.fields["pinned"] == .int64(0) && record.fields["body"] == .string("Body (old iPad)"))
        let note = try #require(try new.store.fetch(Note.self, recordName: "n"))
        #expect(!note.pinned && note.body == "Body (old iPad)" && note.title == "Plan (edited on the old iPad)")
    }

    /// The same for an encrypted field: an older version that does not know `pin` renames the
    /// list, alone and while the newer phone changes the pin, and the pin survives (CloudKit
    /// keeps every key a save leaves out, encrypted ones too: Apple, `CKRecord.encryptedValues`
    /// holds keys as `CKRecord` does). Breaking it (LocalCloud dropping the encrypted keys a
    /// save omits, or the older save clearing them): the pin is gone.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anOlderAppVersionNeverErasesAnEncryptedFieldItDoesNotKnow(throughCloudKit: Bool) async throws {  // trap: T21.11
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let new = try world.device("alice-phone", account: "alice")
        let old = try world.device("alice-old-ipad", account: "alice", models: [SharedListVersion1.self])
        try new.store.save(SharedList(recordName: "list", title: "Groceries", pin: "1234"))
        await new.sync()
        await old.sync()
        var onOld = try #require(try old.store.fetch(SharedListVersion1.self, recordName: "list"))
        onOld.title = "Food"
        try old.store.save(onOld)
        await old.sync()
        #expect(try Self.server(world, "list")?.encryptedFields["pin"] == .string("1234"))
        await new.sync()
        #expect(try new.store.fetch(SharedList.self, recordName: "list")?.pin == "1234")

        world.clock.advance(by: 1)
        var onNew = try #require(try new.store.fetch(SharedList.self, recordName: "list"))
        onNew.pin = "9999"
        try new.store.save(onNew)
        await new.sync()
        world.clock.advance(by: 1)
        onOld = try #require(try old.store.fetch(SharedListVersion1.self, recordName: "list"))
        onOld.title = "Food and drink"
        try old.store.save(onOld)
        await old.sync()
        await new.sync()
        let record = try #require(try Self.server(world, "list"))
        #expect(record.encryptedFields["pin"] == .string("9999") && record.fields["title"] == .string("Food and drink"))
        let list = try #require(try new.store.fetch(SharedList.self, recordName: "list"))
        #expect(list.pin == "9999" && list.title == "Food and drink")
    }

    /// Detaching an asset clears its markers and its contents in the cloud: the file is not left
    /// behind where nothing points at it.
    @Test func detachingAnAssetClearsItInTheCloud() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "With a picture"))
        try await phone.engine.attachAsset(Data("picture".utf8), suffix: "png", to: \Note.cover, recordName: "n")
        await phone.sync()
        #expect(try Self.server(world, "n")?.assetContents(.first) != nil)
        var note = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        note.cover = nil
        try phone.store.save(note)
        await phone.sync()
        let record = try #require(try Self.server(world, "n"))
        #expect(record.assetContents(.first) == nil && record.fields[AssetRecordKeys.first.suffix] == nil && record.fields[AssetRecordKeys.first.size] == nil)
    }

    /// The merge decides only the keys the local model owns: a key another app version wrote is
    /// the server's, even when the local record lacks it and the server has not changed it since
    /// the ancestor. Breaking it: merging every key of either side clears `pinned` here.
    @Test func aMergeLeavesKeysTheModelDoesNotOwn() {  // trap: T21.11
        let id = RecordID(recordName: "n", zoneID: ZoneID(zoneName: "Z"))
        let ancestor = SyncRecord(recordType: "Note", id: id, fields: ["title": .string("a"), "pinned": .int64(1)])
        var local = NoteVersion1(recordName: "n", title: "mine").makeRecord()
        local.id = id
        let server = SyncRecord(recordType: "Note", id: id, fields: ["title": .string("a"), "pinned": .int64(1)], changeTag: "2")
        let merged = RecordMerge.merge(ancestor: ancestor, local: local, server: server, policy: .lastWriterWins)
        #expect(merged.fields["pinned"] == .int64(1) && !merged.clearedKeys.contains("pinned"))
        #expect(merged.fields["title"] == .string("mine"))
    }
}
