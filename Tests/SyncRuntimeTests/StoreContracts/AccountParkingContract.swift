import Foundation
import SyncCore
import SyncPorts
import Testing

/// `AccountParking`: an account's unpushed changes parked out of reach and the store emptied,
/// then put back as changes to push, or discarded.
@Suite("Store contract: account parking")
struct AccountParkingContract {
    /// Breaking it: a purge that does not park first loses what alice never pushed.
    @Test(arguments: StoreShape.allCases)
    func unpushedChangesAreParkedAndComeBackToBePushed(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save(Note(recordName: "draft", title: "Unpushed"))
        let (parked, list) = try contract.transaction { (store: any AccountParking) in
            (try store.parkAndPurge(account: "alice").count, try store.parkedChanges())
        }
        #expect(parked == 1 && list == [ParkedChanges(userRecordName: "alice", count: 1)])
        #expect(try contract.store.fetchAll(Note.self).isEmpty, "nothing of alice's is left in reach")
        let restored = try contract.transaction { (store: any AccountParking & StoreHistory) in
            (try store.restoreParked(account: "alice").count, try store.hasLocalChange(recordType: "Note", recordName: "draft"))
        }
        #expect(restored.0 == 1 && restored.1)
        #expect(try contract.store.fetch(Note.self, recordName: "draft")?.title == "Unpushed")
    }

    @Test(arguments: StoreShape.allCases)
    func discardedChangesAreGoneAndAPurgeKeepsWhatIsParked(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save(Note(recordName: "draft", title: "Unpushed"))
        _ = try contract.transaction { (store: any AccountParking) in try store.parkAndPurge(account: "alice") }
        try contract.store.save(Note(recordName: "bobs", title: "Bob's"))
        let (afterPurge, afterDiscard) = try contract.transaction { (store: any AccountParking) in
            try store.purgeEverything()
            let afterPurge = try store.parkedChanges().map(\.userRecordName)
            _ = try store.discardParked(account: "alice")
            return (afterPurge, try store.parkedChanges())
        }
        #expect(afterPurge == ["alice"] && afterDiscard.isEmpty)
        #expect(try contract.store.fetchAll(Note.self).isEmpty)
    }
}
