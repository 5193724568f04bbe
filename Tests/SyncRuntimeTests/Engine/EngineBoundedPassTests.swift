import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Passes the app bounds or narrows (`sync(_: SyncOptions)`): a background window's deadline, the
/// expiration handler's `endPassSoon()`, fetching only, sending only.
@Suite("Engine: bounded and partial passes")
struct EngineBoundedPassTests {
    /// The laptop's five notes, pulled one page at a time by a phone whose store is a file; each
    /// page takes 10 s of the phone's clock.
    struct Scenario {
        let world: SyncWorld
        let url: URL
        let phone: SyncWorld.Device
        let laptop: SyncWorld.Device

        init() async throws {
            world = try SyncWorld()
            url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
            phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: 1), store: SyncStore(url: url, clock: world.clock))
            laptop = try world.device("alice-laptop", account: "alice")
            await phone.sync()
            try laptop.store.save((1...5).map { Note(recordName: "n\($0)", title: "note \($0)") })
            await laptop.sync()
            let clock = world.clock
            phone.gateway.hooks.withLock { $0.after[.fetchZoneChanges] = { clock.advance(by: 10) } }
        }

        func restartedPhone() throws -> SyncWorld.Device {
            try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: 1), store: SyncStore(url: url, clock: world.clock))
        }
    }

    /// A pass with 15 s left applies two pages and stops before the third request, saying so;
    /// the phone reopened from its file (the app killed at the deadline) goes on from there, and
    /// ends with the five notes, once each. The stopped pass is no completed one: the status
    /// keeps the last that went through. Breaking it (the deadline not checked): the pass pulls
    /// all five and completes; (a stopped pass counted as completed): the status says it is.
    @Test func aPassStopsAtItsDeadlineWithWhatItDidCommitted() async throws {
        let scenario = try await Scenario()
        let phone = scenario.phone
        let completedBefore = try #require(phone.engine.status.lastCompletedPass)
        let result = await phone.engine.sync(.all.until(scenario.world.clock.now + 15))
        #expect(result == .stopped(pendingChanges: 0))
        let status = phone.engine.status
        #expect(status.lastCompletedPass == completedBefore && status.phase == .idle && status.lastError == nil)
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["n1", "n2"], "\((try? phone.store.fetchAll(Note.self).map(\.recordName)) ?? [])")
        let reopened = try scenario.restartedPhone()
        #expect(await reopened.engine.sync() == .completed)
        #expect(try reopened.store.fetchAll(Note.self).map(\.recordName) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(try !reopened.store.hasUnpushedChanges())
        // A bounded pass leaves nothing armed: a call outside a pass goes out after its deadline.
        #expect(try await phone.engine.share(of: SharedList(recordName: "none")) == nil)
    }

    /// The expiration handler ends the pass that runs: it stops before its next request.
    /// Breaking it (`endPassSoon` not heard): the pass pulls everything.
    @Test func theAppEndsARunningPass() async throws {
        let scenario = try await Scenario()
        let phone = scenario.phone
        let held = Gate()
        phone.gateway.hooks.withLock { $0.before[.fetchZoneChanges] = { await held.wait() } }
        let engine = phone.engine
        let pass = Task { await engine.sync() }
        #expect(await eventually { held.arrivals > 0 })
        await engine.endPassSoon()
        held.open()
        #expect(await pass.value == .stopped(pendingChanges: 0))
        #expect(try phone.store.fetchAll(Note.self).count == 1, "\((try? phone.store.fetchAll(Note.self).map(\.recordName)) ?? [])")
    }

    /// Fetching only brings the laptop's notes and sends none of the phone's; sending only sends
    /// the phone's and brings nothing. Breaking it (the options ignored): each does both.
    @Test func aPassFetchesOnlyOrSendsOnly() async throws {
        let scenario = try await Scenario()
        let (world, phone) = (scenario.world, scenario.phone)
        phone.gateway.hooks.withLock { $0.after[.fetchZoneChanges] = nil }
        try phone.store.save(Note(recordName: "mine", title: "from the phone"))
        #expect(await phone.engine.sync(.sendOnly) == .completed)
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["mine"])
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["mine"] != nil)
        try phone.store.save(Note(recordName: "later", title: "not sent"))
        #expect(await phone.engine.sync(.fetchOnly) == .completed)
        #expect(try phone.store.fetchAll(Note.self).count == 7)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["later"] == nil)
        #expect(try phone.store.hasUnpushedChanges())
    }

    /// Callers that ask for a pass while one runs share the next (`sync(_:)`): a fetch-only and
    /// a send-only caller get one pass that does both halves, and two callers with deadlines get
    /// one bounded by the earlier (a background window is never overrun). Breaking
    /// `SyncOptions.merged` (a half dropped, or the later deadline kept): the phone's note stays
    /// unsent or the laptop's stay away; the pass runs past the earlier deadline.
    @Test func callersSharingAPassGetBothHalvesAndTheEarliestDeadline() async throws {
        let scenario = try await Scenario()
        let (world, phone) = (scenario.world, scenario.phone)
        let engine = phone.engine
        try phone.store.save(Note(recordName: "mine", title: "from the phone"))

        /// A pass that does nothing runs, held at its first request; `callers` ask for passes
        /// meanwhile, and the pass is let go once they all wait; returns their results.
        func shared(_ callers: [SyncOptions]) async -> [SyncEngine.PassResult] {
            let (held, once) = (Gate(), Once())
            phone.gateway.hooks.withLock { $0.before[.accountStatus] = { if once.first() { await held.wait() } } }
            let first = Task { await engine.sync(SyncOptions(pull: false, push: false, transferAssets: false)) }
            #expect(await eventually { held.arrivals > 0 })
            let tasks = callers.map { options in Task { await engine.sync(options) } }
            while await engine.callersWaitingForTheNextPass < callers.count { await Task.yield() }
            held.open()
            _ = await first.value
            phone.gateway.hooks.withLock { $0.before[.accountStatus] = nil }
            var results: [SyncEngine.PassResult] = []
            for task in tasks { results.append(await task.value) }
            return results
        }

        let now = world.clock.now
        #expect(await shared([SyncOptions.all.until(now + 15), SyncOptions.all.until(now + 1000)]) == [.stopped(pendingChanges: 1), .stopped(pendingChanges: 1)])
        #expect(try phone.store.fetchAll(Note.self).count == 3, "\((try? phone.store.fetchAll(Note.self).map(\.recordName)) ?? [])")
        phone.gateway.hooks.withLock { $0.after[.fetchZoneChanges] = nil }
        #expect(await shared([.fetchOnly, .sendOnly]) == [.completed, .completed])
        #expect(try phone.store.fetchAll(Note.self).count == 6)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["mine"] != nil)
    }

    /// A first sync counts what it brings as it goes: a progress bar follows the records and
    /// pages applied, only growing, and the next pass starts from nothing. Breaking it (pages
    /// not counted): the status says no record came.
    @Test func aFirstSyncCountsItsProgress() async throws {
        let scenario = try await Scenario()
        let phone = scenario.phone
        phone.gateway.hooks.withLock { $0.after[.fetchZoneChanges] = nil }
        let engine = phone.engine
        let updates = Task {
            var counts: [Int] = []
            for await status in engine.statusUpdates() {
                counts.append(status.progress.recordsPulled)
                if status.phase == .idle && status.progress.recordsPulled == 5 { break }
            }
            return counts
        }
        #expect(await phone.engine.sync() == .completed)
        // Read first, so a status that never counts fails here rather than waiting for ever.
        let progress = phone.engine.status.progress
        guard progress.recordsPulled == 5 && progress.pagesPulled >= 5 else {
            updates.cancel()
            Issue.record("the status counted \(progress)")
            return
        }
        let seen = await updates.value
        #expect(seen == seen.sorted() && seen.last == 5, "the bar only grows: \(seen)")
        try phone.store.save(Note(recordName: "mine"))
        #expect(await phone.engine.sync() == .completed)
        #expect(phone.engine.status.progress.recordsPulled == 0 && phone.engine.status.progress.recordsPushed == 1)
    }

    /// A pull narrowed to a share's zone brings its changes and leaves the user's own for later:
    /// the next whole pass still brings them (the database's place was not moved past them). A
    /// pull narrowed to no catalog refreshes none. Breaking it (the database's token stored
    /// though a zone was left out): Bob's laptop's note never reaches his phone.
    @Test func aPullNarrowedToSomeZonesLeavesTheOthersForLater() async throws {
        let household = try await EngineSharingTests.Household()
        let (world, alice, bob) = (household.world, household.alice, household.bob)
        let bobsLaptop = try world.device("bob-laptop", account: "bob")
        await bobsLaptop.sync()
        try bobsLaptop.store.save(Note(recordName: "bobs-note", title: "his"))
        await bobsLaptop.sync()
        try alice.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        try alice.store.save(PublishedNote(recordName: "p", title: "public"))
        await alice.sync()

        world.clock.advance(by: 3_601)  // the catalog is due again
        let shared = SyncOptions(push: false, transferAssets: false, zones: [household.aliceZoneForBob], catalogTypes: [])
        #expect(await bob.engine.sync(shared) == .completed)
        #expect(try bob.store.fetch(ListItem.self, recordName: "eggs") != nil)
        #expect(try bob.store.fetch(Note.self, recordName: "bobs-note") == nil)
        #expect(try bob.store.fetch(PublishedNote.self, recordName: "p") == nil)
        #expect(await bob.engine.sync() == .completed)
        #expect(try bob.store.fetch(Note.self, recordName: "bobs-note") != nil)
        #expect(try bob.store.fetch(PublishedNote.self, recordName: "p") != nil)
    }
}

