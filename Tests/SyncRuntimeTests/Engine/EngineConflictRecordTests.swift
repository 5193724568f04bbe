import Foundation
import GeneratedCoverage
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime

/// Conflicts the app can see: every field both devices changed is kept with the value both
/// started from, each side's and the one sync kept, observable per record and as an event, for a
/// bounded count and age; and the app can take another side's value afterwards.
@Suite("Engine: conflicts the app can see")
struct EngineConflictRecordTests {
    typealias Merges = EngineFieldMergeTests

    /// The phone renames the household and adds a tag; the laptop, later, renames it too, adds
    /// another tag and counts fewer visits; the laptop's push meets the phone's version.
    static func conflictingEdits(_ configuration: SyncConfiguration = SyncConfiguration()) async throws -> (SyncWorld, SyncWorld.Device, SyncWorld.Device, EventRecorder) {
        let (world, phone, laptop) = try await Merges.twoDevices(configuration)
        let events = laptop.recordEvents()
        try Merges.edit(on: phone) { $0.name = "Phone"; $0.tags.append("garage"); $0.visits = 7 }
        world.clock.advance(by: 10)
        try Merges.edit(on: laptop) { $0.name = "Laptop"; $0.tags.append("attic"); $0.visits = 3; $0.motto = "only here" }
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        return (world, phone, laptop, events)
    }

    /// Breaking it (the merge's conflicts dropped, as before) leaves the laptop with none kept,
    /// no event and a status without one.
    @Test func eachFieldBothChangedIsKeptWithItsValuesAndAnnounced() async throws {
        let (_, phone, laptop, events) = try await Self.conflictingEdits()
        let kept = try laptop.store.conflicts(of: Household.self, recordName: "h")
        let conflict = try #require(kept.first)
        #expect(kept.count == 1 && conflict.recordType == "Household" && conflict.recordID.recordName == "h")
        // `motto` only the laptop changed: no conflict. The three both changed, in key order.
        #expect(conflict.fields.map(\.field) == ["name", "tags", "visits"])
        let name = try #require(conflict.field("name"))
        #expect(name.ancestor == .string("Home") && name.local == .string("Laptop") && name.server == .string("Phone"))
        #expect(name.resolved == .string("Laptop"))  // the model's policy: clientWins
        let visits = try #require(conflict.field("visits"))
        #expect(visits.ancestor == .int64(2) && visits.local == .int64(3) && visits.server == .int64(7) && visits.resolved == .int64(7))
        #expect(conflict.field("tags")?.resolved == .list(["kitchen", "garden", "garage", "attic"].map { .string($0) }))
        #expect(await events.events().contains(.conflictRecorded(conflict)))
        #expect(try laptop.store.syncStatus(of: Household.self, recordName: "h")?.lastConflict == conflict)
        #expect(try laptop.store.recentConflicts() == [conflict])
        // The phone took the merged record as it was: it settled nothing.
        #expect(try phone.store.conflicts(of: Household.self, recordName: "h").isEmpty)
    }

    /// The user prefers the phone's name after all: the laptop takes the server's side, and the
    /// edit syncs like any other.
    @Test func theAppTakesTheOtherSidesValueAfterwards() async throws {
        let (world, phone, laptop, _) = try await Self.conflictingEdits()
        let conflict = try #require(try laptop.store.conflicts(of: Household.self, recordName: "h").first)
        try laptop.store.applyConflictValue(.server, of: "name", in: conflict, to: Household.self)
        await world.syncAll()
        for device in [phone, laptop] {
            let household = try #require(try device.store.fetch(Household.self, recordName: "h"))
            #expect(household.name == "Phone" && household.visits == 7, "\(device.name)")
        }
        try laptop.store.applyConflictValue(.ancestor, of: "name", in: conflict, to: Household.self)
        #expect(try laptop.store.fetch(Household.self, recordName: "h")?.name == "Home")
        #expect(throws: ConflictValueError.notAField(recordType: "Household", field: "note")) {
            try laptop.store.applyConflictValue(.server, of: "note", in: conflict, to: Household.self)
        }
        try laptop.store.delete(Household.self, recordName: "h")
        #expect(throws: ConflictValueError.recordNotStored(recordType: "Household", recordName: "h")) {
            try laptop.store.applyConflictValue(.server, of: "name", in: conflict, to: Household.self)
        }
        try laptop.store.dismissConflict(conflict)
        #expect(try laptop.store.recentConflicts().isEmpty)
    }

    /// At most `maximumCount` are kept, the newest; none older than `maximumAge`.
    @Test func conflictsAreKeptForABoundedCountAndAge() async throws {
        let retention = ConflictRetention(maximumCount: 2, maximumAge: 3_600)
        let (world, phone, laptop, _) = try await Self.conflictingEdits(SyncConfiguration(conflictRetention: retention))
        for round in 1...2 {
            await world.syncAll()
            try Merges.edit(on: phone) { $0.nickname = "phone \(round)" }
            world.clock.advance(by: 10)
            try Merges.edit(on: laptop) { $0.nickname = "laptop \(round)" }
            await phone.sync()
            await laptop.sync()
        }
        let kept = try laptop.store.recentConflicts()
        #expect(kept.count == 2 && kept.allSatisfy { $0.fields.map(\.field) == ["nickname"] }, "\(kept)")
        world.clock.advance(by: 3_601)
        await world.syncAll()
        try Merges.edit(on: phone) { $0.note = "phone" }
        world.clock.advance(by: 10)
        try Merges.edit(on: laptop) { $0.note = "laptop" }
        await phone.sync()
        await laptop.sync()
        #expect(try laptop.store.recentConflicts().map { $0.fields.map(\.field) } == [["note"]])
    }

    /// A merge and the conflict it settled commit together (the conflict is written in the merge's
    /// transaction): a crash at any write of the laptop's pass that meets the phone's version
    /// leaves, once the laptop restarts and syncs, the conflict kept exactly once and the
    /// household merged: never a merge without its conflict, nor one merged and kept twice.
    @Test func aCrashAtEveryWriteOfTheMergingPassKeepsTheConflictOnce() async throws {
        func scenario() async throws -> (world: SyncWorld, laptop: SyncWorld.Device, restart: () throws -> SyncWorld.Device) {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("alice-laptop.sqlite")
            let phone = try world.device("alice-phone", account: "alice", models: [Household.self])
            let laptop = try world.device("alice-laptop", account: "alice", store: SyncStore(url: url, clock: world.clock), models: [Household.self])
            try phone.store.save(Household(recordName: "h", name: "Home", visits: 2))
            await world.syncAll()
            try Merges.edit(on: phone) { $0.name = "Phone"; $0.visits = 7 }
            world.clock.advance(by: 10)
            try Merges.edit(on: laptop) { $0.name = "Laptop"; $0.visits = 3 }
            await phone.sync()
            let restart = { try world.device("alice-laptop", account: "alice", store: SyncStore(url: url, clock: world.clock), models: [Household.self]) }
            return (world, laptop, restart)
        }
        let reference = try await scenario()
        let before = reference.laptop.store.writeCommits
        await reference.laptop.sync()
        let writes = reference.laptop.store.writeCommits - before
        #expect(try reference.laptop.store.recentConflicts().count == 1)
        for crashPoint in 0..<writes {
            let run = try await scenario()
            run.laptop.store.crash(afterCommits: crashPoint)
            #expect(await run.laptop.engine.sync() != .completed, "crash after \(crashPoint) commits: the pass did not notice")
            let laptop = try run.restart()
            await laptop.sync()
            let kept = try laptop.store.recentConflicts()
            #expect(kept.count == 1 && kept.first?.fields.map(\.field) == ["name", "visits"], "crash after \(crashPoint) of \(writes) commits: \(kept)")
            let household = try #require(try laptop.store.fetch(Household.self, recordName: "h"))
            #expect(household.name == "Laptop" && household.visits == 7, "crash after \(crashPoint) of \(writes) commits")
        }
    }
}
