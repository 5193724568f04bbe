import Foundation
import GeneratedCoverage
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@testable import SyncLocalCloud
import SyncRuntime
import SyncCore

/// Fields both devices changed, settled each by its schema's `merge:` (the coverage schema's
/// `Household`, whose model policy is `clientWins`): through two engines and the cloud, never by
/// calling the merge alone.
@Suite("Engine: per-field merges")
struct EngineFieldMergeTests {
    /// Two of Alice's devices holding household "h", synced.
    static func twoDevices(_ configuration: SyncConfiguration = SyncConfiguration()) async throws -> (SyncWorld, SyncWorld.Device, SyncWorld.Device) {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", configuration: configuration, models: [Household.self])
        let laptop = try world.device("alice-laptop", account: "alice", configuration: configuration, models: [Household.self])
        try phone.store.save(Household(
            recordName: "h", name: "Home", tags: ["kitchen", "garden"], visits: 2, since: Date(timeIntervalSince1970: 1_000),
            score: 1.5, motto: "start", note: "start", nickname: "start"))
        await world.syncAll()
        return (world, phone, laptop)
    }

    static func edit(on device: SyncWorld.Device, _ change: (inout Household) -> Void) throws {
        var household = try #require(try device.store.fetch(Household.self, recordName: "h"))
        change(&household)
        try device.store.save(household)
    }

    /// The phone edits first and pushes first; the laptop edits later (by the clock) and meets
    /// the phone's version when it pushes; the phone then pulls the merge.
    static func concurrentEdits(
        _ configuration: SyncConfiguration = SyncConfiguration(), phone phoneEdit: (inout Household) -> Void, laptop laptopEdit: (inout Household) -> Void
    ) async throws -> [Household] {
        let (world, phone, laptop) = try await twoDevices(configuration)
        try edit(on: phone, phoneEdit)
        world.clock.advance(by: 10)
        try edit(on: laptop, laptopEdit)
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        return try [phone, laptop].map { try #require(try $0.store.fetch(Household.self, recordName: "h")) }
    }

    /// Breaking it (every field by the model's policy) keeps only the laptop's list: the phone's
    /// "garage" is lost.
    @Test func aUnionKeepsWhatEitherSideAddedAndDropsWhatEitherRemoved() async throws {
        let results = try await Self.concurrentEdits(
            phone: { $0.tags = ["kitchen", "garden", "garage"] },
            laptop: { $0.tags = ["garden", "attic"] })
        for household in results {
            #expect(Set(household.tags) == ["garden", "garage", "attic"])
        }
        #expect(results[0].tags == results[1].tags)
    }

    /// The phone removes "garden" and pushes first; the laptop, which never heard of that, adds
    /// "attic". What either side added, minus what either side removed: "garden" stays removed
    /// on every device (T21.22).
    @Test func aUnionNeverBringsBackWhatTheOtherSideRemovedFirst() async throws {  // trap: T21.22
        let results = try await Self.concurrentEdits(
            phone: { $0.tags = ["kitchen"] },
            laptop: { $0.tags = ["kitchen", "garden", "attic"] })
        for household in results {
            #expect(household.tags == ["kitchen", "attic"])
        }
    }

    /// The phone adds "attic", and its push's reply is lost after the cloud saved it; the laptop
    /// hears of "attic" and removes it; the phone, whose change still waits, then hears of the
    /// laptop's version. The phone's lost save is in that version (`uploadVersions` names it),
    /// so the merge starts from it, and "attic" stays removed (T21.22). Breaking it: merging
    /// against the version the phone knew before its save, and "attic" comes back as an
    /// addition of the phone's.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aSaveWhoseReplyWasLostIsTheMergesAncestorOnceItLanded(throughCloudKit: Bool) async throws {  // trap: T21.22
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: [Household.self])
        let laptop = try world.device("alice-laptop", account: "alice", models: [Household.self])
        try phone.store.save(Household(recordName: "h", name: "Home", tags: ["kitchen"]))
        await world.syncAll()
        try Self.edit(on: phone) { $0.tags.append("attic") }
        world.cloud.inject(ScriptedFault(CloudError(.serverResponseLost, "the reply was lost"), on: .modify))
        _ = await phone.engine.sync()
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["h"]?.fields["tags"] == .list([.string("kitchen"), .string("attic")]))
        await laptop.sync()
        try Self.edit(on: laptop) { $0.tags.removeAll { $0 == "attic" } }
        await laptop.sync()
        await phone.sync()
        await laptop.sync()
        for device in [phone, laptop] {
            #expect(try device.store.fetch(Household.self, recordName: "h")?.tags == ["kitchen"], "\(device.name)")
        }
    }

    /// Three devices add and remove tags of one household at random, syncing in random orders,
    /// with replies lost after the cloud applied the request and requests lost before: once all
    /// have synced, every device holds exactly the tags some device added and no device removed
    /// (T21.22). Each tag is added once, so "added, minus removed" is exact.
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func aUnionIsWhatAnyDeviceAddedMinusWhatAnyRemoved(seed: UInt64) async throws {  // trap: T21.22
        var random = SeededRandom(seed: seed)
        let (world, phone, laptop) = try await Self.twoDevices()
        let tablet = try world.device("alice-tablet", account: "alice", models: [Household.self])
        await tablet.sync()
        let devices = [phone, laptop, tablet]
        var added: Set<String> = ["kitchen", "garden"]
        var removed: Set<String> = []
        world.cloud.injectRandomFaults(RandomFaults(seed: seed, probability: 0.15, codes: [.serverResponseLost, .networkFailure], retryAfter: 1))
        for step in 0..<30 {
            let device = devices.randomElement(using: &random)!
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                try Self.edit(on: device) { $0.tags.append("t\(step)") }
                added.insert("t\(step)")
            case 1:
                let household = try #require(try device.store.fetch(Household.self, recordName: "h"))
                guard let tag = household.tags.randomElement(using: &random) else { break }
                try Self.edit(on: device) { $0.tags.removeAll { $0 == tag } }
                removed.insert(tag)
            default:
                _ = await device.engine.sync()
            }
            world.clock.advance(by: 1)
        }
        world.cloud.injectRandomFaults(nil)
        await world.syncAll()
        await world.syncAll()
        for device in devices {
            let tags = try #require(try device.store.fetch(Household.self, recordName: "h")).tags
            #expect(Set(tags) == added.subtracting(removed), "seed \(seed): \(device.name) holds \(tags.sorted())")
            #expect(tags.count == Set(tags).count, "seed \(seed): \(device.name) holds a tag twice")
        }
    }

    @Test func maxAndMinKeepTheLargerAndTheSmaller() async throws {
        let results = try await Self.concurrentEdits(
            phone: { $0.visits = 9; $0.since = Date(timeIntervalSince1970: 500); $0.score = 0.5 },
            laptop: { $0.visits = 4; $0.since = Date(timeIntervalSince1970: 800); $0.score = 7.25 })
        for household in results {
            #expect(household.visits == 9 && household.since == Date(timeIntervalSince1970: 500) && household.score == 7.25)
        }
    }

    /// An older app version made household "old" without `visits`, `since` and `score`; the
    /// phone sets them (below their defaults) while the laptop, reading the defaults for the
    /// missing keys, renames the household. The defaults were never a value: the phone's stand.
    /// Breaking it: `max` and `min` weighing the laptop's defaults (0, 1970) keep 0 and 1970.
    @Test func maxAndMinNeverTakeADefaultForAValue() async throws {
        let (world, phone, laptop) = try await Self.twoDevices()
        var older = Household(recordName: "old", name: "Cabin").makeRecord()
        for key in ["visits", "since", "score"] { older.fields[key] = nil }
        let oldApp = try world.cloud.device("old-app", account: "alice")
        #expect(try await oldApp.modify(ModifyRequest(recordsToSave: [older]), in: .private).savedRecords[older.id]?.get() != nil)
        await world.syncAll()
        func edit(on device: SyncWorld.Device, _ change: (inout Household) -> Void) throws {
            var household = try #require(try device.store.fetch(Household.self, recordName: "old"))
            change(&household)
            try device.store.save(household)
        }
        try edit(on: phone) { $0.visits = -3; $0.since = Date(timeIntervalSince1970: 2_000_000); $0.score = -1.5 }
        world.clock.advance(by: 10)
        try edit(on: laptop) { $0.name = "House" }
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        for device in [phone, laptop] {
            let household = try #require(try device.store.fetch(Household.self, recordName: "old"))
            #expect(household.name == "House" && household.visits == -3 && household.score == -1.5, "\(device.name)")
            #expect(household.since == Date(timeIntervalSince1970: 2_000_000), "\(device.name)")
        }
    }

    /// The model's own rule (`HouseholdMerges.swift`, as an app writes it) settles `motto`.
    @Test func aCustomFieldIsSettledByTheModelsRule() async throws {
        let results = try await Self.concurrentEdits(phone: { $0.motto = "Home sweet home" }, laptop: { $0.motto = "Keep calm" })
        for household in results {
            #expect(household.motto == "Home sweet home / Keep calm")
        }
    }

    /// The model's policy is `clientWins` (the laptop, whose push meets the conflict, keeps its
    /// name); `note` says `serverWins` (the phone's, first on the server) and `nickname`
    /// `lastWriterWins` (the laptop's, edited later).
    @Test func eachFieldFollowsItsOwnPolicyOrTheModels() async throws {
        let results = try await Self.concurrentEdits(
            phone: { $0.name = "Phone"; $0.note = "Phone"; $0.nickname = "Phone" },
            laptop: { $0.name = "Laptop"; $0.note = "Laptop"; $0.nickname = "Laptop" })
        for household in results {
            #expect(household.name == "Laptop" && household.note == "Phone" && household.nickname == "Laptop")
        }
    }

    /// The app's configuration for a record type comes before the model's policy.
    @Test func theConfigurationOverridesTheModelsPolicy() async throws {
        let results = try await Self.concurrentEdits(
            SyncConfiguration(conflictPolicies: ["Household": .serverWins]),
            phone: { $0.name = "Phone"; $0.nickname = "Phone" },
            laptop: { $0.name = "Laptop"; $0.nickname = "Laptop" })
        for household in results {
            #expect(household.name == "Phone" && household.nickname == "Laptop")
        }
    }
}
