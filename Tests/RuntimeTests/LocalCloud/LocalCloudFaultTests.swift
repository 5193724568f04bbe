import Foundation
import Testing
import SyncRuntime

@Suite("LocalCloud: injected faults and counters")
struct LocalCloudFaultTests {
    @Test(arguments: CloudMode.allCases)
    func scriptedFaultsHitTheNamedRequestsOnly(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice")
        let bob = try await harness.deviceWithZone("bob-phone", "bob")
        harness.cloud.inject(ScriptedFault(CloudError(.requestRateLimited, retryAfter: 30), times: 2, on: .modify, account: "alice"))
        for _ in 0..<2 {
            let error = await cloudError { try await alice.save([record("r")]) }
            #expect(error?.code == .requestRateLimited && error?.retryAfter == 30)
        }
        try await bob.save([record("b")])
        _ = try await alice.fetchDatabaseChanges(in: .private, since: nil)
        try await alice.save([record("r")])
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.keys.sorted() == ["r"])
    }

    @Test(arguments: CloudMode.allCases)
    func aLostResponseWasStillApplied(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice")
        harness.cloud.inject(ScriptedFault(CloudError(.serverResponseLost), on: .modify))
        #expect(await cloudError { try await alice.save([record("r")]) }?.code == .serverResponseLost)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["r"] != nil)
        // Retrying the same save (no tag) now conflicts: the client must merge, never duplicate.
        let retry = try await alice.modify(ModifyRequest(recordsToSave: [record("r")]), in: .private)
        #expect(retry.error(record("r").id)?.code == .serverRecordChanged)
    }

    @Test(arguments: CloudMode.allCases)
    func anOfflineDeviceReachesNothing(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice")
        let before = try harness.cloud.counters()["requests.modify"] ?? 0
        harness.cloud.setNetworkAvailable(false, for: "alice-phone")
        #expect(await cloudError { try await alice.save([record("r")]) }?.code == .networkUnavailable)
        #expect(try harness.cloud.counters()["requests.modify"] ?? 0 == before)
        harness.cloud.setNetworkAvailable(true, for: "alice-phone")
        try await alice.save([record("r")])
    }

    @Test func randomFaultsFollowTheirSeed() async throws {
        func outcomes(seed: UInt64) async throws -> [CloudErrorCode?] {
            let harness = try CloudHarness(.memory)
            let alice = try await harness.deviceWithZone("alice-phone", "alice")
            harness.cloud.injectRandomFaults(RandomFaults(seed: seed, probability: 0.4, codes: [.networkFailure, .zoneBusy, .serviceUnavailable]))
            var codes: [CloudErrorCode?] = []
            for index in 0..<40 {
                codes.append(await cloudError { try await alice.save([record("r\(index)")]) }?.code)
            }
            return codes
        }
        let first = try await outcomes(seed: 7)
        #expect(try await outcomes(seed: 7) == first)
        #expect(try await outcomes(seed: 8) != first)
        let failures = first.compactMap { $0 }.count
        #expect(failures > 5 && failures < 30)
    }

    @Test(arguments: CloudMode.allCases)
    func countersTellRequestsRecordsAndBytes(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice")
        try await alice.save([record("a"), record("b")])
        _ = try await alice.delete([record("a").id])
        _ = try await alice.allZoneChanges(myZone)
        let counters = try harness.cloud.counters()
        #expect(counters["requests.saveZones"] == 1)
        #expect(counters["requests.modify"] == 2)
        #expect(counters["requests.fetchZoneChanges"] == 1)
        #expect(counters["records.saved"] == 2 && counters["records.deleted"] == 1)
        #expect(counters["records.fetched"] == 1)
        #expect((counters["bytes.uploaded"] ?? 0) > 0)
    }
}
