// Tests of the CloudKit gateway over its stand-in, which exists only where CloudKit does not: on
// Apple platforms the gateway talks to CloudKit itself (docs/CloudKit.md).
#if !canImport(CloudKit)
import CloudKitStandIn
import Foundation
import Testing
@testable import CloudKitGateway
import SyncRuntime

/// The CloudKit gateway's mapping between the port's values and CloudKit's objects, compiled
/// against the stand-in (Apple's spellings) and exercised here: every field type, encrypted
/// values, parents, references with their actions, assets, cleared keys, system fields, tokens
/// and errors.
@Suite("CloudKit gateway: records, tokens and errors between the port and CloudKit")
struct CloudKitMappingTests {
    static let zone = ZoneID(zoneName: "SyncgenZone")
    static let file = URL(fileURLWithPath: "/tmp/cover.jpg")

    static func record(_ name: String = "n", fields: RecordFields = [:]) -> SyncRecord {
        SyncRecord(recordType: "Note", id: RecordID(recordName: name, zoneID: zone), fields: fields)
    }

    /// Every value a field can hold goes to the CloudKit object CloudKit stores it as, and comes
    /// back as it went: a double stays a double (CloudKit keeps a number as written), a
    /// reference keeps its action and names a record of the same zone, a parent's action is
    /// none. Breaking it: an int written as a double, or a reference written in another zone.
    @Test func everyFieldTypeGoesToCloudKitAndBack() throws {
        var record = Self.record(fields: [
            "title": .string("Milk"), "count": .int64(3), "price": .double(2), "due": .date(Date(timeIntervalSince1970: 60)),
            "blob": .bytes(Data([1, 2])), "place": .location(SyncLocation(latitude: 48.85, longitude: 2.35)),
            "list": .reference(SyncReference(recordName: "l", action: .deleteSelf)), "owner": .reference(SyncReference(recordName: "m")),
            "assetData": .asset(SyncAsset(fileURL: Self.file)), "tags": .list([.string("a"), .string("b")]),
            "links": .list([.reference(SyncReference(recordName: "x"))]), "empty": .list([]),
        ])
        record.encryptedFields = ["secret": .string("s"), "pin": .int64(7), "born": .date(Date(timeIntervalSince1970: 1))]
        record.parentRecordName = "l"
        let ck = try CloudKitRecords.ckRecord(record)
        #expect(ck.recordID == CKRecord.ID(recordName: "n", zoneID: CKRecordZone.ID(zoneName: "SyncgenZone", ownerName: CKCurrentUserDefaultName)))
        #expect(String(cString: (ck.object(forKey: "price") as! NSNumber).objCType) == "d")
        #expect((ck.object(forKey: "list") as? CKRecord.Reference)?.action == .deleteSelf)
        #expect((ck.object(forKey: "list") as? CKRecord.Reference)?.recordID.zoneID == ck.recordID.zoneID)
        #expect(ck.parent?.action == CKRecord.ReferenceAction.none && ck.parent?.recordID.recordName == "l")
        #expect(ck.encryptedValues.object(forKey: "secret") as? NSString == "s")
        // The stand-in's harsher reading (Apple's `allKeys()` and `object(forKey:)` say nothing
        // of encrypted values): an encrypted key is listed and read among all the keys too. The
        // gateway reads it among the encrypted values alone; breaking it (every key of
        // `allKeys()` read as plain) puts "secret" among the plain fields, to be saved back
        // unencrypted.
        #expect(ck.allKeys().contains("secret") && ck.object(forKey: "secret") as? NSString == "s")
        let back = try CloudKitRecords.syncRecord(ck)
        #expect(back.fields == record.fields)
        #expect(back.encryptedFields == record.encryptedFields)
        #expect(back.parentRecordName == "l")
    }

    /// Apple, `CKRecord.encryptedValues`: encrypted values take neither references nor assets.
    /// Breaking it: writing one to `encryptedValues` fails only at CloudKit's save, for the
    /// whole request.
    @Test func anEncryptedReferenceOrAssetIsRefused() {
        for value in [SyncFieldValue.reference(SyncReference(recordName: "x")), .asset(SyncAsset(fileURL: Self.file))] {
            var record = Self.record()
            record.encryptedFields = ["secret": value]
            #expect(throws: CloudError.self) { try CloudKitRecords.ckRecord(record) }
        }
    }

    /// Apple, `CKRecord.recordChangeTag` is read-only, and `encodeSystemFields(with:)` archives
    /// "the record ID and the change tag": a record based on a known version is that version
    /// rebuilt from its archive, carrying only the keys the save sets or clears. A record without
    /// system fields is new. System fields of another record are refused, never saved under the
    /// archive's ID. Breaking it: a record built fresh with the tag copied over cannot be (the
    /// tag has no setter), and one built fresh without it overwrites nothing but conflicts.
    @Test func aSaveOverAKnownVersionIsThatVersionRebuilt() throws {
        let server = CKRecord(recordType: "Note", recordID: CloudKitRecords.recordID(Self.record().id))
        server.setServerMetadata(changeTag: "tag-7", creationDate: nil, modificationDate: Date(timeIntervalSince1970: 9), creator: nil, lastModifier: nil, share: nil)
        server.setObject("old" as NSString, forKey: "title")
        server.setObject("kept" as NSString, forKey: "body")
        server.markUnchanged()
        var edit = try CloudKitRecords.syncRecord(server)
        #expect(edit.changeTag == "tag-7" && edit.systemFields != nil)
        edit.fields = ["title": .string("new")]
        edit.clearedKeys = ["due", "secret"]
        edit.clearedEncryptedKeys = ["secret"]
        let save = try CloudKitRecords.ckRecord(edit)
        #expect(save.recordChangeTag == "tag-7")
        #expect(save.changedKeys() == ["due", "title"])
        // An encrypted field is cleared among the encrypted values, where CloudKit keeps it.
        #expect(save.encryptedValues.changedKeys() == ["secret"])
        #expect(save.object(forKey: "body") == nil, "a rebuilt record holds no field it did not set")
        #expect(try CloudKitRecords.ckRecord(Self.record()).recordChangeTag == nil)
        var foreign = Self.record("other")
        foreign.systemFields = edit.systemFields
        #expect(throws: CloudError.self) { try CloudKitRecords.ckRecord(foreign) }
        var garbage = Self.record()
        garbage.systemFields = SystemFields(archive: Data("LocalCloud.systemFields.1".utf8))
        #expect(throws: CloudError.self) { try CloudKitRecords.ckRecord(garbage) }
    }

    /// Who made a record and who last changed it, and when, come from the server's CKRecord
    /// (Apple, `CKRecord.creatorUserRecordID`, `creationDate`, `lastModifiedUserRecordID`,
    /// `modificationDate`: set by the server) and are never sent back. Breaking it: the last
    /// modifier read as the creator.
    @Test func whoMadeAndChangedARecordComeFromTheServer() throws {
        let server = CKRecord(recordType: "Note", recordID: CloudKitRecords.recordID(Self.record().id))
        server.setServerMetadata(
            changeTag: "3", creationDate: Date(timeIntervalSince1970: 5), modificationDate: Date(timeIntervalSince1970: 9),
            creator: CKRecord.ID(recordName: "_bob"), lastModifier: CKRecord.ID(recordName: "_carol"), share: nil)
        server.markUnchanged()
        let record = try CloudKitRecords.syncRecord(server)
        #expect(record.creatorUserRecordName == "_bob" && record.lastModifiedUserRecordName == "_carol")
        #expect(record.creationDate == Date(timeIntervalSince1970: 5) && record.modificationDate == Date(timeIntervalSince1970: 9))
        #expect(try CloudKitRecords.ckRecord(record).changedKeys().isEmpty)
    }

    /// A model's encrypted field without a value is cleared among the encrypted values, its
    /// plain fields among the plain ones. Breaking it: clearing `pin` with the plain setter would
    /// leave CloudKit's encrypted value in place.
    @Test func aModelsClearedEncryptedFieldIsClearedWhereCloudKitKeepsIt() throws {
        let record = SharedList(recordName: "l", title: "Groceries", pin: nil).makeRecord()
        #expect(record.clearedEncryptedKeys == ["pin"] && record.clearedKeys.contains("pin"))
        let ck = try CloudKitRecords.ckRecord(record)
        #expect(ck.encryptedValues.changedKeys() == ["pin"])
        #expect(!ck.changedKeys().contains("pin"))
    }

    /// Apple, `CKServerChangeToken`: no usable initialiser, `NSSecureCoding`. A token travels as
    /// its archive and comes back equal; an archive of another cloud reads as an expired token
    /// (the engine then fetches from scratch).
    @Test func changeTokensTravelArchived() throws {
        let token = CKServerChangeToken(archive: Data("zone:1:5".utf8))
        let archived = try CloudKitArchives.changeToken(token)
        #expect(try CloudKitArchives.serverChangeToken(archived) == token)
        do {
            _ = try CloudKitArchives.serverChangeToken(ChangeToken(archive: Data("zone:1:5".utf8)))
            Issue.record("LocalCloud's token read as CloudKit's")
        } catch {
            #expect(error.code == .changeTokenExpired)
        }
    }

    /// Apple, `CKError`: `retryAfterSeconds`, the conflict's `serverRecord`, `clientRecord` and
    /// `ancestorRecord`, and `partialErrorsByItemID` keyed by record ID. Each reaches the port's
    /// error; a number this version does not know keeps its number; an error that is not
    /// CloudKit's is never read as one of its codes. Breaking it: mapping by `code` turns 112
    /// into `internalError`, and the per-item errors are lost.
    @Test func cloudKitErrorsKeepEverythingTheyCarry() {
        let server = CKRecord(recordType: "Note", recordID: CloudKitRecords.recordID(Self.record().id))
        server.setServerMetadata(changeTag: "9", creationDate: nil, modificationDate: nil, creator: nil, lastModifier: nil, share: nil)
        let conflict = CKError(.serverRecordChanged, userInfo: [CKRecordChangedErrorServerRecordKey: server])
        let busy = CKError(.zoneBusy, userInfo: [CKErrorRetryAfterKey: NSNumber(value: 3.5)])
        let partial = CKError(.partialFailure, userInfo: [CKPartialErrorsByItemIDKey: [server.recordID: conflict] as [AnyHashable: any Error]])
        let mappedConflict = CloudKitErrors.cloudError(conflict)
        #expect(mappedConflict.code == .serverRecordChanged && mappedConflict.serverRecord?.changeTag == "9")
        #expect(CloudKitErrors.cloudError(busy).retryAfter == 3.5)
        let mappedPartial = CloudKitErrors.cloudError(partial)
        #expect(mappedPartial.code == .partialFailure)
        #expect(mappedPartial.itemErrors[Self.record().id]?.serverRecord?.changeTag == "9")
        let later = CloudKitErrors.cloudError(CKError(errorCode: 112))
        #expect(later.code == .unrecognized && later.cloudKitCode == 112)
        let foreign = CloudKitErrors.cloudError(NSError(domain: NSURLErrorDomain, code: -1009))
        #expect(foreign.code == .unrecognized && foreign.message.contains(NSURLErrorDomain))
        #expect(CloudKitErrors.cloudError(CancellationError()).code == .operationCancelled)
    }

    /// Each condition as CloudKit's predicate says it (Apple, `CKQuery`, "Predicate Rules for
    /// Query Objects"): the key and the value for a comparison, the key and a list for `IN`, the
    /// words alone for a text search, the key, the place and the radius for a distance, the key
    /// and the member for a list's `CONTAINS`. Breaking
    /// it: `IN` handed one value, or a text search handed a key.
    @Test func eachConditionBecomesItsPredicate() throws {
        let lisbon = SyncLocation(latitude: 38.72, longitude: -9.14)
        let cases: [(FieldCondition, String, Int)] = [
            (FieldCondition("title", .equal, [.string("a")]), "%K == %@", 2),
            (FieldCondition("title", .notEqual, [.string("a")]), "%K != %@", 2),
            (FieldCondition("rank", .less, [.int64(1)]), "%K < %@", 2),
            (FieldCondition("rank", .lessOrEqual, [.int64(1)]), "%K <= %@", 2),
            (FieldCondition("rank", .greater, [.int64(1)]), "%K > %@", 2),
            (FieldCondition("rank", .greaterOrEqual, [.int64(1)]), "%K >= %@", 2),
            (FieldCondition("title", .beginsWith, [.string("a")]), "%K BEGINSWITH %@", 2),
            (FieldCondition("title", .isIn, [.string("a"), .string("b")]), "%K IN %@", 2),
            (FieldCondition("", .allTokens, [.string("green soup")]), "ALL tokenize(%@, 'Cdl') IN allTokens", 1),
            (FieldCondition("place", .withinDistance, [.location(lisbon), .double(1_000)]), "distanceToLocation:fromLocation:(%K, %@) < %@", 3),
            (FieldCondition("tags", .contains, [.string("vegan")]), "%K CONTAINS %@", 2),
        ]
        for (condition, format, count) in cases {
            let predicate = try CloudKitRecords.predicateFormat(of: condition, recordType: "Shop", in: nil)
            #expect(predicate.format == format && predicate.arguments.count == count, "\(condition.comparison)")
            if condition.comparison != .allTokens { #expect(predicate.arguments.first as? String == condition.field) }
        }
        let listed = try CloudKitRecords.predicateFormat(of: cases[7].0, recordType: "Shop", in: nil)
        #expect((listed.arguments[1] as? [NSObject])?.count == 2, "IN takes the list")
        let member = try CloudKitRecords.predicateFormat(of: cases[10].0, recordType: "Shop", in: nil)
        #expect(member.arguments[1] as? String == "vegan", "CONTAINS takes the member, not a list")
    }

    /// A distance reaches CloudKit in kilometers: `near(\.place, here, within: 1_000)` is 1,000
    /// meters, and CloudKit reads the predicate's radius in kilometers (Apple, `CKQuery`,
    /// "Sample Predicate Format Strings": `CGFloat radius = 10; // kilometers`, "within 10
    /// kilometers"). Breaking it: the radius handed over as the port's meters asks iCloud for
    /// everything within 1,000 km (issue 57's severe finding).
    @Test func aDistanceReachesCloudKitInKilometers() throws {
        let lisbon = SyncLocation(latitude: 38.72, longitude: -9.14)
        let oneKilometer = FieldCondition("place", .withinDistance, [.location(lisbon), .double(1_000)])
        let predicate = try CloudKitRecords.predicateFormat(of: oneKilometer, recordType: "Shop", in: nil)
        #expect((predicate.arguments[2] as? NSNumber)?.doubleValue == 1)
        let halfAKilometer = FieldCondition("place", .withinDistance, [.location(lisbon), .double(500)])
        #expect((try CloudKitRecords.predicateFormat(of: halfAKilometer, recordType: "Shop", in: nil).arguments[2] as? NSNumber)?.doubleValue == 0.5)
    }
}
#endif
