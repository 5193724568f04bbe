import Foundation
import GeneratedCoverage
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``CloudDeletionArrival`` on its own, from each path that hears a record is gone: a pull, a
/// push told so, a change given up. The deletion wins over an edit here and says so once; a
/// deletion made here too loses nothing; a keyed record a push finds gone waits for the pull that
/// names its survivor; the records under it follow.
@Suite("Rule: a cloud deletion arriving")
struct CloudDeletionArrivalTests {
    /// A note this device edited, and whose version the cloud had, in the bench's store.
    static func editedNote(_ bench: RuleBench) throws -> RecordID {
        let note = Note(recordName: "n", title: "Mine")
        try bench.store.save(note)
        let record = note.makeRecord(syncZoneName: bench.context.syncZone.zoneName)
        try bench.transaction { try $0.setServerRecord(record) }
        return record.id
    }

    /// Breaking it: no notice from the pull's path loses the edit unnamed; a notice from the
    /// given-up path names as lost a change the app itself chose to drop.
    @Test func anEditTheDeletionDropsIsNamedUnlessTheAppGaveItUp() throws {
        for (source, named) in [(CloudDeletionArrival.Source.pull(alongside: []), true), (.push, true), (.givenUp, false)] {
            let bench = try RuleBench(models: [Note.self])
            let id = try Self.editedNote(bench)
            let applied = try bench.transaction { try CloudDeletionArrival(context: bench.context).arrive(id, type: Note.self, from: source, in: $0) }
            let stored = try bench.store.fetch(Note.self, recordName: "n")
            #expect(applied && stored == nil, "\(source)")
            #expect(try bench.transaction { try $0.serverRecord(id) } == nil, "\(source): the known version is forgotten")
            let kept = try bench.transaction { try $0.lostChanges().map(\.event) }
            #expect(kept == (named ? [.changeLostToDeletion(RecordKey("Note", "n"))] : []), "\(source)")
        }
    }

    /// Breaking it (a pending deletion counted as a change the cloud's deletion dropped, as the
    /// pull's copy of the rule did before issue 59): a `changeLostToDeletion` is kept.
    @Test func aDeletionMadeHereTooLosesNothing() throws {
        let bench = try RuleBench(models: [Note.self])
        let id = try Self.editedNote(bench)
        try bench.store.delete(Note.self, recordName: "n")
        _ = try bench.transaction { try CloudDeletionArrival(context: bench.context).arrive(id, type: Note.self, from: .pull(alongside: []), in: $0) }
        #expect(try bench.transaction { try $0.lostChanges() }.isEmpty)
    }

    /// Breaking it: a push deleting the keyed household at once drops this device's edit, which
    /// the pull would have folded into the survivor another device merged it into.
    @Test func aKeyedRecordAPushFindsGoneWaitsForThePull() throws {
        let bench = try RuleBench(models: [GeneratedCoverage.Household.self])
        let household = GeneratedCoverage.Household(recordName: "b", name: "Home", tags: ["garden"])
        try bench.store.save(household)
        let record = household.makeRecord(syncZoneName: bench.context.syncZone.zoneName)
        try bench.transaction { try $0.setServerRecord(record) }
        let rule = CloudDeletionArrival(context: bench.context)
        #expect(try !bench.transaction { try rule.arrive(record.id, type: GeneratedCoverage.Household.self, from: .push, in: $0) })
        #expect(try bench.store.fetch(GeneratedCoverage.Household.self, recordName: "b") != nil)
        #expect(try bench.transaction { try rule.arrive(record.id, type: GeneratedCoverage.Household.self, from: .pull(alongside: []), in: $0) })
        #expect(try bench.store.fetch(GeneratedCoverage.Household.self, recordName: "b") == nil)
    }

    /// The item under a list the cloud deleted goes too; its cloud copy is queued to go, unless
    /// the same page deleted it. Breaking it: skipping the subtree leaves the item under a list
    /// that is gone, in the store and in the cloud.
    @Test func theRecordsUnderItFollow() throws {
        for alongside in [false, true] {
            let bench = try RuleBench(models: [SharedList.self, ListItem.self])
            let zone = bench.context.syncZone.zoneName
            let list = SharedList(recordName: "groceries", title: "Groceries")
            let item = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset)
            let itemKey = RecordKey("ListItem", "milk")
            let listID = try bench.transaction { store in
                for record in [list.makeRecord(syncZoneName: zone), item.makeRecord(syncZoneName: zone)] {
                    _ = try store.insertPulled(record, as: record.recordType == "ListItem" ? ListItem.self : SharedList.self)
                    try store.setServerRecord(record)
                }
                return list.makeRecord(syncZoneName: zone).id
            }
            _ = try bench.transaction {
                try CloudDeletionArrival(context: bench.context).arrive(listID, type: SharedList.self, from: .pull(alongside: alongside ? [itemKey] : []), in: $0)
            }
            #expect(try bench.store.fetch(ListItem.self, recordName: "milk") == nil)
            let queued = try bench.transaction { try $0.recordsWithLocalChanges().records }
            #expect(queued == (alongside ? [] : [itemKey]), "deleted in the same page: \(alongside)")
        }
    }
}
