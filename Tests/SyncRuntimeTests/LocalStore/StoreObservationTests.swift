import Foundation
import Observation
import Testing
import SyncCore
@testable import SyncLocalStore
@testable import SyncStorage
import SyncTesting
import SyncRuntime

/// What a screen sees of the store: the commit feed (every committed transaction, naming each
/// record it changed and whether sync made it), the live results built on it, whoever wrote, and
/// each record's sync status; and what it sees of the engine: its status. Every wait here follows
/// the event it waits for; no wall-clock limit, which a busy machine would exceed (a live
/// object's test has a time limit of minutes, reached only when broken code never changes it).
@Suite("Store and engine: what a screen sees")
struct StoreObservationTests {
    /// Counts the reads of an observed query: `where` runs once per stored model per read.
    final class Reads: Sendable {
        private let count = Locked(0)
        var total: Int { count.withLock { $0 } }
        func include(_ note: Note) -> Bool {
            count.withLock { $0 += 1 }
            return true
        }
    }

    static func titles(_ notes: [Note]) -> [String] { notes.map(\.title).sorted() }

    /// One transaction, one commit, one read: saving three notes at once emits once, with all
    /// three; a commit that changes only another type is not read at all; a rolled-back one says
    /// nothing. Breaking it: dropping `where commit.touches(type)` reads again for the checklist
    /// (one read more), and noting changes before the commit announces the rolled-back save.
    @Test func oneEmissionPerTransactionAndNoneForAnotherType() async throws {
        let store = try SyncStore(url: nil)
        try store.save(Note(recordName: "a", title: "A"))
        let commits = store.commits()
        var commitsSeen = commits.makeAsyncIterator()
        let reads = Reads()
        var results = store.observe(Note.self, where: { reads.include($0) }).makeAsyncIterator()
        #expect(try await results.next().map(Self.titles) == ["A"])
        #expect(reads.total == 1)

        try store.save([Note(recordName: "b", title: "B"), Note(recordName: "c", title: "C"), Note(recordName: "d", title: "D")])
        #expect(try await results.next().map(Self.titles) == ["A", "B", "C", "D"])
        #expect(reads.total == 1 + 4)
        let three = try #require(await commitsSeen.next())
        #expect(three.changes.map(\.recordName) == ["b", "c", "d"] && three.changes.allSatisfy { $0.kind == .save && !$0.isFromSync && $0.author == .app })

        try store.save(SharedList(recordName: "l", title: "List"))
        #expect(await commitsSeen.next()?.touches(Note.self) == false)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.write { writer in
                try writer.save(Note(recordName: "e", title: "rolled back"))
                throw Refused()
            }
        }
        try store.delete(Note.self, recordName: "a", author: .named("importer"))
        #expect(try await results.next().map(Self.titles) == ["B", "C", "D"])
        #expect(reads.total == 1 + 4 + 3, "the checklist's commit was read, or the rolled-back one")
        let deletion = try #require(await commitsSeen.next())
        #expect(deletion.changes == [StoreChange(recordType: "Note", recordName: "a", kind: .delete, author: .named("importer"))])
    }

    /// A commit that leaves the results as they were (the same note saved again, a note the
    /// filter leaves out) wakes no reader: given every chance to run, the reader has had nothing,
    /// and its next element is the next change. Breaking it (yielding after every commit of the
    /// type): the reader gets the unchanged list twice more.
    @Test func aCommitThatLeavesTheResultsAsTheyWereEmitsNothing() async throws {
        let store = try SyncStore(url: nil)
        let note = Note(recordName: "a", title: "A")
        try store.save(note)
        let seen = Locked<[[String]]>([])
        let reader = Task {
            for try await notes in store.observe(Note.self, where: { $0.title != "hidden" }) {
                seen.withLock { $0.append(Self.titles(notes)) }
            }
        }
        defer { reader.cancel() }
        #expect(await eventually { seen.withLock { $0.count } == 1 })
        try store.save(note)
        try store.save(Note(recordName: "h", title: "hidden"))
        // A yield at a time, never a sleep: the reader runs, and nothing comes.
        #expect(await staysFalse { seen.withLock { $0.count } > 1 })
        try store.save(Note(recordName: "b", title: "B"))
        #expect(await eventually { seen.withLock { $0.count } == 2 })
        #expect(seen.withLock { $0 } == [["A"], ["A", "B"]])
    }

    /// Sync's writes reach an observer as the app's do: a pulled note, a merge of a remote edit
    /// into a local one, a remote deletion, each marked as sync's. Breaking it: announcing only
    /// the app's writes (as `changes()` does) leaves the laptop's list without the phone's note.
    @Test func pulledMergedAndDeletedRecordsReachTheObserver() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        var results = laptop.store.observe(Note.self).makeAsyncIterator()
        var commits = laptop.store.commits().makeAsyncIterator()
        #expect(try await results.next() == [])

        try phone.store.save(Note(recordName: "n", title: "Milk", body: "2 litres"))
        await phone.sync()
        await laptop.sync()
        #expect(try await results.next().map(Self.titles) == ["Milk"])
        let pulled = try #require(await commits.next())
        #expect(pulled.changes == [StoreChange(recordType: "Note", recordName: "n", kind: .save, author: .sync)] && pulled.changes[0].isFromSync)

        var onLaptop = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        onLaptop.body = "1 litre"
        try laptop.store.save(onLaptop)
        #expect(try await results.next()?.first?.body == "1 litre")
        #expect(await commits.next()?.changes.first?.isFromSync == false)
        var onPhone = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        onPhone.title = "Oat milk"
        try phone.store.save(onPhone)
        await phone.sync()
        await laptop.sync()
        let merged = try #require(try await results.next()?.first)
        #expect(merged.title == "Oat milk" && merged.body == "1 litre")

        try phone.store.delete(Note.self, recordName: "n")
        await phone.sync()
        await laptop.sync()
        var emptied: [Note]? = nil
        while let next = try await results.next() {
            if next.isEmpty { emptied = next; break }
        }
        #expect(emptied == [])
        var deletion: StoreCommit?
        while deletion == nil, let commit = await commits.next() {
            if commit.changes.contains(where: { $0.kind == .delete }) { deletion = commit }
        }
        #expect(deletion?.changes == [StoreChange(recordType: "Note", recordName: "n", kind: .delete, author: .sync)])
    }

    /// A share the owner stops removes the shared records from the participant's store, and his
    /// observer hears of it as sync's deletions. Breaking it: a purge or zone removal that
    /// deletes rows without noting them, and Bob's list keeps showing Alice's groceries.
    @Test func aRevokedShareEmptiesTheParticipantsList() async throws {
        let household = try await EngineSharingTests.Household()
        let bob = household.bob
        var results = bob.store.observe(SharedList.self).makeAsyncIterator()
        #expect(try await results.next()?.map(\.recordName) == ["groceries"])
        var commits = bob.store.commits().makeAsyncIterator()
        let root = try #require(try household.alice.store.fetch(SharedList.self, recordName: "groceries"))
        try await household.alice.engine.stopSharing(root)
        await bob.sync()
        #expect(try await results.next() == [])
        var removed: [StoreChange] = []
        while removed.count < 2, let commit = await commits.next() {
            removed += commit.changes.filter { $0.kind == .delete }
        }
        #expect(Set(removed.map(\.recordName)) == ["groceries", "milk"] && removed.allSatisfy(\.isFromSync))
    }

    /// An account that signs out takes its records off the screen, and they come back when it
    /// signs in again (its parked change first, its synced note pulled after): the purge and the
    /// restore are commits like any other. Breaking it: a purge that deletes every row without
    /// noting them, and the signed-out phone keeps showing Alice's notes.
    @Test func anAccountSwitchEmptiesTheListAndSigningBackInRefillsIt() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "synced", title: "Synced"))
        await phone.sync()
        try phone.store.save(Note(recordName: "unpushed", title: "Unpushed"))
        var results = phone.store.observe(Note.self).makeAsyncIterator()
        #expect(try await results.next().map(Self.titles) == ["Synced", "Unpushed"])

        try world.cloud.signIn("phone", account: nil)
        await phone.sync()
        #expect(try await results.next() == [])
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        var refilled: [String] = []
        while refilled != ["Synced", "Unpushed"], let next = try await results.next() {
            refilled = Self.titles(next)
        }
        #expect(refilled == ["Synced", "Unpushed"])
    }

    /// A view's live query has its results at once, and follows every commit of its type, on
    /// the main actor; it stops following when released. Breaking it: a query that reads only
    /// when asked, and the view never sees the pulled note.
    @MainActor @Test func aLiveQueryFollowsTheStore() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try laptop.store.save(Note(recordName: "a", title: "Apples"))
        let query = LiveQuery(laptop.store, Note.self, sortedBy: { $0.title < $1.title })
        #expect(query.results.map(\.title) == ["Apples"] && query.error == nil)

        try phone.store.save(Note(recordName: "b", title: "Bread"))
        await phone.sync()
        await laptop.sync()
        await Self.waitUntil { query.results.map(\.title) == ["Apples", "Bread"] }
        try laptop.store.delete(Note.self, recordName: "a")
        await Self.waitUntil { query.results.map(\.title) == ["Bread"] }
    }

    /// A record's badge follows its change: waiting since the save (the engine's clock), synced
    /// once pushed, refused with the cloud's error when set aside, and the time of the conflict
    /// sync resolved on it by itself. Breaking it: reading "waiting" from the model's last save
    /// instead of its oldest waiting change dates a second edit's wait from the second edit, and
    /// a merge that notes nothing leaves `lastConflictResolution` nil.
    @Test func aRecordsStatusFollowsItsChange() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        #expect(try phone.store.syncStatus(of: Note.self, recordName: "n") == nil)
        var statuses = phone.store.observeSyncStatus(of: Note.self, recordName: "n").makeAsyncIterator()
        #expect(try await statuses.next() == .some(nil))

        let saved = world.clock.now
        try phone.store.save(Note(recordName: "n", title: "Milk"))
        #expect(try await statuses.next() == RecordSyncStatus(state: .waitingToUpload(since: saved)))
        world.clock.advance(by: 60)
        var edited = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        edited.body = "2 litres"
        try phone.store.save(edited)
        #expect(try phone.store.syncStatus(of: Note.self, recordName: "n")?.state == .waitingToUpload(since: saved))
        await phone.sync()
        #expect(try await statuses.next() == RecordSyncStatus(state: .synced))

        // Both devices edit; the phone's push meets the laptop's version and merges.
        await laptop.sync()
        var onLaptop = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        onLaptop.title = "Oat milk"
        try laptop.store.save(onLaptop)
        await laptop.sync()
        var onPhone = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        onPhone.body = "1 litre"
        try phone.store.save(onPhone)
        world.clock.advance(by: 60)
        let merging = world.clock.now
        await phone.sync()
        let afterMerge = try #require(try phone.store.syncStatus(of: Note.self, recordName: "n"))
        #expect(afterMerge.lastConflictResolution == merging && afterMerge.state == .synced)

        let refusal = FailedChange(recordType: "Note", recordName: "n", ownerName: SyncConstants.currentUserOwnerName, kind: .save,
                                   error: CloudError(.permissionFailure, "not yours"), failedAt: merging)
        try phone.store.sqliteTransaction { try $0.setAside(refusal) }
        #expect(try phone.store.syncStatus(of: Note.self, recordName: "n") == RecordSyncStatus(state: .failed(refusal), lastConflictResolution: merging))
    }

    /// A store whose history was written before entries carried their time opens, and a change
    /// waiting from then shows the model's last save as its time. Breaking it: no migration,
    /// and the first save of the reopened store fails on the missing column.
    @Test func historyWithoutTimesIsMigrated() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let clock = ManualClock()
        try SyncStore(url: url, clock: clock).save(Note(recordName: "old", title: "from before"))
        do {
            let database = try SQLiteDatabase(.file(url))
            // Made before layout steps were recorded, too.
            try database.execute("ALTER TABLE history DROP COLUMN at; DROP TABLE syncgen_migrations")
        }
        clock.advance(by: 3600)
        let reopened = try SyncStore(url: url, clock: clock)
        try reopened.save(Note(recordName: "new", title: "after"))
        #expect(try reopened.syncStatus(of: Note.self, recordName: "old")?.state == .waitingToUpload(since: clock.now - 3600))
        #expect(try reopened.syncStatus(of: Note.self, recordName: "new")?.state == .waitingToUpload(since: clock.now))
    }

    /// The engine's status after its passes: the last one that went through and when, what
    /// waits, the network gone and back. Breaking it: keeping the offline flag after a pass that
    /// reached the cloud, and the banner never goes away.
    @Test func theEngineStatusSaysHowThePassesWent() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        #expect(phone.engine.status == EngineStatus())
        var updates = phone.engine.statusUpdates().makeAsyncIterator()
        #expect(await updates.next() == EngineStatus())
        try phone.store.save(Note(recordName: "a", title: "A"))
        await phone.sync()
        #expect(phone.engine.status.phase == .idle && phone.engine.status.lastCompletedPass == world.clock.now)
        #expect(phone.engine.status.pendingChanges == 0 && phone.engine.status.lastError == nil && !phone.engine.status.isOffline)
        let completed = world.clock.now

        world.cloud.setNetworkAvailable(false, for: "alice-phone")
        try phone.store.save([Note(recordName: "b", title: "B"), Note(recordName: "c", title: "C")])
        world.clock.advance(by: 60)
        _ = await phone.engine.sync()
        let offline = phone.engine.status
        #expect(offline.isOffline && offline.pendingChanges == 2 && offline.lastCompletedPass == completed)
        #expect(offline.lastError?.cloudError?.code == .networkUnavailable)
        world.cloud.setNetworkAvailable(true, for: "alice-phone")
        await phone.sync()
        #expect(!phone.engine.status.isOffline && phone.engine.status.pendingChanges == 0 && phone.engine.status.lastError == nil)
        var latest = EngineStatus()
        while latest != phone.engine.status, let next = await updates.next() { latest = next }
        #expect(latest == phone.engine.status)
    }

    /// The status a pass's events add up to: each phase in turn, an asset transfer only inside
    /// a pass. Breaking it: taking an asset the app attached between passes for a transfer.
    @Test func theStatusFollowsAPassPhases() {
        let key = AssetKey(recordType: "Note", recordName: "n", field: "cover")
        let idle = EngineStatus()
        #expect(idle.applying(.assetStateChanged(key, .uploading)).phase == .idle)
        let starting = idle.passStarted(pendingChanges: 3)
        #expect(starting.phase == .starting && starting.pendingChanges == 3)
        let pulling = starting.applying(.pullStarted(.private))
        #expect(pulling.phase == .pulling)
        let pushing = pulling.applying(.pushStarted(items: 3))
        #expect(pushing.phase == .pushing)
        #expect(pushing.applying(.assetStateChanged(key, .uploading)).phase == .transferringAssets)
        #expect(pushing.applying(.waitingForNetwork(retryAfter: 30)).isOffline)
    }

    /// A badge and a status line follow the store and the engine the same way, on the main
    /// actor. Breaking it: a status read once, and the badge says "waiting" after the push.
    @MainActor @Test func liveStatusesFollowTheRecordAndTheEngine() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Milk"))
        let badge = LiveRecordStatus(phone.store, Note.self, recordName: "n")
        let line = LiveEngineStatus(phone.engine)
        #expect(badge.status?.state == .waitingToUpload(since: world.clock.now) && line.status.lastCompletedPass == nil)
        await phone.sync()
        await Self.waitUntil { badge.status?.state == .synced }
        await Self.waitUntil { line.status.lastCompletedPass == world.clock.now && line.status.phase == .idle }
        #expect(badge.error == nil)
    }

    /// Waits, without sleeping, until `condition` holds: each change of what it reads of an
    /// observable object is observed as it is made (on the main actor, where the objects change).
    /// Cancelling the task ends the wait: a test's time limit, which only a change that never
    /// comes (broken code) reaches, then fails the test rather than leaving it hanging.
    @MainActor
    static func waitUntil(_ condition: @MainActor () -> Bool) async {
        while !condition(), !Task.isCancelled {
            let waiting = Locked<CheckedContinuation<Void, Never>?>(nil)
            let wake: @Sendable () -> Void = { waiting.withLock { $0.take() }?.resume() }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                    waiting.withLock { $0 = resumed }
                    withObservationTracking { _ = condition() } onChange: { wake() }
                    if Task.isCancelled { wake() }
                }
            } onCancel: {
                wake()
            }
        }
    }
}
