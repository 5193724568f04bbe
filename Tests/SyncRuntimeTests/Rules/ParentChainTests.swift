import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``ParentChain`` on its own: a record with a parent belongs in the zone of its topmost stored
/// ancestor; one whose parent was deleted follows it, with its subtree, and says so.
@Suite("Rule: parent chains")
struct ParentChainTests {
    /// Breaking it: taking the owner of the record itself, or of its parent's parent when the
    /// parent is not stored, puts Bob's item in the wrong zone.
    @Test func aChildBelongsWhereItsTopmostStoredAncestorDoes() throws {
        let bench = try RuleBench(models: [SharedList.self, ListItem.self])
        try bench.store.save(SharedList(recordName: "groceries", ownerName: "_bob", title: "Groceries"))
        let rule = ParentChain(context: bench.context)
        let (underList, underNothing, underUnknown) = try bench.transaction { store in
            (try rule.owner(under: "groceries", type: ListItem.self, in: store), try rule.owner(under: nil, type: ListItem.self, in: store),
             try rule.owner(under: "not-pulled-yet", type: ListItem.self, in: store))
        }
        #expect(underList == "_bob" && underNothing == nil && underUnknown == nil)
    }

    /// The item of a deleted list goes here, its copy in the cloud is queued to go, and the app
    /// is told. Breaking it: deleting the item without queuing its cloud copy leaves it in the
    /// cloud for other devices to bring back.
    @Test func aChildWhoseParentWasDeletedFollowsIt() throws {
        let bench = try RuleBench(models: [SharedList.self, ListItem.self])
        let heard = Locked<[SyncEvent]>([])
        bench.context.events.observe { event in heard.withLock { $0.append(event) } }
        let item = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset)
        try bench.transaction { store in
            _ = try store.insertPulled(item.makeRecord(), as: ListItem.self)
            try store.setServerRecord(item.makeRecord())
            try ParentChain(context: bench.context).follow(deletedParent: "groceries", type: ListItem.self, recordName: "milk", in: store)
        }
        #expect(try bench.store.fetch(ListItem.self, recordName: "milk") == nil)
        #expect(try bench.transaction { try $0.recordsWithLocalChanges().records } == [RecordKey("ListItem", "milk")], "its deletion goes up")
        #expect(heard.withLock { $0 } == [.removedWithParent(RecordKey("ListItem", "milk"), parentRecordName: "groceries")])
    }
}
