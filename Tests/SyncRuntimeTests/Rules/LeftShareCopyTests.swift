import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``LeftShareCopy`` on its own: the copy of a shared list and its items, made in the
/// caller's transaction, in the user's own zone under new names, parents following; remembered,
/// so a leave resumed after a crash finds it rather than making another.
@Suite("Rule: a left share's copy")
struct LeftShareCopyTests {
    /// Breaking it: copies keeping their originals' parent names leave the items under bob's
    /// list; not remembering the copy makes a second one on the second call.
    @Test func theSubtreeIsCopiedOnceUnderNewNames() throws {
        let bench = try RuleBench(models: [SharedList.self, ListItem.self])
        let bob = "_bob"
        try bench.store.save(SharedList(recordName: "groceries", ownerName: bob, title: "Groceries"))
        try bench.store.save([
            ListItem(recordName: "milk", ownerName: bob, parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset),
            ListItem(recordName: "eggs", ownerName: bob, parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset),
        ])
        let root = try #require(try bench.store.fetch(SharedList.self, recordName: "groceries"))
        let rule = LeftShareCopy(context: bench.context)
        let source = LeftShareCopy.Source.subtree(root: root.recordName, type: SharedList.self, ownerName: root.ownerName)
        let copied = try bench.transaction { try rule.copy(source, in: $0) }
        #expect(copied.map(\.original) == ["groceries", "eggs", "milk"] || copied.map(\.original) == ["groceries", "milk", "eggs"])
        #expect(copied.allSatisfy { $0.copy != $0.original })
        let listCopy = try #require(try bench.store.fetch(SharedList.self, recordName: copied[0].copy))
        #expect(listCopy.ownerName == SyncConstants.currentUserOwnerName && listCopy.title == "Groceries")
        let items = try bench.store.fetch(Query<ListItem>().filter(.isChild(of: listCopy.recordName)).sorted(by: \.text))
        #expect(items.map(\.text) == ["Eggs", "Milk"] && items.allSatisfy { $0.ownerName == SyncConstants.currentUserOwnerName })
        #expect(try bench.transaction { try rule.copy(source, in: $0) }.map(\.copy) == copied.map(\.copy), "remembered")
        #expect(try bench.store.count(Query<ListItem>()) == 4)
    }

    /// Of a zone shared whole, only what this user created: Bob's "eggs" under Alice's list takes
    /// the list along (not Alice's "milk"), and Bob's own list "hardware" comes whole; a record
    /// the cloud has not seen yet is Bob's. Breaking it (the creator read as this user's for
    /// every record): "milk" is copied too; (no ancestors): "eggs" is copied under no list.
    @Test func ownRecordsTakeTheirAncestorsAndNothingElse() throws {
        let bench = try RuleBench(models: [SharedList.self, ListItem.self])
        let alice = "_alice"
        let zone = ZoneID(zoneName: bench.context.syncZone.zoneName, ownerName: alice)
        func pulled(_ model: some SyncModel, createdBy creator: String) throws {
            var record = model.makeRecord(syncZoneName: zone.zoneName)
            record.creatorUserRecordName = creator
            _ = try bench.transaction { store in
                _ = try store.insertPulled(record, as: record.recordType == "ListItem" ? ListItem.self : SharedList.self)
                try store.setServerRecord(record)
            }
        }
        try pulled(SharedList(recordName: "groceries", ownerName: alice, title: "Groceries"), createdBy: alice)
        try pulled(ListItem(recordName: "milk", ownerName: alice, parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset), createdBy: alice)
        try pulled(ListItem(recordName: "eggs", ownerName: alice, parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset), createdBy: SyncConstants.currentUserOwnerName)
        try pulled(SharedList(recordName: "hardware", ownerName: alice, title: "Hardware"), createdBy: SyncConstants.currentUserOwnerName)
        try bench.store.save(ListItem(recordName: "nails", ownerName: alice, parent: RecordReference(recordName: "hardware"), text: "Nails", assignee: .unset))
        let rule = LeftShareCopy(context: bench.context)
        let copied = try bench.transaction { try rule.copy(.zone(zone, onlyOwnRecords: true), in: $0) }
        #expect(Set(copied.map(\.original)) == ["groceries", "eggs", "hardware", "nails"])
        let names = Dictionary(uniqueKeysWithValues: copied.map { ($0.original, $0.copy) })
        let eggs = try #require(try bench.store.fetch(ListItem.self, recordName: names["eggs"]!))
        #expect(eggs.parent?.recordName == names["groceries"] && eggs.ownerName == SyncConstants.currentUserOwnerName)
        #expect(try bench.store.fetch(Query<ListItem>().filter(.isChild(of: names["groceries"]!))).map(\.text) == ["Eggs"])
    }
}
