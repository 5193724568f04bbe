import Foundation
import SyncCore
import SyncPorts
import Testing

/// `ConflictLog`: the fields a merge settled, newest first, as many as the retention keeps.
@Suite("Store contract: conflict log")
struct ConflictLogContract {
    @Test(arguments: StoreShape.allCases)
    func conflictsAreKeptNewestFirstWithinTheRetention(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let keepTwo = ConflictRetention(maximumCount: 2, maximumAge: nil)
        let recent = try contract.transaction { (store: any ConflictLog) in
            for name in ["a", "b", "c"] {
                try store.noteConflictResolution(recordType: "Note", recordName: name)
                _ = try store.recordConflict(
                    recordType: "Note", id: ContractStore.note(name).id,
                    fields: [FieldConflict(field: "title", ancestor: nil, local: .string("mine"), server: .string("theirs"), resolved: .string("theirs"))],
                    retention: keepTwo)
            }
            return try store.recentConflicts(limit: 10)
        }
        #expect(recent.map(\.recordID.recordName) == ["c", "b"])
        #expect(recent.first?.fields.first?.resolved == .string("theirs"))
    }
}
