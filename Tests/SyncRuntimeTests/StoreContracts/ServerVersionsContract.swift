import Foundation
import SyncCore
import SyncPorts
import Testing

/// `ServerVersions`: the last version known of each record, the saves sent whose reply was never
/// read, and a zone's listing from scratch.
@Suite("Store contract: server versions")
struct ServerVersionsContract {
    typealias Store = ContractStore

    /// A tag of `nil` (no version kept) differs from `.some(nil)` (a version without a tag); a
    /// version is replaced, read one by one or for a zone, and removed.
    @Test(arguments: StoreShape.allCases)
    func theLastVersionKnownIsKeptPerRecord(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let (unknown, untagged, tagged, batch) = try contract.transaction { (store: any ServerVersions) in
            let unknown = try store.serverChangeTag(Store.note("a").id)
            try store.setServerRecord(Store.note("a", tag: nil))
            let untagged = try store.serverChangeTag(Store.note("a").id)
            try store.setServerRecord(Store.note("a", "A2", tag: "t2"))
            try store.setServerRecord(Store.note("b", tag: "t1"))
            return (unknown, untagged, try store.serverChangeTag(Store.note("a").id), try store.serverChangeTags(["a", "b", "c"], in: Store.zone))
        }
        #expect(unknown == nil)
        #expect(untagged == .some(nil))
        #expect(tagged == "t2")
        #expect(batch == ["a": "t2", "b": "t1"])
        let (record, records, ids) = try contract.transaction { (store: any ServerVersions) in
            (try store.serverRecord(Store.note("a").id), try store.serverRecords(["a", "c"], in: Store.zone), try store.serverRecordIDs(inZone: Store.zone))
        }
        #expect(record?.fields["title"] == .string("A2") && Array(records.keys) == ["a"] && Set(ids.map(\.recordName)) == ["a", "b"])
        try contract.transaction { (store: any ServerVersions) in try store.removeServerRecord(Store.note("a").id) }
        #expect(try contract.transaction { (store: any ServerVersions) in try store.serverRecord(Store.note("a").id) } == nil)
    }

    /// Saves kept as sent, the last first, forgotten by record or by upload.
    @Test(arguments: StoreShape.allCases)
    func savesSentAreKeptUntilTheirFateIsKnown(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        var first = Store.note("a", "first")
        first.stampUpload("up-1", over: nil)
        var second = Store.note("a", "second")
        second.stampUpload("up-2", over: first)
        try contract.transaction { (store: any ServerVersions) in try store.noteSent([first]) }
        contract.clock.advance(by: 1)
        let kept = try contract.transaction { (store: any ServerVersions) in
            try store.noteSent([second])
            return try store.sentVersions(first.id).map(\.uploadVersions.first)
        }
        #expect(kept == ["up-2", "up-1"])
        let afterRefusal = try contract.transaction { (store: any ServerVersions) in
            try store.forgetSent(uploads: [second])
            return try store.sentVersions(first.id).map(\.uploadVersions.first)
        }
        #expect(afterRefusal == ["up-1"])
        let afterVersion = try contract.transaction { (store: any ServerVersions) in
            try store.forgetSent(["a"], in: Store.zone)
            return try store.sentVersions(first.id)
        }
        #expect(afterVersion.isEmpty)
    }

    /// A listing names what a fetch from scratch listed; what it did not list is returned with
    /// its type; a new listing starts from nothing listed.
    @Test(arguments: StoreShape.allCases)
    func aListingFromScratchFindsWhatItDidNotList(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let (missed, next) = try contract.transaction { (store: any ServerVersions) -> ([String], [String]) in
            for name in ["a", "b", "c"] { try store.setServerRecord(Store.note(name)) }
            let listing = try store.newListing(inZone: Store.zone)
            try store.markListed(["a", "c"], in: Store.zone, listing: listing)
            let missed = try store.serverRecordsNotListed(inZone: Store.zone, listing: listing)
            #expect(missed.allSatisfy { $0.recordType == "Note" })
            let another = try store.newListing(inZone: Store.zone)
            #expect(another != listing)
            return (missed.map(\.id.recordName), try store.serverRecordsNotListed(inZone: Store.zone, listing: another).map(\.id.recordName).sorted())
        }
        #expect(missed == ["b"] && next == ["a", "b", "c"])
    }
}
