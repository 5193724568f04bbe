import Foundation
import SyncCore
import SyncPorts
import Testing

/// `LostChangeNotices`: notices kept oldest first, each with its own growing ID, until the app
/// acknowledges them through one.
@Suite("Store contract: lost change notices")
struct LostChangeNoticesContract {
    @Test(arguments: StoreShape.allCases)
    func noticesAreKeptInOrderUntilAcknowledged(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let events: [SyncEvent] = [.changeLostToDeletion(RecordKey("Note", "a")), .changeLostToDeletion(RecordKey("Note", "b")), .changeLostToDeletion(RecordKey("Note", "c"))]
        let kept = try contract.transaction { (store: any LostChangeNotices) in
            for (index, event) in events.enumerated() { try store.keepLostChange(event, droppedAt: Date(timeIntervalSince1970: Double(index))) }
            return try store.lostChanges()
        }
        #expect(kept.map(\.event) == events && kept.map(\.id) == kept.map(\.id).sorted() && Set(kept.map(\.id)).count == 3)
        let left = try contract.transaction { (store: any LostChangeNotices) in
            try store.forgetLostChanges(through: kept[1].id)
            return try store.lostChanges().map(\.event)
        }
        #expect(left == [events[2]])
    }
}
