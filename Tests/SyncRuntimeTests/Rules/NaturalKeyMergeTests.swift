import Foundation
import GeneratedCoverage
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``NaturalKeyMerge`` on its own, in a transaction the test opens as the retirement phase does:
/// two households named "Home" arrive; the smallest name survives. A copy the cloud never had
/// merges into it at once; one the cloud has waits for its retirement (noted merged away, its
/// fields going in with its mark), so no version another device saved since is lost.
@Suite("Rule: natural-key merge")
struct NaturalKeyMergeTests {
    static func households(inCloud: Bool) throws -> (RuleBench, [(survivor: RecordKey, merged: [String])]) {
        let bench = try RuleBench(models: [GeneratedCoverage.Household.self])
        let zone = bench.context.syncZone.zoneName
        let merged = try bench.transaction { store in
            for (name, tags) in [("b", ["garden"]), ("a", ["attic"])] {
                let record = GeneratedCoverage.Household(recordName: name, name: "Home", tags: tags).makeRecord(syncZoneName: zone)
                _ = try store.insertPulled(record, as: GeneratedCoverage.Household.self)
                if inCloud { try store.setServerRecord(record) }
            }
            return try NaturalKeyMerge(context: bench.context).mergeDuplicates(in: store)
        }
        return (bench, merged)
    }

    /// Breaking it: a survivor chosen by arrival order ("b" first) rather than by name keeps "b"
    /// here while a device that heard of them the other way keeps "a".
    @Test func aCopyTheCloudNeverHadMergesIntoTheSmallestNameAtOnce() throws {
        let (bench, merged) = try Self.households(inCloud: false)
        #expect(merged.map(\.survivor) == [RecordKey("Household", "a")] && merged.first?.merged == ["b"])
        let survivor = try #require(try bench.store.fetch(GeneratedCoverage.Household.self, recordName: "a"))
        #expect(Set(survivor.tags) == ["attic", "garden"])
        #expect(try bench.store.fetch(GeneratedCoverage.Household.self, recordName: "b") == nil)
        #expect(try bench.transaction { try NaturalKeyMerge(context: bench.context).mergeDuplicates(in: $0) }.isEmpty, "nothing left to check")
    }

    /// Breaking it: merging a copy the cloud has at once (deleting it here) lets a version
    /// another device saved of it since come back as a record of its own.
    @Test func aCopyTheCloudHasWaitsForItsRetirement() throws {
        let (bench, merged) = try Self.households(inCloud: true)
        #expect(merged.isEmpty)
        #expect(try bench.transaction { try $0.isRetiring(type: GeneratedCoverage.Household.self, recordName: "b") })
        #expect(try bench.store.fetch(GeneratedCoverage.Household.self, recordName: "a")?.tags == ["attic"], "its fields go in with its mark")
    }
}
