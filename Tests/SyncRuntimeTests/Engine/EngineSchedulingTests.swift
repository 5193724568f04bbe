import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// When a running engine passes: as soon as the network comes back, once however often it is
/// started, and for the first account that signs in with what was written before.
@Suite("Engine: when passes run")
struct EngineSchedulingTests {
    /// A path monitor the test moves.
    final class FakeReachability: NetworkReachability, Sendable {
        private let stream: AsyncStream<Bool>
        private let continuation: AsyncStream<Bool>.Continuation

        init() {
            (stream, continuation) = AsyncStream<Bool>.makeStream()
        }

        func availability() -> AsyncStream<Bool> { stream }
        func set(_ available: Bool) { continuation.yield(available) }
    }

    /// Offline, a pass fails and waits 10 s for the network; the path comes back and the note goes
    /// up at once, the clock never moved. Breaking it (the engine not following the path): the
    /// note waits for the 10 s to pass.
    @Test func aPassRunsAsSoonAsTheNetworkComesBack() async throws {
        let world = try SyncWorld()
        let paths = FakeReachability()
        let phone = try world.device("alice-phone", account: "alice", reachability: paths)
        world.cloud.setNetworkAvailable(false, for: phone.name)
        paths.set(false)
        try phone.store.save(Note(recordName: "n", title: "written offline"))
        let events = phone.recordEvents()
        await phone.engine.start()
        #expect(await eventually { phone.engine.status.isOffline && phone.engine.status.phase == .idle })
        #expect(await events.events().contains(.waitingForNetwork(retryAfter: 10)))
        world.cloud.setNetworkAvailable(true, for: phone.name)
        paths.set(true)
        let uploaded = await eventually {
            (try? world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"]) != nil
        }
        #expect(uploaded, "the note waited for the retry")
        await phone.engine.stop()
    }

    /// `start()` twice runs one set of background tasks: one timer and one pass for one write.
    /// Breaking it (a second start arming its own tasks): two debounce timers wait for the write.
    @Test func startingTwiceIsHarmless() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        await phone.engine.start()
        await phone.engine.start()
        #expect(await eventually { phone.engine.status.lastCompletedPass != nil && phone.engine.status.phase == .idle })
        let before = try world.cloud.counters()["requests.modify"] ?? 0
        try phone.store.save(Note(recordName: "n", title: "once"))
        // The write settles for the debounce: one timer waits on it, and the clock moves once
        // it does.
        #expect(await eventually { world.clock.sleeperCount >= 1 })
        for _ in 0..<1_000 { await Task.yield() }
        #expect(world.clock.sleeperCount == 1)
        world.clock.advance(by: 1)
        #expect(await eventually { (try? world.cloud.counters()["records.saved"]) == 1 })
        for _ in 0..<1_000 { await Task.yield() }
        #expect(try world.cloud.counters()["requests.modify"] ?? 0 == before + 1)
        await phone.engine.stop()
    }

    /// A note written before any account signed in is uploaded to the first that does, and only
    /// to it: the account that signs in later finds nothing of it.
    @Test func aChangeMadeBeforeAnyAccountGoesToTheFirstThatSignsIn() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: nil)
        try phone.store.save(Note(recordName: "n", title: "before any account"))
        #expect(await phone.engine.sync() == .completed)
        try world.cloud.signIn("phone", account: "alice")
        #expect(await phone.engine.sync() == .completed)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"] != nil)
        #expect(try !phone.store.hasUnpushedChanges())
        try world.cloud.signIn("phone", account: "bob")
        await phone.sync()
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records["n"] == nil)
    }
}
