import Foundation
import Testing
@testable import SyncEngineKit
import SyncRuntime
@testable import SyncLocalCloud

/// Asset transfers wait while the device is in Low Power Mode, on Low Data Mode or a network paid
/// for by use, or hot (`SyncConfiguration.assetTransfersWaitFor`); records still go. The
/// conditions come through the reachability port, which the tests move.
@Suite("Asset cache: transfers wait for the device's conditions")
struct AssetConditionsTests {
    /// A reachability whose conditions the test sets.
    final class FakeConditions: NetworkReachability, Sendable {
        private let current = Locked(DeviceConditions.unrestricted)
        private let changes = AsyncStream<DeviceConditions>.makeStream()

        func availability() -> AsyncStream<Bool> { AsyncStream { $0.finish() } }
        func currentConditions() -> DeviceConditions { current.withLock { $0 } }
        func conditions() -> AsyncStream<DeviceConditions> { changes.stream }

        func set(_ conditions: Set<DeviceCondition>) {
            let now = DeviceConditions(isNetworkAvailable: true, conditions: conditions)
            current.withLock { $0 = now }
            changes.continuation.yield(now)
        }
    }

    static func state(_ device: SyncWorld.Device, _ name: String) async throws -> AssetCacheState? {
        try await device.engine.assetEntry(for: \Note.cover, recordName: name)?.state
    }

    /// In Low Power Mode the phone's pass pushes the note and holds its picture back, saying why;
    /// on a network paid for by use the laptop's requested download waits the same way. Once the
    /// conditions end, the next passes move both. Breaking it (the pass not reading the
    /// conditions): the picture goes up in Low Power Mode.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func uploadsAndDownloadsWaitWhileAConditionHoldsAndRecordsGo(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let (phoneConditions, laptopConditions) = (FakeConditions(), FakeConditions())
        let phone = try world.device("alice-phone", account: "alice", reachability: phoneConditions)
        let laptop = try world.device("alice-laptop", account: "alice", reachability: laptopConditions)
        phoneConditions.set([.lowPowerMode])
        try phone.store.save(Note(recordName: "n", title: "Holiday"))
        try await phone.engine.attachAsset(picture(1000), suffix: "jpg", to: \Note.cover, recordName: "n")
        let events = phone.recordEvents()
        await phone.sync()
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"] != nil, "the record went")
        #expect(try world.counter("assetBytes.uploaded") == 0)
        #expect(try await Self.state(phone, "n") != .cached)
        #expect(await events.events().contains(.assetTransfersWaiting([.lowPowerMode])))

        phoneConditions.set([])
        await phone.sync()
        #expect(try world.counter("assetBytes.uploaded") == 1000)
        #expect(try await Self.state(phone, "n") == .cached)

        laptopConditions.set([.expensiveNetwork, .thermalPressure])
        await laptop.sync()
        try await laptop.engine.requestAssetDownload(for: \Note.cover, recordName: "n")
        await laptop.sync()
        #expect(try await Self.state(laptop, "n") == .download)
        laptopConditions.set([.thermalPressure])
        await laptop.sync()
        #expect(try await Self.state(laptop, "n") == .download, "still hot")
        laptopConditions.set([])
        await laptop.sync()
        #expect(try await Self.state(laptop, "n") == .cached)
        #expect(try await laptop.engine.assetFileURL(for: \Note.cover, recordName: "n").map { try Data(contentsOf: $0) } == picture(1000))
    }

    /// What the app says otherwise: a configuration that waits for nothing transfers on a
    /// network paid for by use, and the app's own `transferAssets()` goes whatever holds.
    /// Breaking it (the configuration ignored): the picture waits on cellular.
    @Test func theAppDecidesWhatTransfersWaitFor() async throws {
        let world = try SyncWorld()
        let conditions = FakeConditions()
        conditions.set([.expensiveNetwork, .lowPowerMode])
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(assetTransfersWaitFor: [.constrainedNetwork]), reachability: conditions)
        try phone.store.save(Note(recordName: "n", title: "Holiday"))
        try await phone.engine.attachAsset(picture(100), suffix: "jpg", to: \Note.cover, recordName: "n")
        await phone.sync()
        #expect(try await Self.state(phone, "n") == .cached)

        conditions.set([.constrainedNetwork])
        try phone.store.save(Note(recordName: "m", title: "Beach"))
        try await phone.engine.attachAsset(picture(200), suffix: "jpg", to: \Note.cover, recordName: "m")
        await phone.sync()
        #expect(try await Self.state(phone, "m") != .cached)
        try await phone.engine.transferAssets()
        #expect(try await Self.state(phone, "m") == .cached)
    }

    /// A running engine passes by itself once the conditions that held its transfers end: the
    /// picture goes up with no write and no clock moved. Breaking it (the engine not following
    /// the conditions): the picture waits for the next write.
    @Test func aRunningEngineTransfersOnceTheConditionsEnd() async throws {
        let world = try SyncWorld()
        let conditions = FakeConditions()
        conditions.set([.lowPowerMode])
        let phone = try world.device("alice-phone", account: "alice", reachability: conditions)
        try phone.store.save(Note(recordName: "n", title: "Holiday"))
        try await phone.engine.attachAsset(picture(100), suffix: "jpg", to: \Note.cover, recordName: "n")
        let events = phone.recordEvents()
        await phone.engine.start()
        #expect(await eventually { events.collectedNow().contains(.assetTransfersWaiting([.lowPowerMode])) && phone.engine.status.phase == .idle })
        conditions.set([])
        #expect(await eventually { (try? world.counter("assetBytes.uploaded")) == 100 })
        await phone.engine.stop()
    }
}
