// Tests of the CloudKit gateway over its stand-in, which exists only where CloudKit does not: on
// Apple platforms the gateway talks to CloudKit itself (docs/CloudKit.md).
#if !canImport(CloudKit)
@testable import CloudKitGateway
import CloudKitStandIn
import Foundation
import SyncLocalCloud
import SyncRuntime
import Testing

/// The gateway's mapping driven through the stand-in's CloudKit API down to LocalCloud: what a
/// save over a known version, a conflict and a change feed look like from CloudKit's objects.
@Suite("CloudKit stand-in: CloudKit's records over LocalCloud")
struct CloudKitStandInTests {
    let cloud: LocalCloud
    let database: CKDatabase
    static let zone = ZoneID(zoneName: "SyncgenZone")

    init() async throws {
        cloud = try LocalCloud.inMemory()
        let container = CKContainer(device: try cloud.device("phone", account: "alice"))
        database = container.privateCloudDatabase
        _ = try await database.modifyRecordZones(saving: [CKRecordZone(zoneName: Self.zone.zoneName)], deleting: [])
    }

    /// Saves one record atomically: its error is the one the thrown error names for it.
    func save(_ record: SyncRecord) async throws -> Result<SyncRecord, CloudError> {
        let ck = try CloudKitRecords.ckRecord(record)
        do {
            let results = try await database.modifyRecords(saving: [ck], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
            return .success(try CloudKitRecords.syncRecord(try #require(results.saveResults[ck.recordID]).get()))
        } catch let error as CKError where error.partialErrorsByItemID != nil {
            return .failure(CloudKitErrors.cloudError(try #require(error.partialErrorsByItemID?[ck.recordID])))
        }
    }

    static func note(_ fields: RecordFields) -> SyncRecord {
        SyncRecord(recordType: "Note", id: RecordID(recordName: "n", zoneID: zone), fields: fields)
    }

    /// A save over a known version carries only what it sets (CloudKit sends changed keys): the
    /// server keeps every other key. A save over an older version, or a new record over an
    /// existing one, meets the server's record, mapped back with its fields. Breaking it: a
    /// save built fresh instead of rebuilt from the system fields is a new record, and conflicts.
    @Test func aSaveOverAKnownVersionKeepsTheServersOtherKeysAndAStaleOneConflicts() async throws {
        let first = try await save(Self.note(["title": .string("one"), "body": .string("kept")])).get()
        #expect(first.changeTag != nil && first.systemFields != nil)
        var edit = first
        edit.fields = ["title": .string("two")]
        let second = try await save(edit).get()
        #expect(second.changeTag != first.changeTag)
        let fetched = try #require(try await database.records(for: [CloudKitRecords.recordID(first.id)], desiredKeys: nil).values.first?.get())
        #expect(fetched.object(forKey: "body") as? NSString == "kept" && fetched.object(forKey: "title") as? NSString == "two")
        var stale = first
        stale.fields = ["title": .string("stale")]
        guard case .failure(let conflict) = try await save(stale) else {
            Issue.record("a save over an older version went through")
            return
        }
        #expect(conflict.code == .serverRecordChanged && conflict.serverRecord?.fields["title"] == .string("two"))
        guard case .failure(let fresh) = try await save(Self.note(["title": .string("fresh")])) else {
            Issue.record("a new record over an existing one went through")
            return
        }
        #expect(fresh.code == .serverRecordChanged)
        // Merged onto the server's version the conflict brought, the save goes through.
        var merged = try #require(conflict.serverRecord)
        merged.fields = ["title": .string("merged")]
        #expect(try await save(merged).get().fields["title"] == .string("merged"))
    }

    /// Apple, `CKRecord.parent`: "The reference must use the CKRecord.ReferenceAction.none action
    /// or CloudKit throws an exception"; the stand-in refuses the save. Apple,
    /// `CKRecord.encryptedValues`: any type "except CKAsset ... and CKRecord.Reference".
    @Test func theStandInRefusesWhatCloudKitRefuses() async throws {
        let list = CKRecord(recordType: "List", recordID: CKRecord.ID(recordName: "l", zoneID: CloudKitRecords.zoneID(Self.zone)))
        let child = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "i", zoneID: CloudKitRecords.zoneID(Self.zone)))
        child.parent = CKRecord.Reference(recordID: list.recordID, action: .deleteSelf)
        let secret = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "s", zoneID: CloudKitRecords.zoneID(Self.zone)))
        secret.encryptedValues.setObject(CKRecord.Reference(recordID: list.recordID, action: .none), forKey: "link")
        let results = try await database.modifyRecords(saving: [list, child, secret], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
        for id in [child.recordID, secret.recordID] {
            guard case .failure(let error) = results.saveResults[id] else {
                Issue.record("\(id.recordName) was saved")
                continue
            }
            #expect(CloudKitErrors.cloudError(error).code == .invalidArguments)
        }
    }

    /// A zone's changes come as CloudKit's objects with a token that is archived for the port
    /// and handed back: the second fetch from the first's token brings only what came after.
    @Test func zoneChangesPageWithArchivedTokens() async throws {
        _ = try await save(Self.note(["title": .string("one")])).get()
        let zone = CloudKitRecords.zoneID(Self.zone)
        let first = try await database.recordZoneChanges(inZoneWith: zone, since: nil, desiredKeys: nil, resultsLimit: nil)
        #expect(first.modificationResultsByID.count == 1 && !first.moreComing)
        let token = try CloudKitArchives.serverChangeToken(try CloudKitArchives.changeToken(first.changeToken))
        var other = Self.note(["title": .string("two")])
        other.id = RecordID(recordName: "m", zoneID: Self.zone)
        _ = try await save(other).get()
        let second = try await database.recordZoneChanges(inZoneWith: zone, since: token, desiredKeys: nil, resultsLimit: nil)
        #expect(second.modificationResultsByID.keys.map(\.recordName) == ["m"])
    }

    // MARK: - The async API's answers

    /// The CloudKit code of a failed item's result; nil for a success or no result.
    static func code<Value>(_ result: Result<Value, any Error>?) -> CKError.Code? {
        guard case .failure(let error as CKError)? = result else { return nil }
        return error.code
    }

    /// Apple, `modifyRecords(saving:deleting:savePolicy:atomically:)`: "This method throws an
    /// error if the request fails, ... or when atomically is true and one or more of the
    /// specified changes fail; otherwise, the returned tuple includes any individual record
    /// errors." Apple, `CKError.Code.partialFailure`: the items that did not fail themselves get
    /// `batchRequestFailed`. Atomic in a custom zone with one stale save, the call throws, with
    /// each item's error inside (`partialErrorsByItemID`): the conflict carries the server's,
    /// the client's and the ancestor's records, its sibling `batchRequestFailed`, and nothing is
    /// saved. The thrown error's own code Apple's async page leaves open (`CKError.h`: a
    /// `partialFailure` "is not returned from the newer result blocks"): the stand-in throws it
    /// as the failing item's own code by default, the harsher reading for a client that looks at
    /// the code, and as `partialFailure` or `batchRequestFailed` when asked. Not atomic, the same
    /// request returns each item's result and saves the good one. Breaking it: per-item results
    /// returned for an atomic request, as the stand-in did before, and the gateway never meets
    /// CloudKit's answer (T21.16).
    @Test(arguments: [(StandInAtomicFailure.failingItemsCode, CKError.Code.serverRecordChanged), (.partialFailure, .partialFailure), (.batchRequestFailed, .batchRequestFailed)])
    func anAtomicRequestWithAFailingItemThrows(_ mode: StandInAtomicFailure, _ code: CKError.Code) async throws {
        let database = CKContainer(device: try cloud.device("alice-phone", account: "alice"), atomicFailure: mode).privateCloudDatabase
        let first = try await save(Self.note(["title": .string("one")])).get()
        _ = try await save({ var edit = first; edit.fields = ["title": .string("two")]; return edit }()).get()
        var stale = first
        stale.fields = ["title": .string("stale")]
        let zone = CloudKitRecords.zoneID(Self.zone)
        let fresh = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "fresh", zoneID: zone))
        fresh.setObject("new" as NSString, forKey: "title")
        let staleCK = try CloudKitRecords.ckRecord(stale)
        do {
            _ = try await database.modifyRecords(saving: [fresh, staleCK], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
            Issue.record("an atomic request with a failing item returned")
        } catch let error as CKError {
            #expect(error.code == code)
            let conflict = try #require(error.partialErrorsByItemID?[staleCK.recordID] as? CKError)
            #expect(conflict.code == .serverRecordChanged)
            #expect(conflict.serverRecord?.object(forKey: "title") as? NSString == "two")
            #expect(conflict.clientRecord?.object(forKey: "title") as? NSString == "stale")
            #expect(conflict.ancestorRecord?.object(forKey: "title") as? NSString == "one")
            #expect((error.partialErrorsByItemID?[fresh.recordID] as? CKError)?.code == .batchRequestFailed)
        }
        #expect(Self.code(try await database.records(for: [fresh.recordID], desiredKeys: nil)[fresh.recordID]) == .unknownItem)
        let results = try await database.modifyRecords(saving: [fresh, try CloudKitRecords.ckRecord(stale)], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
        #expect(try results.saveResults[fresh.recordID]?.get().object(forKey: "title") as? NSString == "new")
        guard case .failure(let error as CKError)? = results.saveResults[staleCK.recordID] else {
            Issue.record("the stale save went through")
            return
        }
        #expect(error.code == .serverRecordChanged)
    }

    /// Apple, `CKModifyRecordsOperation.isAtomic`: "If a record zone doesn't support the atomic
    /// capability, setting this property has no effect." The default zone saves item by item,
    /// yet the atomic call still throws when one fails: the stand-in takes the strict reading
    /// that the thrown error names the failures only, so what was saved goes unreported. (The
    /// gateway never sends an atomic request to a default zone.)
    @Test func anAtomicRequestToADefaultZoneSavesItsGoodItemsAndThrows() async throws {
        let cloud = try LocalCloud.inMemory()
        let alice = CKContainer(device: try cloud.device("alice-phone", account: "alice")).publicCloudDatabase
        let bob = CKContainer(device: try cloud.device("bob-phone", account: "bob")).publicCloudDatabase
        let theirs = CKRecord(recordType: "Post", recordID: CKRecord.ID(recordName: "theirs"))
        theirs.setObject("alice's" as NSString, forKey: "title")
        _ = try await alice.modifyRecords(saving: [theirs], deleting: [], savePolicy: .allKeys, atomically: false)
        let mine = CKRecord(recordType: "Post", recordID: CKRecord.ID(recordName: "mine"))
        mine.setObject("bob's" as NSString, forKey: "title")
        let overwrite = CKRecord(recordType: "Post", recordID: theirs.recordID)
        overwrite.setObject("bob was here" as NSString, forKey: "title")
        do {
            _ = try await bob.modifyRecords(saving: [mine, overwrite], deleting: [], savePolicy: .allKeys, atomically: true)
            Issue.record("an atomic request with a failing item returned")
        } catch let error as CKError {
            #expect(error.code == .permissionFailure)
            #expect((error.partialErrorsByItemID?[theirs.recordID] as? CKError)?.code == .permissionFailure)
            #expect(error.partialErrorsByItemID?[mine.recordID] == nil)
        }
        #expect(try await bob.records(for: [mine.recordID], desiredKeys: nil)[mine.recordID]?.get().object(forKey: "title") as? NSString == "bob's")
    }

    /// Apple, `modifyRecordZones(saving:deleting:)` and `modifySubscriptions(saving:deleting:)`:
    /// each item's result in the returned dictionaries; the call throws only when the request
    /// fails (Apple, `save(_:)` of a subscription: "throws an error if the request fails, such as
    /// when the network is unavailable or the device doesn't have an active iCloud account").
    /// A zone the shared database cannot create, a query subscription it cannot hold, fail as
    /// items; a device offline throws.
    @Test func zonesAndSubscriptionsFailItemByItemAndOfflineThrows() async throws {
        let cloud = try LocalCloud.inMemory()
        let device = try cloud.device("phone", account: "alice")
        let container = CKContainer(device: device)
        let zone = CKRecordZone(zoneName: "Other")
        let shared = try await container.sharedCloudDatabase.modifyRecordZones(saving: [zone], deleting: [])
        #expect(Self.code(shared.saveResults[zone.zoneID]) == .badDatabase)
        let missing = CKRecordZone.ID(zoneName: "Missing", ownerName: CKCurrentUserDefaultName)
        let deleted = try await container.privateCloudDatabase.modifyRecordZones(saving: [], deleting: [missing])
        #expect(Self.code(deleted.deleteResults[missing]) == .zoneNotFound)
        let subscription = CKQuerySubscription(
            recordType: "Note", predicate: NSPredicate(value: true), subscriptionID: "notes",
            options: [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion])
        let saved = try await container.sharedCloudDatabase.modifySubscriptions(saving: [subscription], deleting: [])
        #expect(Self.code(saved.saveResults["notes"]) == .badDatabase)
        cloud.setNetworkAvailable(false, for: "phone")
        do {
            _ = try await container.privateCloudDatabase.modifyRecordZones(saving: [zone], deleting: [])
            Issue.record("a request of a device offline returned")
        } catch let error as CKError {
            #expect(error.code == .networkUnavailable)
        }
    }

    /// Apple, `CKQuery`, "Predicate Rules for Query Objects": a list field is matched with
    /// `CONTAINS` or `IN`, a location only by distance (`distanceToLocation:fromLocation:`), and
    /// no asset is queried. A query for equality on any of them is refused with
    /// `invalidArguments` by the gateway before it is sent (no request reaches the cloud), and by
    /// LocalCloud. Breaking it: the gateway building the predicate and sending it to fail on the
    /// server.
    @Test(arguments: [
        ("tags", SyncFieldValue.list([.string("a")])), ("place", .location(SyncLocation(latitude: 1, longitude: 2))),
        ("cover", .asset(SyncAsset(fileURL: URL(fileURLWithPath: "/tmp/cover.jpg")))),
    ])
    func aQueryCloudKitCannotExpressIsRefusedBeforeItIsSent(field: String, value: SyncFieldValue) async throws {
        let cloud = try LocalCloud.inMemory()
        let device = try cloud.device("phone", account: "alice")
        let gateway = CloudKitGateway(container: CKContainer(device: device))
        let query = RecordQuery(recordType: "Note", conditions: [FieldCondition(field, .equal, [value])])
        let refused = await cloudError { _ = try await gateway.query(query, in: .public) }
        #expect(refused?.code == .invalidArguments)
        #expect(try cloud.counters()["requests.query"] == nil)
        #expect(await cloudError { _ = try await device.query(query, in: .public) }?.code == .invalidArguments)
        #expect(try await gateway.query(RecordQuery(recordType: "Note", conditions: [FieldCondition("title", .equal, [.string("a")])]), in: .public).records.isEmpty)
    }
}
#endif
