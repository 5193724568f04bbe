import Foundation
import SyncCore
import SyncPorts
import Testing

/// `StoreHistory`: the app's changes after the committed token, and the engine's writes never
/// among them.
@Suite("Store contract: history")
struct StoreHistoryContract {
    typealias Store = ContractStore

    /// Breaking it: an engine write counted as the app's would push every pulled record back.
    @Test(arguments: StoreShape.allCases)
    func theAppsChangesWaitUntilCommittedAndTheEnginesNever(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save(Note(recordName: "mine", title: "Mine"))
        try contract.transaction { (store: any StoredModels) in _ = try store.insertPulled(Store.note("pulled"), as: Note.self) }
        let (waiting, readThrough, mine, pulled) = try contract.transaction { (history: any StoreHistory) in
            let unpushed = try history.unpushedChanges(limit: nil)
            return (unpushed.changes.map(\.recordName), unpushed.readThrough,
                    try history.hasLocalChange(recordType: "Note", recordName: "mine"), try history.hasLocalChange(recordType: "Note", recordName: "pulled"))
        }
        #expect(waiting == ["mine"] && mine && !pulled)
        let (after, anyLeft) = try contract.transaction { (history: any StoreHistory) in
            try history.commitHistoryToken(readThrough)
            return (try history.recordsWithLocalChanges().records, try history.hasUnpushedChanges())
        }
        #expect(after.isEmpty && !anyLeft)
    }

    /// A waiting change taken back is gone from what waits, another record's stays, and a record
    /// with nothing waiting says so. Breaking it (the engine's entries dropped too, or none):
    /// "n" still waits, or the answer lies.
    @Test(arguments: StoreShape.allCases)
    func aWaitingChangeDroppedWaitsNoMore(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save(Note(recordName: "n", title: "N"))
        try contract.store.save(Note(recordName: "n", title: "N, edited"))
        try contract.store.save(Note(recordName: "other", title: "Other"))
        let (dropped, again, left) = try contract.transaction { (history: any StoreHistory) in
            (try history.dropUnpushedChanges(recordType: "Note", recordName: "n"), try history.dropUnpushedChanges(recordType: "Note", recordName: "n"),
             try history.unpushedChanges(limit: nil).changes.map(\.recordName))
        }
        #expect(dropped && !again && left == ["other"])
        #expect(try contract.transaction { (history: any StoreHistory) in try history.hasLocalChange(recordType: "Note", recordName: "n") } == false)
    }

    /// A record queued again, or a deletion queued, is a change of the app's, later than any read.
    @Test(arguments: StoreShape.allCases)
    func aChangeQueuedAgainIsTheAppsAndLater(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save(Note(recordName: "n", title: "N"))
        let mark = try contract.transaction { (history: any StoreHistory) -> Int64 in
            let read = try history.unpushedChanges(limit: nil).readThrough
            try history.commitHistoryToken(read)
            return read
        }
        let (changed, kinds) = try contract.transaction { (history: any StoreHistory) in
            try history.requeue(recordType: "Note", recordName: "n", ownerName: SyncConstants.currentUserOwnerName)
            try history.queueDeletion(recordType: "Note", recordName: "elsewhere", ownerName: "_bob")
            return (try history.recordsChanged(after: mark).records, try history.unpushedChanges(limit: nil).changes.map { "\($0.recordName) \($0.kind)" })
        }
        #expect(changed == [RecordKey("Note", "n"), RecordKey("Note", "elsewhere")])
        #expect(kinds == ["n save", "elsewhere deletion"])
    }
}
