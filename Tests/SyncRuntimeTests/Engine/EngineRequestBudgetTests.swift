import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// A budget for the requests the engine sends to each database (`SyncConfiguration.requestBudget`):
/// a storm of saves never sends more than it allows, and what waits goes later, in order.
@Suite("Engine: a budget for requests, and CloudKit's rate limit")
struct EngineRequestBudgetTests {
    /// 2,000 notes saved at once (eight requests' worth) with a budget of three requests that
    /// write a minute to each database. Each pass sends at most three saves to the private
    /// database (counted request by request), the first pass's saves are the first notes saved,
    /// and a pass past the budget ends as CloudKit's rate limit ends one, its retry due when the
    /// budget has room again; a pass before then sends nothing. Minute by minute the rest goes,
    /// each note once, until every note is in the cloud. Breaking it: the budget not spent, the
    /// first pass sends all eight saves at once; a cut round's landed saves not forgotten
    /// (`PushPhase.keepWhatWentThrough`), every pass sends the first three again and the storm
    /// never gets past them.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aStormOfSavesNeverSendsMoreThanTheBudget(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(requestBudget: RequestBudget(requests: 3, per: 60)))
        let notes = (0..<2000).map { Note(recordName: String(format: "n%04d", $0), title: "Storm \($0)") }
        try phone.store.save(notes)
        func privateRequests() -> Int { phone.gateway.modifies.filter { $0.scope == .private }.count }
        func saved() -> [String] {
            phone.gateway.modifies.filter { $0.scope == .private }.flatMap { $0.request.recordsToSave.map(\.id.recordName) }
        }
        let events = phone.recordEvents()
        var passes: [(result: SyncEngine.PassResult, requests: Int)] = []
        while try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.count ?? 0 < 2000, passes.count < 20 {
            let before = privateRequests()
            let result = await phone.engine.sync()
            passes.append((result, privateRequests() - before))
            if case .failed(.cloud(let error), _) = result {
                #expect(error.code == .requestRateLimited && error.retryAfter.map { $0 > 0 && $0 <= 60 } == true, "\(error)")
                // Before the minute is over, a pass finds no room.
                let early = privateRequests()
                _ = await phone.engine.sync()
                #expect(privateRequests() == early, "no room before the minute is over")
                world.clock.advance(by: 60)
            }
        }
        #expect(passes.allSatisfy { $0.requests <= 3 }, "\(passes.map(\.requests))")
        #expect(passes.last?.result == .completed)
        let order = saved()
        let inOrderEachOnce = order == notes.map(\.recordName)
        #expect(inOrderEachOnce, "in the order saved, each once: \(order.count) saves sent")
        #expect(passes.map(\.requests) == [3, 3, 2], "three saves a minute, the last two")
        #expect(await events.events().contains { if case .retryScheduled(_, .cloud(let error)) = $0 { error.code == .requestRateLimited } else { false } })
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.count == 2000)
        #expect(try !phone.store.hasUnpushedChanges())
    }

    /// CloudKit itself throttles a backlog the same way: a pass cut at the same request every
    /// minute. Each pass's landed saves stay landed (the round's entries of those records are
    /// forgotten), so the next pass goes on from the cut, and the storm gets through with each
    /// note sent once, beside the requests the cloud turned away. Breaking it (a cut round's
    /// landed saves not forgotten, `PushPhase.keepWhatWentThrough`): every pass sends the same
    /// first saves again, and the storm never gets past them.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRateLimitCuttingEveryPassAtTheSameRequestIsGotPast(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "first", title: "Before the storm"))
        #expect(await phone.sync() == .completed)
        let notes = (0..<2000).map { Note(recordName: String(format: "n%04d", $0), title: "Storm \($0)") }
        try phone.store.save(notes)
        world.cloud.limitRequestRate(RequestRateLimit(requests: 10, per: 60), forAccount: "alice")
        var turnedAway = 0
        for _ in 0..<30 where try phone.store.hasUnpushedChanges() {
            if case .failed(.cloud(let error), _) = await phone.engine.sync() {
                #expect(error.code == .requestRateLimited, "\(error)")
                turnedAway += 1
                world.clock.advance(by: 60)
            }
        }
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.count == 2001)
        #expect(try !phone.store.hasUnpushedChanges())
        let sent = phone.gateway.modifies.filter { $0.scope == .private }.map(\.request.recordsToSave.count).reduce(0, +)
        #expect(turnedAway > 1 && sent <= 1 + 2000 + 250 * turnedAway, "\(sent) saves sent in \(turnedAway) cut passes")
    }

    /// The budget's window slides: a request leaves it `interval` after it was sent, not at a
    /// minute's turn; each database has a budget of its own; no budget, no limit.
    @Test func theBudgetSlidesAndEachDatabaseHasItsOwn() throws {
        let spending = RequestSpending(RequestBudget(requests: 2, per: 10))
        let start = Date(timeIntervalSince1970: 1000)
        try spending.spend(.private, now: start)
        try spending.spend(.private, now: start.addingTimeInterval(4))
        try spending.spend(.public, now: start.addingTimeInterval(4))
        #expect(throws: SyncError.self) { try spending.spend(.private, now: start.addingTimeInterval(9)) }
        do {
            try spending.spend(.private, now: start.addingTimeInterval(9))
        } catch {
            #expect(error.cloudError?.retryAfter == 1, "the first leaves the window at 10 s")
        }
        try spending.spend(.private, now: start.addingTimeInterval(10.5))
        #expect(throws: SyncError.self) { try spending.spend(.private, now: start.addingTimeInterval(11)) }
        let none = RequestSpending(nil)
        for second in 0..<100 { try none.spend(.private, now: start.addingTimeInterval(Double(second) / 100)) }
    }
}
