import Foundation
import SyncPorts
import Testing

/// `KeptResults`: kept query results, ordered by when they were last kept, evicted by age and
/// count, oldest first.
@Suite("Store contract: kept results")
struct KeptResultsContract {
    @Test(arguments: StoreShape.allCases)
    func theOldestKeptAreEvictedFirst(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let start = Date(timeIntervalSince1970: 1_000)
        let (byCount, byAge, afterForget) = try contract.transaction { (store: any KeptResults) in
            try store.noteKept(recordType: "PublishedNote", recordNames: ["a", "b"], at: start)
            try store.noteKept(recordType: "PublishedNote", recordNames: ["c"], at: start.addingTimeInterval(10))
            try store.noteKept(recordType: "PublishedNote", recordNames: ["a"], at: start.addingTimeInterval(20))
            let byCount = try store.keptToEvict(recordType: "PublishedNote", keptBefore: nil, keeping: 1)
            let byAge = try store.keptToEvict(recordType: "PublishedNote", keptBefore: start.addingTimeInterval(15), keeping: nil)
            try store.forgetKept(recordType: "PublishedNote", recordNames: ["b"])
            return (byCount, byAge, try store.keptToEvict(recordType: "PublishedNote", keptBefore: nil, keeping: 0))
        }
        #expect(byCount == ["b", "c"], "a kept again is the newest")
        #expect(byAge == ["b", "c"])
        #expect(afterForget == ["c", "a"])
    }
}
