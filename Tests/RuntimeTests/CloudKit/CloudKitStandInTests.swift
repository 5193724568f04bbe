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

    func save(_ record: SyncRecord) async throws -> Result<SyncRecord, CloudError> {
        let ck = try CloudKitRecords.ckRecord(record)
        let results = try await database.modifyRecords(saving: [ck], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
        switch try #require(results.saveResults[ck.recordID]) {
        case .success(let saved): return .success(try CloudKitRecords.syncRecord(saved))
        case .failure(let error): return .failure(CloudKitErrors.cloudError(error))
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
}
