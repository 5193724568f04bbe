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

    /// A push round cut short forgets the entries of the records it settled, up to the last entry
    /// it read: a later edit of one of them still waits, so does every other record's change, and
    /// the next write never takes a sequence number a reader already passed. Breaking it (later
    /// entries forgotten too, or the newest entry deleted rather than kept): "a"'s later edit no
    /// longer waits, or the next write reuses the forgotten entry's number.
    @Test(arguments: StoreShape.allCases)
    func aCutRoundForgetsWhatItSettledAndNothingLater(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.store.save(Note(recordName: "a", title: "A"))
        try contract.store.save(Note(recordName: "b", title: "B"))
        try contract.store.save(Note(recordName: "c", title: "C"))
        let readThrough = try contract.transaction { (history: any StoreHistory) in try history.unpushedChanges(limit: nil).readThrough }
        try contract.store.save(Note(recordName: "a", title: "A, edited after the round read it"))
        let (left, newest) = try contract.transaction { (history: any StoreHistory) in
            try history.forgetPushedChanges(of: [RecordKey("Note", "a"), RecordKey("Note", "c")], through: readThrough)
            return (try history.unpushedChanges(limit: nil).changes.map(\.recordName), try history.recordsChanged(after: 0).readThrough)
        }
        #expect(left == ["b", "a"])
        try contract.transaction { (history: any StoreHistory) in
            try history.forgetPushedChanges(of: [RecordKey("Note", "a")], through: newest)
        }
        try contract.store.save(Note(recordName: "d", title: "D"))
        let after = try contract.transaction { (history: any StoreHistory) in try history.recordsChanged(after: newest) }
        #expect(after.records == [RecordKey("Note", "d")] && after.readThrough > newest)
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
