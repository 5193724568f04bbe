import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Records CloudKit refuses: stopped at the write that makes them, and when one reaches the push
/// anyway (an older app's store, a rule the measure did not foresee), set aside without a storm
/// while the rest of the queue moves on.
@Suite("Engine: records the cloud refuses")
struct EngineRefusalTests {
    /// CloudKit's record limit is 1 MB, asset fields excluded (Apple, CloudKit Web Services
    /// Reference, "Data Size Limits": "Maximum record size (not including Asset fields): 1 MB");
    /// the store counts by `RecordSize`, as LocalCloud does.
    @Test func aRecordOverTheLimitIsRefusedAtTheWriteAndTheStoreKeepsWhatItHad() throws {  // trap: T21.2
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "n", title: "small"))
        let pending = try store.unpushedChanges().changes.count
        let big = Note(recordName: "n", title: "big", body: String(repeating: "x", count: CloudKitLimits.maxRecordBytes))
        #expect {
            try store.save(big)
        } throws: { error in
            guard case .tooLarge("Note", "n", let bytes, CloudKitLimits.maxRecordBytes) = error as? RecordRefusal else { return false }
            return bytes > CloudKitLimits.maxRecordBytes && "\(error)".contains("Note 'n'") && "\(error)".contains("1048576")
        }
        #expect(try store.fetch(Note.self, recordName: "n")?.title == "small")
        #expect(try store.unpushedChanges().changes.count == pending)
        // Just under the limit is fine.
        let fits = String(repeating: "x", count: CloudKitLimits.maxRecordBytes - 200)
        try store.save(Note(recordName: "n", title: "", body: fits))
    }

    /// Record names are ASCII, at most 255 characters, never empty, never starting with an
    /// underscore (Apple, `CKRecord.ID.init(recordName:)`: "The string must contain only ASCII
    /// characters, must not exceed 255 characters, and must not start with an underscore. If you
    /// specify an empty string for this parameter, the method throws an exception."). A control
    /// character is ASCII, and is refused too (the stricter reading: a NUL's save was once
    /// acknowledged and never sent, trap T21.31). A batch with one such record lands not at all.
    @Test(arguments: ["", "bad\u{E9}", "_system", String(repeating: "n", count: 256), "a\u{0}b", "tab\there", "del\u{7F}"])
    func aRecordNameCloudKitRejectsIsRefusedAtTheWrite(name: String) throws {
        let store = try SyncStore(url: nil)
        #expect {
            try store.save([Note(recordName: "fine"), Note(recordName: name)])
        } throws: { error in
            guard case .invalidRecordName("Note", name, _) = error as? RecordRefusal else { return false }
            return true
        }
        #expect(try store.fetchAll(Note.self).isEmpty)
        #expect(try store.unpushedChanges().changes.isEmpty)
    }

    /// A NUL in a record name is refused at the save, and the message shows where it is. Such a
    /// save was acknowledged, then never pushed, never set aside and never reported (trap
    /// T21.31). Breaking it (letting control characters through `recordNameProblem`) saves it.
    @Test func aNulInARecordNameIsRefusedSayingWhere() throws {  // trap: T21.31
        let store = try SyncStore(url: nil)
        #expect {
            try store.save(Note(recordName: "a\u{0}b"))
        } throws: { error in
            "\(error)" == "Note 'a\\u{0}b' cannot be saved: a record name cannot hold a control character, and this one holds U+0000"
        }
        #expect(try !store.hasUnpushedChanges())
    }

    /// A record that reached the queue although it can never fit (written before this check
    /// existed): as the engine's own write, then queued as the app's change.
    static func queueUnchecked(_ note: Note, in store: SyncStore) throws {
        try store.save(note, author: .sync)
        try store.sqliteTransaction { try $0.requeue(recordType: Note.recordType, recordName: note.recordName, ownerName: note.ownerName) }
    }

    /// Over the record limit (refused per item) and over the request limit on its own (refused
    /// for the whole request): either way the record is set aside with the cloud's error, the
    /// other change goes up, and an hour of a running engine sends nothing more.
    ///
    /// Breaking it: answering the single record's limitExceeded with "split the batch" and a
    /// failed pass (the shipped T21.2) never sets it aside and keeps the token, so the queue
    /// never drains and the engine sends the record again on every retry.
    @Test(arguments: [CloudKitLimits.maxRecordBytes + 1_000, CloudKitLimits.maxRequestBytes + 1_000])
    func aRecordThatCanNeverFitIsSetAsideWithoutAStorm(size: Int) async throws {  // trap: T21.2, T21.3
        let world = try SyncWorld()
        // The engine believes it may send more than one request takes, so the large record goes
        // out alone or beside the small one, as the size says.
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(maxRequestBytes: 4 * CloudKitLimits.maxRequestBytes))
        let events = phone.recordEvents()
        try Self.queueUnchecked(Note(recordName: "huge", body: String(repeating: "x", count: size)), in: phone.store)
        try phone.store.save(Note(recordName: "fine", title: "goes up"))
        await phone.engine.start()
        #expect(await eventually { (try? phone.store.hasUnpushedChanges()) == false && (try? phone.store.failedChanges().isEmpty) == false })
        let failed = try #require(try await phone.engine.failedChange(for: Note.self, recordName: "huge"))
        #expect(failed.error.code == .limitExceeded && failed.kind == .save)
        #expect(await events.events().contains(.changeSetAside(failed)))
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() == ["fine"])
        let requests = try world.cloud.counters()["requests.modify"] ?? 0
        for _ in 0..<60 {
            world.clock.advance(by: 60)
            for _ in 0..<200 { await Task.yield() }
        }
        #expect(try world.cloud.counters()["requests.modify"] ?? 0 == requests, "requests were sent for a change that cannot fit")
        // The local model keeps what the user wrote.
        #expect(try phone.store.fetch(Note.self, recordName: "huge")?.body.count == size)
        await phone.engine.stop()
    }

    /// A change set aside is sent again as soon as it changes: the user shortens the note, and it
    /// goes up; nothing stays set aside.
    @Test func aSetAsideRecordIsSentAgainOnceItChanges() async throws {  // trap: T21.3
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try Self.queueUnchecked(Note(recordName: "huge", body: String(repeating: "x", count: CloudKitLimits.maxRecordBytes + 1)), in: phone.store)
        await phone.sync()
        #expect(try await phone.engine.failedChanges().map(\.recordName) == ["huge"])
        var note = try #require(try phone.store.fetch(Note.self, recordName: "huge"))
        note.body = "short now"
        try phone.store.save(note)
        await phone.sync()
        #expect(try await phone.engine.failedChanges().isEmpty)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["huge"]?.fields["body"] == .string("short now"))
    }

    /// A record name the cloud rejects, reaching it anyway: set aside with invalidArguments, the
    /// rest of the queue goes through, and a revert removes it (the cloud never had it).
    @Test func aRecordNameTheCloudRejectsIsSetAsideAndCanBeReverted() async throws {  // trap: T21.3
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try Self.queueUnchecked(Note(recordName: "_reserved"), in: phone.store)
        try phone.store.save(Note(recordName: "fine"))
        #expect(await phone.engine.sync() == .completed)
        #expect(try await phone.engine.failedChanges().map(\.error.code) == [.invalidArguments])
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() == ["fine"])
        try await phone.engine.revertFailedChange(for: Note.self, recordName: "_reserved")
        #expect(try phone.store.fetch(Note.self, recordName: "_reserved") == nil)
        #expect(try await phone.engine.failedChanges().isEmpty)
    }

    /// A set-aside change keeps what the user wrote while other devices' edits arrive: pulled
    /// versions are merged into it, never written over it. Retried once it fits, it goes up with
    /// the other device's edit kept.
    @Test func aSetAsideChangeIsMergedWithPulledEditsAndCanBeRetried() async throws {  // trap: T21.3
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let tablet = try world.device("alice-tablet", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Title", body: "short"))
        await phone.sync()
        await tablet.sync()
        world.clock.advance(by: 5)
        try Self.queueUnchecked(Note(recordName: "n", title: "Title", body: String(repeating: "x", count: CloudKitLimits.maxRecordBytes + 1)), in: phone.store)
        await phone.sync()
        #expect(try await phone.engine.failedChanges().map(\.recordName) == ["n"])
        // The tablet edits the title; the phone pulls it into the change it set aside.
        world.clock.advance(by: 5)
        var theirs = try #require(try tablet.store.fetch(Note.self, recordName: "n"))
        theirs.title = "Tablet's title"
        try tablet.store.save(theirs)
        await tablet.sync()
        await phone.sync()
        let merged = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        #expect(merged.title == "Tablet's title" && merged.body.count == CloudKitLimits.maxRecordBytes + 1)
        // The body is cut down (not as a change of the app), and the app retries the change.
        var trimmed = merged
        trimmed.body = "long, then trimmed"
        try phone.store.save(trimmed, author: .sync)
        try await phone.engine.retryFailedChange(for: Note.self, recordName: "n")
        await phone.sync()
        #expect(try await phone.engine.failedChanges().isEmpty)
        let server = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"]
        #expect(server?.fields["title"] == .string("Tablet's title") && server?.fields["body"] == .string("long, then trimmed"))
    }
}
