import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncPorts
import Testing

/// ``ZoneRefetch`` on its own, over an in-memory transaction: a zone fetched from scratch is a
/// listing, and what it did not list is gone from the cloud, unless the app changed it.
@Suite("Rule: a zone's listing from scratch")
struct ZoneRefetchTests {
    static let zone = ZoneID(zoneName: "SyncgenZone")

    static func page(_ names: [String], unreadable: [String] = [], moreComing: Bool) -> ZoneChanges {
        ZoneChanges(
            changedRecords: names.map { Note(recordName: $0, title: $0).makeRecord(syncZoneName: zone.zoneName) }, changedShares: [],
            deletedRecords: [], newToken: ChangeToken(archive: Data([1])), moreComing: moreComing,
            unreadableRecords: Dictionary(uniqueKeysWithValues: unreadable.map { (RecordID(recordName: $0, zoneID: zone), CloudError(.internalError, "x")) }))
    }

    /// Four records known here; two pages list "a", "b" (one it could not deliver, "b", counts
    /// as listed); "c" and "d" went unlisted: "d" is gone, "c", which the app changed, stays and
    /// only its server version goes (it goes up again as new). A first fetch, of a zone nothing is
    /// known of, is no listing. Breaking it: not noting an undelivered record as listed takes
    /// "b" for gone.
    @Test func whatTheListingMissedIsGoneUnlessTheAppChangedIt() throws {
        let bench = try RuleBench(models: [Note.self])
        try bench.store.save(Note(recordName: "c", title: "changed here"))
        let (first, listing) = try bench.transaction { store -> (Int64?, Int64?) in
            let first = try ZoneRefetch.begin(Self.zone, scope: .private, in: store)
            for name in ["a", "b", "c", "d"] {
                try store.setServerRecord(Note(recordName: name, title: name).makeRecord(syncZoneName: Self.zone.zoneName))
            }
            return (first, try ZoneRefetch.begin(Self.zone, scope: .private, in: store))
        }
        #expect(first == nil, "nothing known: no listing")
        let started = try #require(listing)
        #expect(try bench.transaction { try ZoneRefetch.listing(of: Self.zone, scope: .private, in: $0) } == started, "kept across passes")
        let gone = try bench.transaction { store in
            try ZoneRefetch.noteListed(Self.page(["a"], moreComing: true), in: Self.zone, listing: started, in: store)
            try ZoneRefetch.noteListed(Self.page([], unreadable: ["b"], moreComing: false), in: Self.zone, listing: started, in: store)
            return try ZoneRefetch.end(Self.zone, scope: .private, listing: started, in: store)
        }
        #expect(gone.map(\.id.recordName) == ["d"] && gone.map(\.recordType) == ["Note"])
        let (changed, ended) = try bench.transaction { store in
            (try store.serverRecord(RecordID(recordName: "c", zoneID: Self.zone)), try ZoneRefetch.listing(of: Self.zone, scope: .private, in: store))
        }
        #expect(changed == nil, "the changed one goes up as new")
        #expect(ended == nil, "the listing ended")
    }
}
