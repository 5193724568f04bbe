import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Counters (`merge: counter`): concurrent changes add up, exactly, under every retry. A pantry
/// shelf counts eggs; the household's devices take from it and add to it offline. Each test runs
/// through LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: counters that add up")
struct EngineCounterTests {
    static let models: [any SyncModel.Type] = [Shelf.self]

    static func eggs(_ device: SyncWorld.Device) throws -> Int64? {
        try device.store.fetch(Shelf.self, recordName: "eggs")?.count
    }

    static func cloudEggs(_ world: SyncWorld) throws -> SyncFieldValue? {
        try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["eggs"]?.fields["count"]
    }

    /// Three devices change the dozen offline (an egg taken on two of them, six added on the
    /// third) and sync in turn: every device ends at 16, and so does the cloud. Two equal changes
    /// are two changes.
    /// Breaking it (the counter settled by the model's policy, last writer wins): the devices end
    /// with one device's count, not 16.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func changesMadeOfflineOnThreeDevicesAddUp(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let devices = try ["alice-phone", "alice-laptop", "alice-ipad"].map { try world.device($0, account: "alice", models: Self.models) }
        try devices[0].store.save(Shelf(recordName: "eggs", label: "Eggs", count: 12))
        for device in devices { await device.sync() }
        for (device, change) in zip(devices, [-1, -1, 6] as [Int64]) {
            var shelf = try #require(try device.store.fetch(Shelf.self, recordName: "eggs"))
            shelf.count += change
            try device.store.save(shelf)
        }
        for device in devices { await device.sync() }
        for device in devices { await device.sync() }
        for device in devices { #expect(try Self.eggs(device) == 16, "\(device.name)") }
        #expect(try Self.cloudEggs(world) == .int64(16))
    }

    /// The phone is killed after each write of its pass (a push whose reply was never read
    /// among them), opened again and synced, while the laptop took two eggs meanwhile: every run
    /// ends at 12 - 1 - 2 = 9, never counting the phone's egg twice or not at all. Breaking it (a
    /// merge against the last version read instead of the save whose reply the phone never read):
    /// a kill between the save landing and its reply being kept miscounts the phone's egg.
    @Test func aKillAtEveryWriteOfAPushCountsEachChangeOnce() async throws {
        func run(crashingAfter crashPoint: Int?) async throws -> Int {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
            var phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
            try phone.store.save(Shelf(recordName: "eggs", label: "Eggs", count: 12))
            await phone.sync()
            await laptop.sync()
            var shelf = try #require(try laptop.store.fetch(Shelf.self, recordName: "eggs"))
            shelf.count -= 2
            try laptop.store.save(shelf)
            shelf = try #require(try phone.store.fetch(Shelf.self, recordName: "eggs"))
            shelf.count -= 1
            try phone.store.save(shelf)
            let before = phone.store.writeCommits
            if let crashPoint { phone.store.crash(afterCommits: crashPoint) }
            _ = await phone.engine.sync()
            let writes = phone.store.writeCommits - before
            await laptop.sync()
            if crashPoint != nil {
                phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            }
            await phone.sync()
            await laptop.sync()
            await phone.sync()
            let context = "kill after \(crashPoint.map(String.init) ?? "no") commits"
            #expect(try Self.eggs(phone) == 9, "\(context): the phone")
            #expect(try Self.eggs(laptop) == 9, "\(context): the laptop")
            #expect(try Self.cloudEggs(world) == .int64(9), "\(context): the cloud")
            return writes
        }
        let writes = try await run(crashingAfter: nil)
        #expect(writes >= 2, "the pass made only \(writes) writes")
        for crashPoint in 0..<writes { _ = try await run(crashingAfter: crashPoint) }
    }
}

/// A pantry shelf, written by hand as syncgen writes a model whose `count` is
/// `{ type: int, merge: counter }`.
struct Shelf: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var label: String = ""
    var count: Int64 = 0
}

extension Shelf: SyncModel {
    static let recordType = "Shelf"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("label", \Self.label), .field("count", \Self.count, merge: .counter)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}
