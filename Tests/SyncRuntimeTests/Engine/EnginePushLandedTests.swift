import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Which records a push saved and deleted (seed 002's `sentRecordZoneChanges`): each request that
/// landed records names them (`SyncEvent.pushLanded`), once the store keeps them, as the refused
/// ones are named. Each test runs through LocalCloud's port and through the CloudKit gateway over
/// the stand-in.
@Suite("Engine: the records a push landed")
struct EnginePushLandedTests {
    /// The records each `pushLanded` event named, in order.
    static func landed(in events: [SyncEvent]) -> [(saved: [String], deleted: [String])] {
        events.compactMap {
            guard case .pushLanded(let saved, let deleted) = $0 else { return nil }
            return (saved.map(\.recordName), deleted.map(\.recordName))
        }
    }

    /// Two notes saved and one deleted: the push names each, by type and name, before it says it
    /// completed. Breaking it (no event, or one published before the results' transaction): the
    /// event is missing, or names a record the store does not hold as pushed.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aPushNamesTheRecordsItSavedAndDeleted(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n0", title: "Old"))
        await phone.sync()
        try phone.store.save([Note(recordName: "n1", title: "Milk"), Note(recordName: "n2", title: "Eggs")])
        try phone.store.delete(try #require(try phone.store.fetch(Note.self, recordName: "n0")))
        let events = phone.recordEvents()
        #expect(await phone.sync() == .completed)
        let collected = events.collectedNow()
        let landed = Self.landed(in: collected)
        #expect(landed.count == 1)
        #expect(landed.first?.saved.sorted() == ["n1", "n2"])
        #expect(landed.first?.deleted == ["n0"])
        let keys = collected.compactMap { if case .pushLanded(let saved, _) = $0 { saved } else { nil } }.flatMap { $0 }
        #expect(keys.allSatisfy { $0.recordType == Note.recordType })
        let landedAt = try #require(collected.firstIndex { if case .pushLanded = $0 { true } else { false } })
        let completedAt = try #require(collected.firstIndex { if case .pushCompleted = $0 { true } else { false } })
        #expect(landedAt < completedAt)
        #expect(phone.engine.status.progress.recordsPushed == 3, "the pass counts what its requests landed")
    }

    /// 450 notes go up in two requests: two events, each within what one request carries, naming
    /// every note once between them. When the network goes after the first request, the push
    /// fails, and the first request's notes are still named: the app knows which are in the
    /// cloud. Breaking it (one event for the whole push): a failed push names nothing, and a big
    /// one names thousands at once.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func eachRequestNamesWhatItLandedAPushThatFailsToo(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let names = (0..<450).map { "note-\($0)" }
        try phone.store.save(names.map { Note(recordName: $0, title: $0) })
        let events = phone.recordEvents()
        #expect(await phone.sync() == .completed)
        let landed = Self.landed(in: events.collectedNow())
        #expect(landed.count == 2)
        #expect(landed.allSatisfy { $0.saved.count <= CloudKitLimits.maxItemsPerRequest })
        #expect(landed.flatMap(\.saved).sorted() == names.sorted())

        try phone.store.save(names.map { Note(recordName: $0, title: "\($0), edited") })
        let (cloud, firstRequest) = (world.cloud, Once())
        phone.gateway.hooks.withLock { $0.after[.modify] = { if firstRequest.first() { cloud.setNetworkAvailable(false, for: "alice-phone") } } }
        let failing = phone.recordEvents()
        _ = await phone.engine.sync()
        let collected = failing.collectedNow()
        let named = Self.landed(in: collected).flatMap(\.saved)
        #expect(named.count == CloudKitLimits.maxItemsPerRequest)
        #expect(!collected.contains { if case .pushCompleted = $0 { true } else { false } })
        for name in named {
            #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records[name]?.fields["title"] == .string("\(name), edited"))
        }
    }
}
