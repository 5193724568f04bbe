import Foundation
import GeneratedCoverage
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@_spi(SyncgenGenerated) import SyncCore
import SyncRuntime
@testable import SyncLocalCloud

/// Retiring the copies of a natural key (`RetirementPhase`) while another device marks the same
/// records: the coverage schema's `Household` (`unique: [[name], ...]`). The other device is a
/// Mac that writes to the cloud as a merging engine would, at the moment a test picks.
@Suite("Engine: retiring copies while another device marks them")
struct EngineRetirementTests {
    static let models = EngineNaturalKeyTests.models

    /// The tablet's "c" is in the cloud, and the laptop, which holds the key's other copy "b",
    /// merges "c" into it at its next pass; before the laptop's first request goes out, the Mac
    /// marks `marked` merged into a record "a" it saves with it (one atomic request, as a
    /// retirement is). Returns the world, the laptop and the tablet after that pass, and the
    /// laptop's requests that carried "c".
    static func laptopRetiringCIntoB(while marked: String, bInTheCloud: Bool, throughCloudKit: Bool) async throws -> (SyncWorld, [SyncWorld.Device], [ModifyRequest]) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let tablet = try world.device("alice-tablet", account: "alice", models: models)
        let laptop = try world.device("alice-laptop", account: "alice", models: models)
        let mac = try world.cloud.device("alice-mac", account: "alice")
        await laptop.sync()
        try tablet.store.save(Household(recordName: "c", name: "Home", tags: ["cellar"]))
        await tablet.sync()
        let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName)
        let c = try await mac.fetchRecords([RecordID(recordName: "c", zoneID: zone)], desiredKeys: nil, in: .private)[RecordID(recordName: "c", zoneID: zone)]!.get()
        if bInTheCloud {
            var b = SyncRecord(recordType: c.recordType, id: RecordID(recordName: "b", zoneID: zone), fields: c.fields)
            b.fields["tags"] = .list([.string("barn")])
            try #require(try await mac.modify(ModifyRequest(recordsToSave: [b]), in: .private).partialFailure == nil)
        } else {
            try laptop.store.save(Household(recordName: "b", name: "Home", tags: ["barn"]))
        }
        let once = Once()
        laptop.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard once.first() else { return }
                let id = RecordID(recordName: marked, zoneID: zone)
                var copy = try! await mac.fetchRecords([id], desiredKeys: nil, in: .private)[id]!.get()
                var survivor = SyncRecord(recordType: copy.recordType, id: RecordID(recordName: "a", zoneID: zone), fields: copy.fields)
                if case .list(let tags)? = copy.fields["tags"] { survivor.fields["tags"] = .list([.string("attic")] + tags) }
                copy.fields[RecordFieldNames.mergedInto] = .string("a")
                let result = try! await mac.modify(ModifyRequest(recordsToSave: [survivor, copy], isAtomic: true), in: .private)
                #expect(result.partialFailure == nil)
            }
        }
        await laptop.sync()
        laptop.gateway.hooks.withLock { $0.before[.modify] = nil }
        let carryingC = laptop.gateway.modifies.map(\.request).filter { $0.recordsToSave.contains { $0.id.recordName == "c" } }
        return (world, [laptop, tablet], carryingC)
    }

    /// Chained: the laptop merges "c" into "b" and retires it; before its request goes out, the
    /// Mac marks "b" itself merged into "a". The laptop's request meets the marked "b" and takes
    /// it; "b", a survivor that is now a copy, sends no retirement again (the check after the
    /// next pull settles it into "a", and "c" with it). In the end one household, "a", holds
    /// every tag, everywhere. Breaking it (a survivor retired whatever its known version says):
    /// the laptop's next round saves "b" holding "c" over the mark.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aSurvivorMarkedIntoAnotherSendsNoRetirement(throughCloudKit: Bool) async throws {
        let (world, devices, carryingC) = try await Self.laptopRetiringCIntoB(while: "b", bInTheCloud: true, throughCloudKit: throughCloudKit)
        #expect(carryingC.count == 1)
        await world.syncAll()
        try EngineNaturalKeyTests.expectEverywhere(["a"], world, devices)
        for device in devices {
            #expect(Set(try #require(try device.store.fetch(Household.self, recordName: "a")).tags) == ["attic", "barn", "cellar"], "\(device.name)")
        }
    }

    /// The laptop merges "c" into its own "b" and retires it; before its request goes out, the
    /// Mac marks "c" into "a" first. The laptop's mark meets the Mac's, and the laptop waits on
    /// "c" no more: "a" holds it. In the end one household, "a", holds every tag, everywhere.
    /// Breaking it (a copy marked elsewhere still waited on): the laptop's next round marks "c"
    /// again, into "b", over the Mac's mark.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aCopyAnotherDeviceMarkedFirstIsNoLongerWaitedOn(throughCloudKit: Bool) async throws {
        let (world, devices, carryingC) = try await Self.laptopRetiringCIntoB(while: "c", bInTheCloud: false, throughCloudKit: throughCloudKit)
        #expect(carryingC.count == 1)
        let marked = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["c"]
        #expect(marked?.mergedInto == "a")
        await world.syncAll()
        try EngineNaturalKeyTests.expectEverywhere(["a"], world, devices)
        for device in devices {
            #expect(Set(try #require(try device.store.fetch(Household.self, recordName: "a")).tags) == ["attic", "barn", "cellar"], "\(device.name)")
        }
    }
}
