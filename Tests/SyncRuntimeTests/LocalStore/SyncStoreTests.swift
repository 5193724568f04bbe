import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@testable import SyncStorage
import SyncRuntime
@testable import SyncLocalCloud

@Suite("Local store: models, history, tombstones")
struct SyncStoreTests {
    /// A walk holds a page, not the result: every model once, in record-name order, whatever
    /// the page size (one that divides the count included), and `body` may write the store
    /// between pages. A model saved behind the walk is never seen; with pages of one, one saved
    /// ahead is seen and one deleted ahead is not. Breaking it (the next page read from the
    /// start, or after the page's first name): models come twice, or out of order.
    @Test(arguments: [1, 3, 5, 15, 500])
    func aWalkHoldsAPageAndSeesEveryModelOnce(pageSize: Int) throws {
        let store = try SyncStore(url: nil)
        let names = (0..<15).map { String(format: "n%02d", $0 * 2) }
        try store.save(names.map { Note(recordName: $0, title: $0) })
        var seen: [String] = []
        try store.forEach(Note.self, pageSize: pageSize) { note in
            seen.append(note.recordName)
            if note.recordName == "n10" {
                try store.save([Note(recordName: "n01", title: "behind"), Note(recordName: "n11", title: "ahead")])
                try store.delete(Note.self, recordName: "n20")
            }
        }
        #expect(seen == seen.sorted() && Set(seen).count == seen.count, "in order, each once: \(seen)")
        #expect(Set(seen).isSuperset(of: names.filter { $0 != "n20" }) && !seen.contains("n01"))
        if pageSize == 1 {
            #expect(seen == names.filter { $0 <= "n10" } + ["n11"] + names.filter { $0 > "n10" && $0 != "n20" })
        }
    }

    /// `fetchAll` without a filter or an order hands back the rows as read; with them, filtered
    /// and sorted.
    @Test func fetchAllFiltersAndSortsWhenAsked() throws {
        let store = try SyncStore(url: nil)
        try store.save([Note(recordName: "b", title: "2"), Note(recordName: "a", title: "3"), Note(recordName: "c", title: "1")])
        #expect(try store.fetchAll(Note.self).map(\.recordName) == ["a", "b", "c"])
        #expect(try store.fetchAll(Note.self, where: { $0.title != "2" }, sortedBy: { $0.title < $1.title }).map(\.recordName) == ["c", "a"])
    }

    @Test func savesFetchesAndDeletesTypedModels() throws {
        let store = try SyncStore(url: nil)
        let list = SharedList(recordName: "l", title: "Groceries", color: "red")
        try store.save(list)
        #expect(try store.fetch(SharedList.self, recordName: "l") == list)
        var renamed = list
        renamed.title = "Food"
        try store.save(renamed)
        #expect(try store.fetchAll(SharedList.self) == [renamed])
        try store.delete(renamed)
        #expect(try store.fetch(SharedList.self, recordName: "l") == nil)
    }

    /// A pulled page asks which of its records are stored, and the change tags kept for them, and
    /// a pushed chunk the server versions of its records, in one read each (a JSON list of names): names with quotes, backslashes and control
    /// characters are matched exactly (an app's save refuses a control character, but a record
    /// another client made may hold one: it arrives as a pull's write). Breaking it: leaving the
    /// names unescaped makes the list unreadable, and the read fails.
    @Test func aPageOfNamesIsLookedUpInOneRead() throws {
        let store = try SyncStore(url: nil)
        let names = ["plain", "a\"quote", "back\\slash", "tab\there", "new\nline"]
        try store.save(names.prefix(3).map { Note(recordName: $0) })
        try store.save(names.suffix(2).map { Note(recordName: $0) }, author: .sync)
        let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName, ownerName: SyncConstants.currentUserOwnerName)
        try store.transaction { store in
            for (index, name) in names.prefix(3).enumerated() {
                try store.setServerRecord(SyncRecord(recordType: Note.recordType, id: RecordID(recordName: name, zoneID: zone), changeTag: "t\(index)"))
            }
        }
        let asked = names + ["missing", "a"]
        #expect(try store.transaction { try $0.storedNames(type: Note.self, among: asked) } == Set(names))
        let tags = try store.transaction { try $0.serverChangeTags(asked, in: zone) }
        #expect(tags == ["plain": "t0", "a\"quote": "t1", "back\\slash": "t2"])
        let versions = try store.transaction { try $0.serverRecords(asked, in: zone) }
        #expect(versions.mapValues(\.changeTag) == tags)
        #expect(versions.allSatisfy { $0.key == $0.value.id.recordName && $0.value.id.zoneID == zone })
    }

    /// A pulled page tells from its one read which of its records this device already holds (an
    /// echo of its own push is not applied again): only the version it keeps, and only with the
    /// model stored; a record applied earlier in the page, or without a change tag, is asked of
    /// the store. Breaking it (a kept tag alone counting as held) skips re-creating a model whose
    /// version was kept without it, and `kept` fails.
    @Test func aPageKnowsWhichVersionsThisDeviceHolds() throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "held"))
        let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName, ownerName: SyncConstants.currentUserOwnerName)
        func version(_ name: String, _ tag: String?) -> SyncRecord {
            SyncRecord(recordType: Note.recordType, id: RecordID(recordName: name, zoneID: zone), changeTag: tag)
        }
        try store.transaction { store in
            try store.setServerRecord(version("held", "t1"))
            try store.setServerRecord(version("kept", "t1"))  // its version kept, its model not stored
        }
        let page = [version("held", "t1"), version("kept", "t1"), version("new", "t1"), version("untagged", nil)]
        var reads = try store.transaction { try PulledPageReads(page, registry: ModelRegistry([Note.self]), in: $0) }
        #expect(reads.holdsThisVersion(version("held", "t1")) == true)
        #expect(reads.holdsThisVersion(version("held", "t2")) == false)
        #expect(reads.holdsThisVersion(version("kept", "t1")) == false)
        #expect(reads.holdsThisVersion(version("new", "t1")) == false)
        #expect(reads.holdsThisVersion(version("untagged", nil)) == nil)
        reads.noteApplied(version("held", "t1"))
        #expect(reads.holdsThisVersion(version("held", "t1")) == nil)
        #expect(PulledPageReads().holdsThisVersion(version("held", "t1")) == nil)
    }

    @Test func aDraftAndItsProjectionAreTwoModels() throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "same", title: "draft"))
        try store.save(PublishedNote(recordName: "same", title: "public"))
        #expect(try store.fetch(Note.self, recordName: "same")?.title == "draft")
        #expect(try store.fetch(PublishedNote.self, recordName: "same")?.title == "public")
    }

    @Test func localOnlyAndParentsArePersisted() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let note = Note(recordName: "n", cover: AssetReference(suffix: "png", byteSize: 3), draftCursor: 12)
        let item = ListItem(recordName: "i", ownerName: "_bob", parent: RecordReference(recordName: "l"), assignee: RecordReference(recordName: "m"))
        do {
            let store = try SyncStore(url: url)
            try store.save(note)
            try store.save(item)
        }
        let reopened = try SyncStore(url: url)
        #expect(try reopened.fetch(Note.self, recordName: "n") == note)
        #expect(try reopened.fetch(ListItem.self, recordName: "i") == item)
    }

    /// A change set aside with an error of a code this version does not know comes back from
    /// the store with CloudKit's number, never as another code. Breaking it: storing `code`'s raw
    /// value (-1 for `unrecognized`) or reading an unknown number as `invalidArguments` (as the
    /// store did) loses which error the cloud gave.
    @Test func aFailedChangeKeepsCloudKitsNumber() throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "n"))
        let refused = FailedChange(
            recordType: Note.recordType, recordName: "n", ownerName: SyncConstants.currentUserOwnerName, kind: .save,
            error: CloudError(cloudKitCode: 112, "a code of a later SDK"), failedAt: Date(timeIntervalSince1970: 60))
        try store.sqliteTransaction { try $0.setAside(refused) }
        let stored = try #require(try store.failedChanges().first)
        #expect(stored.error.code == .unrecognized && stored.error.cloudKitCode == 112)
        #expect(stored == refused)
    }

    @Test func fetchAllFiltersAndSorts() throws {
        let store = try SyncStore(url: nil)
        try store.save([SharedList(recordName: "a", title: "b"), SharedList(recordName: "b", title: "a"), SharedList(recordName: "c", title: "c")])
        let sorted = try store.fetchAll(SharedList.self, where: { $0.title != "c" }, sortedBy: { $0.title < $1.title })
        #expect(sorted.map(\.recordName) == ["b", "a"])
    }

    @Test func aTransactionLandsWholeOrNotAtAll() throws {
        struct Boom: Error {}
        let store = try SyncStore(url: nil)
        #expect(throws: Boom.self) {
            try store.write { writer in
                try writer.save(SharedList(recordName: "a"))
                throw Boom()
            }
        }
        #expect(try store.fetchAll(SharedList.self).isEmpty)
        #expect(try store.unpushedChanges().changes.isEmpty)
    }

    @Test func deletionsKeepTheirTombstoneValues() throws {  // trap: T6.2
        let store = try SyncStore(url: nil)
        let item = ListItem(recordName: "i", ownerName: "_alice", assignee: .unset)
        try store.save(item)
        try store.delete(item)
        let changes = try store.unpushedChanges().changes
        #expect(changes.map(\.kind) == [.save, .delete])
        #expect(changes[1].tombstone == ["recordName": "i", "ownerName": "_alice"])
        #expect(changes[1].ownerName == "_alice")
    }

    @Test func theEnginesOwnWritesAreNotPushedBack() throws {  // trap: T5.3
        let store = try SyncStore(url: nil)
        try store.save(SharedList(recordName: "mine"))
        try store.save(SharedList(recordName: "pulled"), author: .sync)
        try store.save(SharedList(recordName: "imported"), author: .named("importer"))
        let pending = try store.unpushedChanges()
        #expect(pending.changes.map(\.recordName) == ["mine", "imported"])
        #expect(pending.readThrough == 3)
    }

    @Test func pendingChangesAreJudgedFromTheWholeHistory() throws {  // trap: T5.2
        let store = try SyncStore(url: nil)
        try store.save(SharedList(recordName: "mine"))
        // The engine writes last: the newest entry is its own, yet the app's change still waits.
        try store.save(SharedList(recordName: "pulled"), author: .sync)
        #expect(try store.hasUnpushedChanges())
        try store.commitHistoryToken(try store.unpushedChanges().readThrough)
        #expect(try !store.hasUnpushedChanges())
    }

    @Test func anUncommittedTokenLeavesEveryChangePending() throws {  // trap: T3.5
        let store = try SyncStore(url: nil)
        try store.save(SharedList(recordName: "a"))
        try store.delete(SharedList.self, recordName: "a")
        let first = try store.unpushedChanges()
        // The push failed: nothing is committed, and the deletion is still there next time.
        let again = try store.unpushedChanges()
        #expect(again.changes == first.changes)
        #expect(again.changes.last?.kind == .delete)
    }

    @Test func historyIsPrunedOnceRead() throws {  // trap: T6.4
        let store = try SyncStore(url: nil)
        for index in 0..<50 { try store.save(SharedList(recordName: "l\(index)")) }
        let read = try store.unpushedChanges()
        try store.save(SharedList(recordName: "late"))
        try store.commitHistoryToken(read.readThrough)
        // Only the newest entry read (kept so sequence numbers keep growing) and the unread one stay.
        let rows = try store.database.withLock { try $0.query("SELECT COUNT(*) FROM history").first?.integer(0) }
        #expect(rows == 2)
        #expect(try store.unpushedChanges().changes.map(\.recordName) == ["late"])
    }

    @Test func sequenceNumbersKeepGrowingAfterPruning() throws {
        let store = try SyncStore(url: nil)
        try store.save(SharedList(recordName: "a"))
        try store.commitHistoryToken(try store.unpushedChanges().readThrough)
        try store.save(SharedList(recordName: "b"))
        #expect(try store.unpushedChanges().changes.map(\.recordName) == ["b"])
    }

    /// Breaking it: firing the stream for the engine's writes instead of the app's makes the
    /// first count 1 and the second 0.
    @Test func theChangeStreamHearsTheAppNotTheEngine() async throws {  // trap: T5.1
        let store = try SyncStore(url: nil)
        let heard = Locked(0)
        let changes = store.changes()
        let listener = Task {
            for await _ in changes { heard.withLock { $0 += 1 } }
        }
        try store.save(SharedList(recordName: "pulled"), author: .sync)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(heard.withLock { $0 } == 0)
        try store.save(SharedList(recordName: "mine"))
        #expect(await eventually { heard.withLock { $0 } == 1 })
        #expect(try store.unpushedChanges().changes.map(\.recordName) == ["mine"])
        listener.cancel()
    }

    /// The last known server version keeps its system fields (what the next save is based on),
    /// through reopening the store and through an account parked and restored. A store of the
    /// layout before system fields opens with its server versions kept, without them. Breaking it:
    /// dropping the column from the stored columns loses the fields, and every later save of the
    /// record is a new record to CloudKit.
    @Test func serverVersionsKeepTheirSystemFields() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        var version = Note(recordName: "n", title: "server").makeRecord()
        version.changeTag = "7"
        version.systemFields = SystemFields(archive: Data("archived by the gateway".utf8))
        do {
            let store = try SyncStore(url: url)
            try store.save(Note(recordName: "n", title: "mine"))
            try store.sqliteTransaction { try $0.setServerRecord(version) }
        }
        let reopened = try SyncStore(url: url)
        #expect(try reopened.serverRecord(version.id)?.systemFields == version.systemFields)
        _ = try reopened.sqliteTransaction { try $0.parkAndPurge(account: "alice") }
        #expect(try reopened.serverRecord(version.id) == nil)
        _ = try reopened.sqliteTransaction { try $0.restoreParked(account: "alice") }
        #expect(try reopened.serverRecord(version.id)?.systemFields == version.systemFields)

        // The layout before: no system fields column. Opening it keeps the version it holds.
        let old = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: old) }
        do {
            let store = try SyncStore(url: old)
            try store.sqliteTransaction { try $0.setServerRecord(version) }
        }
        do {
            let database = try SQLiteDatabase(.file(old))
            try database.execute("ALTER TABLE sync_records DROP COLUMN system_fields; ALTER TABLE parked_sync_records DROP COLUMN system_fields; DROP TABLE syncgen_migrations")
        }
        let migrated = try #require(try SyncStore(url: old).serverRecord(version.id))
        #expect(migrated.changeTag == "7" && migrated.systemFields == nil)
    }

    @Test func pulledRecordsKeepLocalOnlyFieldsAndReportMissingTargets() throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "n", title: "mine", draftCursor: 42))
        var remote = Note(recordName: "n", title: "theirs", draftCursor: 0).makeRecord()
        remote.changeTag = "1"
        #expect(try store.applyPulled(remote, as: Note.self).isEmpty)
        let note = try #require(try store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "theirs" && note.draftCursor == 42)
        let item = ListItem(recordName: "i", parent: RecordReference(recordName: "list"), assignee: RecordReference(recordName: "member")).makeRecord()
        #expect(try store.applyPulled(item, as: ListItem.self) == [RecordKey("SharedList", "list"), RecordKey("Member", "member")])
        // A model of another type under the target's name is not the target.
        try store.save(Note(recordName: "member"))
        #expect(try store.applyPulled(item, as: ListItem.self) == [RecordKey("SharedList", "list"), RecordKey("Member", "member")])
        // The references stay as they came: never nil-ed for a target that has not arrived.
        let stored = try #require(try store.fetch(ListItem.self, recordName: "i"))
        #expect(stored.assignee.recordName == "member" && stored.parent?.recordName == "list")  // trap: T16.1
    }

    /// The store checks a save's size from its stored form, and encodes the upload only near the
    /// limit: that holds only while the upload adds at most `uploadOverheadBound` bytes. Breaking
    /// it: a runtime field added to uploads but not to the stored form could let a record over
    /// the limit through.
    @Test func anUploadIsNeverMuchLargerThanItsStoredForm() throws {
        let text = String(repeating: "y", count: 2_000)
        let models: [any SyncModel] = [
            Note(recordName: "n", title: text, body: text, cover: AssetReference(suffix: "jpeg", byteSize: 1 << 40), draftCursor: 1),
            PublishedNote(recordName: "p", title: text, cover: AssetReference(suffix: "png", byteSize: 12), publicationLifecycle: PublicationLifecycle(state: .delisted, version: 99, publishedAt: Date())),
            ListItem(recordName: "i", ownerName: "_alice", parent: RecordReference(recordName: "list"), text: text, assignee: RecordReference(recordName: "m"), tags: ["a", text]),
            SharedList(recordName: "l", title: text, color: "red", pin: "1234"),
        ]
        for model in models {
            let stored = FieldsCodec.encode(model.encodeStoredFields()).count
            let upload = RecordSize.of(Self.upload(model))
            #expect(upload - stored <= StoreWriter.uploadOverheadBound, "\(type(of: model).recordType)")
        }
    }

    private static func upload<Model: SyncModel>(_ model: Model) -> SyncRecord {
        StoreWriter.uploadForm(of: model, modified: Date())
    }

    /// `RecordSize` is the size of the encoding it stands for, computed without encoding.
    @Test func theRecordSizeIsTheEncodedSize() {
        let fields: RecordFields = [
            "s": .string("héllo"), "i": .int64(-1), "d": .double(.pi), "t": .date(Date()), "b": .bytes(Data(count: 300)),
            "l": .location(SyncLocation(latitude: 1, longitude: 2)), "r": .reference(SyncReference(recordName: "x", action: .deleteSelf)),
            "a": .asset(SyncAsset(fileURL: URL(fileURLWithPath: "/tmp/file"))), "list": .list([.string("a"), .int64(2)]),
            String(repeating: "k", count: 200): .string(String(repeating: "v", count: 20_000)),
        ]
        #expect(RecordSize.of(fields) == FieldsCodec.encode(fields).count)
        #expect(RecordSize.of([:]) == FieldsCodec.encode([:]).count)
    }
}
