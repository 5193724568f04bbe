import Foundation
import SyncCore
import SyncPorts
import Testing

/// `StoredModels`: the app's models as records, written by the engine and read for the push.
@Suite("Store contract: stored models")
struct StoredModelsContract {
    typealias Store = ContractStore

    /// A pulled record becomes the model, uploads as the same fields, answers where it sits, and
    /// goes with its subtree, whose keys come back.
    @Test(arguments: StoreShape.allCases)
    func aPulledRecordIsTheModelUntilItGoesWithItsSubtree(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let list = SharedList(recordName: "groceries", title: "Groceries").makeRecord(routes: ZoneRoutes(syncZoneName: Store.zone.zoneName))
        let item = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset)
            .makeRecord(routes: ZoneRoutes(syncZoneName: Store.zone.zoneName))
        let (upload, placed, children, names, stored) = try contract.transaction { (store: any StoredModels) in
            _ = try store.insertPulled(list, as: SharedList.self)
            _ = try store.applyPulled(item, as: ListItem.self)
            return (try store.uploadRecord(type: ListItem.self, recordName: "milk", routes: ZoneRoutes(syncZoneName: Store.zone.zoneName)),
                    try store.parentAndOwner(type: ListItem.self, recordName: "milk"),
                    try store.childNames(type: ListItem.self, parentRecordName: "groceries"),
                    try store.recordNames(type: SharedList.self, ownerName: SyncConstants.currentUserOwnerName),
                    try store.storedNames(type: ListItem.self, among: ["milk", "eggs"]))
        }
        #expect(upload?.fields["text"] == .string("Milk") && upload?.parentRecordName == "groceries")
        #expect(placed?.parent == "groceries" && placed?.owner == SyncConstants.currentUserOwnerName)
        #expect(children == ["milk"] && names == ["groceries"] && stored == ["milk"])
        let removed = try contract.transaction { (store: any StoredModels) in try store.deletePulled(type: SharedList.self, recordName: "groceries") }
        #expect(Set(removed) == [RecordKey("SharedList", "groceries"), RecordKey("ListItem", "milk")])
        #expect(try contract.transaction { (store: any StoredModels) in try store.isStored(RecordKey("ListItem", "milk")) } == false)
    }

    /// A model takes a new owner where it is, and a copy of it can be saved under a new name.
    @Test(arguments: StoreShape.allCases)
    func aModelMovesToAnOwnerAndCanBeCopied(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let (owner, copyName, copy) = try contract.transaction { (store: any StoredModels) in
            _ = try store.insertPulled(Store.note("n", "Shared"), as: Note.self)
            try store.setOwner("_bob", type: Note.self, recordName: "n")
            let owner = try store.parentAndOwner(type: Note.self, recordName: "n")?.owner
            let copyName = try store.saveCopy(type: Note.self, recordName: "n", as: "n-copy", ownerName: SyncConstants.currentUserOwnerName, renaming: [:])
            return (owner, copyName, try store.uploadRecord(type: Note.self, recordName: "n-copy", routes: ZoneRoutes(syncZoneName: Store.zone.zoneName)))
        }
        #expect(owner == "_bob" && copyName == "n-copy" && copy?.fields["title"] == .string("Shared"))
    }
}
