import Foundation
import Observation
import Testing
@testable import SyncLocalStore
import SyncRuntime

/// What a screen sees of the store: the commit feed (every committed transaction, naming each
/// record it changed and whether sync made it) and the live results built on it, whoever wrote.
@Suite("Store: commits and live results", .timeLimit(.minutes(1)))
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
        await Self.waitUntil(query) { $0.map(\.title) == ["Apples", "Bread"] }
        try laptop.store.delete(Note.self, recordName: "a")
        await Self.waitUntil(query) { $0.map(\.title) == ["Bread"] }
    }

    /// Waits, without sleeping, until the query's results satisfy `condition`: each change of
    /// `results` is observed as it is made (on the main actor, where the query updates them).
    @MainActor
    static func waitUntil<Model: SyncModel>(_ query: LiveQuery<Model>, _ condition: ([Model]) -> Bool) async {
        while !condition(query.results) {
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                withObservationTracking { _ = query.results } onChange: { resumed.resume() }
            }
        }
    }
}
