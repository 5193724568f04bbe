import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncPorts
import Testing

/// ``PulledPageLanding`` on its own, in a transaction the test opens as the pull does for each
/// page: a page's records, deletions, shares, what it could not deliver and its token land
/// together, and what the pull acts on later is noted in its ``PullState``. (``PulledPageReads``,
/// the page's reads in two queries, is tested with the store: `SyncStoreTests`.)
@Suite("Rule: a pulled page landing")
struct PulledPageLandingTests {
    static let zone = ZoneID(zoneName: "SyncgenZone")

    static func state(_ bench: RuleBench) throws -> PullState {
        try bench.transaction { PullState(localChanges: try PullState.LocalChanges(in: $0)) }
    }

    static func page(saving records: [SyncRecord], deleting deleted: [String] = [], unreadable: [String] = [], token: UInt8, moreComing: Bool = false) -> ZoneChanges {
        ZoneChanges(
            changedRecords: records, changedShares: [],
            deletedRecords: deleted.map { DeletedRecord(id: RecordID(recordName: $0, zoneID: zone), recordType: "Note") },
            newToken: ChangeToken(archive: Data([token])), moreComing: moreComing,
            unreadableRecords: Dictionary(uniqueKeysWithValues: unreadable.map { (RecordID(recordName: $0, zoneID: zone), CloudError(.internalError, "x")) }))
    }

    /// Breaking it: a token kept before (or without) the page's records lets a crash skip them;
    /// a missing parent not noted leaves the item an orphan nobody repairs.
    @Test func aPageLandsWholeAndNotesWhatThePullActsOnLater() throws {
        let bench = try RuleBench(models: [Note.self, SharedList.self, ListItem.self])
        try bench.store.save(Note(recordName: "old", title: "Old"))
        var state = try Self.state(bench)
        let item = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset)
        let page = Self.page(
            saving: [Note(recordName: "new", title: "New").makeRecord(syncZoneName: Self.zone.zoneName), item.makeRecord(syncZoneName: Self.zone.zoneName)],
            deleting: ["old"], unreadable: ["hidden"], token: 7)
        let listing = try bench.transaction { store in
            try PulledPageLanding(context: bench.context).land(
                page, of: Self.zone, scope: .private, fromScratch: false, listing: nil, skipping: [], state: &state, in: store)
        }
        #expect(listing == nil, "no fetch from scratch, no listing")
        #expect(try bench.store.fetch(Note.self, recordName: "new")?.title == "New")
        #expect(try bench.store.fetch(Note.self, recordName: "old") == nil)
        #expect(try bench.store.fetch(ListItem.self, recordName: "milk") != nil)
        #expect(try bench.transaction { try $0.state(SyncStateKeys.zoneToken(Self.zone, .private)) } == ChangeToken(archive: Data([7])).storedValue)
        #expect(state.unreadable == [RecordID(recordName: "hidden", zoneID: Self.zone)])
        #expect(state.missing[RecordID(recordName: "groceries", zoneID: Self.zone)]?.recordType == "SharedList")
        #expect(state.orphans[RecordID(recordName: "groceries", zoneID: Self.zone)] == [RecordKey("ListItem", "milk")])
    }

    /// A fetch from scratch: its first page begins the listing, and its last removes what the
    /// listing never named. Breaking it: the last page not ending the listing keeps "gone", which
    /// the cloud deleted while this device's token had expired.
    @Test func aFetchFromScratchRemovesWhatItNeverListed() throws {
        let bench = try RuleBench(models: [Note.self])
        try bench.transaction { store in
            for name in ["a", "b", "gone"] {
                let record = Note(recordName: name, title: name).makeRecord(syncZoneName: Self.zone.zoneName)
                _ = try store.insertPulled(record, as: Note.self)
                try store.setServerRecord(record)
            }
        }
        var state = try Self.state(bench)
        let rule = PulledPageLanding(context: bench.context)
        func record(_ name: String) -> SyncRecord { Note(recordName: name, title: name + "!").makeRecord(syncZoneName: Self.zone.zoneName) }
        let listing = try bench.transaction { store in
            try rule.land(Self.page(saving: [record("a")], token: 1, moreComing: true), of: Self.zone, scope: .private, fromScratch: true, listing: nil, skipping: [], state: &state, in: store)
        }
        #expect(listing != nil)
        _ = try bench.transaction { store in
            try rule.land(Self.page(saving: [record("b")], token: 2), of: Self.zone, scope: .private, fromScratch: false, listing: listing, skipping: [], state: &state, in: store)
        }
        #expect(try bench.store.fetchAll(Note.self).map(\.recordName).sorted() == ["a", "b"])
    }
}
