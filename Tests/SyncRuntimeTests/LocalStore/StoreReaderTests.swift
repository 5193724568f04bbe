import Foundation
@_spi(SyncgenGenerated) import SyncCore
import Testing
@testable import SyncLocalStore
import SyncStorage

/// How long a wait of these tests may last before it counts as stuck: only a broken build reaches
/// it (a read stuck behind the write it should not wait for), never a busy machine. Every wait
/// ends on the event it waits for; the bound only keeps a broken build from hanging CI. (It was
/// 60 s, which a loaded 2-core machine running the whole suite exceeded: issue 57.)
private let backstop: DispatchTimeInterval = .seconds(600)

/// A store in a file reads on connections of its own: a screen's read returns while sync holds a
/// write transaction open, and sees the last commit, never part of the transaction in flight.
@Suite("Local store: reads beside a write")
struct StoreReaderTests {
    /// A transaction held open on a thread of its own until the test lets it go: what it wrote
    /// before the gate is in flight, not committed.
    final class HeldWrite: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var boundRanOut = false

        /// Runs `write` on a thread of its own, with `hold` to call where it waits at the gate.
        init(_ write: @escaping @Sendable (_ hold: () -> Void) throws -> Void) {
            Thread {
                try? write {
                    self.entered.signal()
                    // The bound only ends a test that already failed: a read that waited for this
                    // transaction would wait for ever.
                    if self.gate.wait(timeout: .now() + backstop) == .timedOut { self.lock.withLock { self.boundRanOut = true } }
                }
                self.finished.signal()
            }.start()
            entered.wait()
        }

        /// Lets the transaction commit, and waits until it has.
        func release() {
            gate.signal()
            finished.wait()
        }

        /// Whether the gate opened because its bound ran out, not because the test let it: a read
        /// stuck behind the transaction.
        var timedOut: Bool { lock.withLock { boundRanOut } }
    }

    private func fileStore() throws -> (SyncStore, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString)")
        return (try SyncStore(url: folder.appendingPathComponent("store.sqlite")), folder)
    }

    /// The app's reads (a fetch, all models, a query, a count, a walk, an observation's first
    /// answer, a record's status) return while the engine's transaction is open, and see neither
    /// of the two models it saved. Breaking it (the reads back on the writer's connection, under
    /// the store's lock): the reads wait for the gate's bound and then see the new models.
    @Test func readsReturnWhileSyncHoldsATransactionAndSeeTheLastCommit() async throws {
        let (store, folder) = try fileStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.save(Note(recordName: "a", title: "before"))
        let write = HeldWrite { hold in
            try store.write(author: .sync) { writer in
                try writer.save(Note(recordName: "b", title: "pulled"))
                try writer.save(Note(recordName: "a", title: "pulled"))
                hold()
            }
        }
        #expect(try store.fetch(Note.self, recordName: "a")?.title == "before")
        #expect(try store.fetch(Note.self, recordName: "b") == nil)
        #expect(try store.fetchAll(Note.self).map(\.title) == ["before"])
        #expect(try store.fetch(Query<Note>()).map(\.recordName) == ["a"])
        #expect(try store.count(Note.self) == 1)
        var walked: [String] = []
        try store.forEach(Note.self) { walked.append($0.recordName) }
        #expect(walked == ["a"])
        #expect(try store.syncStatus(of: Note.self, recordName: "b") == nil)
        var answers = store.observe(Note.self).makeAsyncIterator()
        let first = try await answers.next()?.map(\.title)
        #expect(first == ["before"])
        #expect(!write.timedOut, "the reads waited for the write")
        write.release()
        #expect(try store.fetchAll(Note.self).map(\.title) == ["pulled", "pulled"])
        // The commit reaches the observer (had the first answer come after it, no other would).
        if first == ["before"] { #expect(try await answers.next()?.map(\.title) == ["pulled", "pulled"]) }
    }

    /// Dropping columns waits for the read in flight, and no read starts until it is done: a
    /// read's statement never names a column gone. Breaking it (`excludingReads` running at
    /// once): the exclusion never waits, and runs while the read holds its reader.
    @Test func anExclusionWaitsForTheReadInFlight() throws {
        let (store, folder) = try fileStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.save(Note(recordName: "a"))
        let exclusionWaits = DispatchSemaphore(value: 0)
        let readers = SQLiteReaders(folder.appendingPathComponent("store.sqlite"), capacity: 2) { if $0 == .exclusion { exclusionWaits.signal() } }
        let events = Locked<[String]>([])
        let reading = DispatchSemaphore(value: 0), letReadEnd = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            _ = try? readers.read { _ in
                reading.signal()
                _ = letReadEnd.wait(timeout: .now() + backstop)
                events.withLock { $0.append("read ends") }
            }
            done.signal()
        }.start()
        reading.wait()
        Thread {
            readers.excludingReads { events.withLock { $0.append("excluding") } }
            done.signal()
        }.start()
        // The bound only ends a test that already failed (an exclusion that does not wait).
        #expect(exclusionWaits.wait(timeout: .now() + backstop) == .success, "the exclusion waited for the read")
        letReadEnd.signal()
        done.wait()
        done.wait()
        #expect(events.withLock { $0 } == ["read ends", "excluding"])
    }

    /// A read beyond the readers' number waits for one to come back, then runs on it: no more
    /// connections than the capacity are opened. Breaking it (no limit): the second read opens
    /// a reader of its own at once.
    @Test func aReadBeyondTheCapacityWaitsForAReader() throws {
        let (store, folder) = try fileStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.save(Note(recordName: "a"))
        let readWaits = DispatchSemaphore(value: 0)
        let readers = SQLiteReaders(folder.appendingPathComponent("store.sqlite"), capacity: 1) { if $0 == .read { readWaits.signal() } }
        let events = Locked<[String]>([])
        let reading = DispatchSemaphore(value: 0), letReadEnd = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let first = Locked<ObjectIdentifier?>(nil)
        let second = Locked<ObjectIdentifier?>(nil)
        Thread {
            _ = try? readers.read { database in
                first.withLock { $0 = ObjectIdentifier(database) }
                reading.signal()
                _ = letReadEnd.wait(timeout: .now() + backstop)
                events.withLock { $0.append("first ends") }
            }
            done.signal()
        }.start()
        reading.wait()
        Thread {
            _ = try? readers.read { database in
                events.withLock { $0.append("second reads") }
                second.withLock { $0 = ObjectIdentifier(database) }
            }
            done.signal()
        }.start()
        #expect(readWaits.wait(timeout: .now() + backstop) == .success, "the second read waited")
        letReadEnd.signal()
        done.wait()
        done.wait()
        #expect(events.withLock { $0 } == ["first ends", "second reads"])
        #expect(first.withLock { $0 } != nil && first.withLock { $0 } == second.withLock { $0 }, "the second read ran on the one reader")
    }
}
