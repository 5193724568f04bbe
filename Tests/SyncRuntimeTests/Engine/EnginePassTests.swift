import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// When passes run: after the app's writes, on the cloud's notifications, and exactly once more
/// for whatever arrived while one ran; never for the engine's own writes.
@Suite("Engine: passes and their triggers")
struct EnginePassTests {
    /// How many passes the device ran: each signed-in pass reads the private database once.
    static func passes(_ events: EventRecorder) async -> Int {
        await events.events().filter { $0 == .pullStarted(.private) }.count
    }

    /// Lets background tasks run for a while, without time passing.
    static func settle() async {
        for _ in 0..<2_000 { await Task.yield() }
    }

    /// Two app writes and a notification arrive while a pass uploads a file, after its push: one
    /// more pass follows, and only one. Breaking it: a request made while a pass runs is dropped
    /// (the shipped T21.6); "second", "third" and the laptop's note then wait for some later
    /// trigger and never arrive.
    @Test func triggersDuringAPassMakeExactlyOneMorePass() async throws {  // trap: T21.6
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        await laptop.sync()
        let events = phone.recordEvents()
        let gate = Gate()
        let modifies = Locked(0)
        phone.gateway.hooks.withLock {
            $0.before[.modify] = {
                // The second request of the first pass: the file's upload, after the push.
                if modifies.withLock({ count in count += 1; return count }) == 2 { await gate.wait() }
            }
        }
        try phone.store.save(Note(recordName: "first"))
        try await phone.engine.attachAsset(Data("cover".utf8), suffix: "jpg", to: \Note.cover, recordName: "first")
        await phone.engine.start()
        #expect(await eventually { gate.arrivals == 1 })
        for name in ["second", "third"] {
            try phone.store.save(Note(recordName: name))
            #expect(await eventually { world.clock.sleeperCount == 1 })
            world.clock.advance(by: phone.engine.configuration.debounce)
        }
        try laptop.store.save(Note(recordName: "from-laptop"))
        await laptop.sync()
        await Self.settle()
        gate.open()
        #expect(try await eventually {
            try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.keys.sorted() == ["first", "from-laptop", "second", "third"]
        })
        #expect(await eventually { (try? phone.store.fetch(Note.self, recordName: "from-laptop")) != nil })
        await Self.settle()
        #expect(await Self.passes(events) == 2)
        await phone.engine.stop()
    }

    /// The app's writes start a pass once they settle; what the engine writes itself (a pulled
    /// record) starts none. Breaking it: the change stream firing for the engine's writes
    /// instead of the app's (the shipped T5.1) leaves "mine" unpushed and adds a pass.
    @Test func theEngineHearsTheAppsWritesAndNotItsOwn() async throws {  // trap: T5.1, T5.3
        // LocalCloud delivers the laptop's notification to the phone's engine itself; through
        // CloudKit a push reaches the app, which hands it over (aPushTheAppReceives... below).
        let world = try SyncWorld(throughCloudKit: false)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        let events = phone.recordEvents()
        await phone.engine.start()
        #expect(await eventually { events.hasPulled(1) })
        try phone.store.save(Note(recordName: "mine"))
        #expect(await eventually { world.clock.sleeperCount == 1 })
        world.clock.advance(by: phone.engine.configuration.debounce)
        #expect(try await eventually { try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["mine"] != nil })
        #expect(await Self.passes(events) == 2)
        // The laptop's write reaches the phone by notification; applying it starts nothing.
        try laptop.store.save(Note(recordName: "theirs"))
        await laptop.sync()
        #expect(await eventually { (try? phone.store.fetch(Note.self, recordName: "theirs")) != nil })
        for _ in 0..<5 {
            world.clock.advance(by: 10)
            await Self.settle()
        }
        #expect(await Self.passes(events) == 3)
        #expect(try !phone.store.hasUnpushedChanges())
        await phone.engine.stop()
    }

    /// On Apple platforms pushes reach the app, which hands them to the engine: a push of one of
    /// the engine's subscriptions runs a pass and says whether it brought changes (the system's
    /// background fetch result); any other push is not the engine's, and nothing runs. Breaking
    /// it: answering `.newData` without looking at what the pass pulled makes the second push
    /// report new data; taking every CloudKit push as the engine's runs a pass for another
    /// engine's subscription.
    @Test func aPushTheAppReceivesRunsAPassAndSaysWhetherItBroughtChanges() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        await laptop.sync()
        try phone.store.save(Note(recordName: "from the phone"))
        await phone.sync()
        let prefix = laptop.engine.configuration.subscriptionPrefix
        let push = world.cloud.remotePayload(for: CloudNotification(subscriptionID: "\(prefix)-private", scope: .private))
        #expect(await laptop.engine.handleRemoteNotification(push) == .newData)
        #expect(try laptop.store.fetch(Note.self, recordName: "from the phone") != nil)
        #expect(await laptop.engine.handleRemoteNotification(push) == .noData)
        let passes = try world.cloud.counters()["requests.accountStatus"] ?? 0
        let other = world.cloud.remotePayload(for: CloudNotification(subscriptionID: "another-engine-private", scope: .private))
        #expect(await laptop.engine.handleRemoteNotification(other) == .notForSync)
        #expect(await laptop.engine.handleRemoteNotification(["aps": ["alert": "a chat message"]]) == .notForSync)
        #expect(await laptop.engine.handleRemoteNotification([1: "not a property list of strings"]) == .notForSync)
        #expect(try world.cloud.counters()["requests.accountStatus"] ?? 0 == passes, "a pass ran for a push that is not the engine's")
    }

    /// The system tells an app when the device's account changes (CloudKit: `CKAccountChanged`);
    /// a running engine then runs a pass, whose account check takes the switch in. Breaking it:
    /// not listening to the gateway's account changes leaves the engine idle, still holding the
    /// old account's data, until something else starts a pass.
    @Test func anAccountChangeStartsAPass() async throws {
        let world = try SyncWorld()
        let laptop = try world.device("alice-laptop", account: "alice")
        let events = laptop.recordEvents()
        await laptop.engine.start()
        #expect(await eventually { events.hasPulled(1) })
        try world.cloud.signIn("alice-laptop", account: "bob")
        #expect(await eventually { events.collectedNow().contains(.accountChanged(.switched(from: "_alice", to: "_bob"))) })
        await laptop.engine.stop()
    }

    /// Everything an engine is told comes at construction. Changing the value afterwards changes
    /// nothing, and nothing can set it: the key paths to it are read-only. Breaking it: making
    /// the context's or the engine's configuration settable turns a key path writable.
    @Test func theConfigurationIsFixedAtConstruction() throws {  // trap: T1.5
        let world = try SyncWorld()
        var configuration = SyncConfiguration(debounce: 0.5)
        let engine = SyncEngine(store: try SyncStore(url: nil), cloud: try world.cloud.device("phone", account: "alice"), schema: SyncSchema.self, clock: world.clock, configuration: configuration)
        configuration.debounce = 60
        #expect(engine.configuration.debounce == 0.5)
        let enginePath: PartialKeyPath<SyncEngine> = \SyncEngine.configuration
        #expect(!(enginePath is ReferenceWritableKeyPath<SyncEngine, SyncConfiguration>))
        let contextPath: PartialKeyPath<SyncEngine> = \SyncEngine.context
        #expect(!(contextPath is ReferenceWritableKeyPath<SyncEngine, SyncContext>))
        let configurationPath: PartialKeyPath<SyncContext> = \SyncContext.configuration
        #expect(!(configurationPath is WritableKeyPath<SyncContext, SyncConfiguration>))
    }

    /// A failure a retry may fix without a change (here a lost reply, twice) is retried at once
    /// the first time, then after a growing wait: never at once twice in a row.
    @Test func retriesBackOffAndNeverStormTheServer() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        await phone.sync()
        let events = phone.recordEvents()
        world.cloud.inject(ScriptedFault(CloudError(.serverResponseLost), times: 3, on: .fetchDatabaseChanges, account: "alice"))
        await phone.engine.start()
        #expect(await eventually { world.clock.sleeperCount == 1 })
        await Self.settle()
        let waits = await events.events().compactMap { event -> TimeInterval? in
            if case .retryScheduled(let wait, let reason) = event, reason.cloudError?.code == .serverResponseLost { wait } else { nil }
        }
        // The pass start() ran and its immediate retry failed; the next waits 1 s.
        #expect(waits == [0, 1])
        world.clock.advance(by: 1)
        #expect(await eventually { world.clock.sleeperCount == 1 && events.retries() == 3 })
        let last = await events.events().last { if case .retryScheduled = $0 { true } else { false } }
        guard case .retryScheduled(let wait, let reason) = last else { Issue.record("no retry scheduled"); return }
        #expect(wait == 2 && reason.cloudError?.code == .serverResponseLost)
        world.clock.advance(by: 2)
        #expect(await eventually { events.hasPulled(1) })
        await phone.engine.stop()
    }

    /// A pull of more records than one round of the push reads (2,000 history entries) leaves
    /// no backlog: the engine's own entries are passed at once, so the next passes read nothing
    /// of them and the status is not computed from them. Breaking it (the token moved one round
    /// a pass): the history still holds the pull's entries after the pass.
    @Test func aBigPullLeavesNoBacklogForTheNextPasses() async throws {
        let world = try SyncWorld()
        let laptop = try world.device("alice-laptop", account: "alice")
        let phone = try world.device("alice-phone", account: "alice")
        try laptop.store.save((0..<2_500).map { Note(recordName: "n\($0)", title: "note \($0)") })
        await laptop.sync()
        #expect(await phone.engine.sync() == .completed)
        #expect(try phone.store.count(Note.self) == 2_500)
        let left = try phone.store.sqliteTransaction { try $0.database.query("SELECT COUNT(*) FROM history")[0].integer(0) }
        #expect(left <= 1, "\(left) history entries left after the pass")
        try phone.store.save(Note(recordName: "mine"))
        #expect(await phone.engine.sync() == .completed)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["mine"] != nil)
    }
}

extension EventRecorder {
    /// Whether at least `count` signed-in pulls read both databases (the public catalogs are
    /// read only when due).
    func hasPulled(_ count: Int) -> Bool {
        collectedNow().filter { $0 == .pullCompleted(.shared) }.count >= count
    }

    func retries() -> Int {
        collectedNow().filter { if case .retryScheduled = $0 { true } else { false } }.count
    }
}
