import Foundation
import GeneratedCoverage
import SyncCore
import SyncPorts
import Testing

/// `NaturalKeyMerges`: records pulled since the last check, the duplicates of one by its keys,
/// and the merges made here, waiting for their mark or done.
@Suite("Store contract: natural-key merges")
struct NaturalKeyMergesContract {
    typealias Household = GeneratedCoverage.Household

    @Test(arguments: StoreShape.allCases)
    func duplicatesAreFoundAndMergesRemembered(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let (checks, found) = try contract.transaction { (store: any StoredModels & NaturalKeyMerges) in
            try store.prepareTable(for: Household.self)
            for name in ["b", "a"] {
                _ = try store.insertPulled(Household(recordName: name, name: "Home", tags: []).makeRecord(syncZoneName: ContractStore.zone.zoneName), as: Household.self)
            }
            return (try store.naturalKeyChecks(), try store.duplicates(of: "b", type: Household.self))
        }
        #expect(Set(checks) == [RecordKey("Household", "a"), RecordKey("Household", "b")])
        #expect(found?.owner == SyncConstants.currentUserOwnerName && found?.groups == [["a", "b"]])
        let (waiting, retiring, survivorWhileWaiting) = try contract.transaction { (store: any NaturalKeyMerges) in
            try store.clearNaturalKeyChecks(checks)
            try store.noteMergedAway(type: Household.self, name: "b", into: "a", retiring: true)
            return (try store.retirements().map { "\($0.recordName)>\($0.survivor)" }, try store.isRetiring(type: Household.self, recordName: "b"),
                    try store.survivor(ofMergedAway: "b", type: Household.self))
        }
        #expect(waiting == ["b>a"] && retiring && survivorWhileWaiting == nil)
        let (afterMark, survivor, checksLeft) = try contract.transaction { (store: any NaturalKeyMerges) in
            try store.forgetRetirement(recordType: "Household", recordName: "b")
            try store.noteMergedAway(type: Household.self, name: "b", into: "a", retiring: false)
            return (try store.isRetiring(type: Household.self, recordName: "b"), try store.survivor(ofMergedAway: "b", type: Household.self),
                    try store.naturalKeyChecks())
        }
        #expect(!afterMark && survivor == "a")
        #expect(!checksLeft.contains(RecordKey("Household", "a")), "checks cleared stay cleared")
    }
}
