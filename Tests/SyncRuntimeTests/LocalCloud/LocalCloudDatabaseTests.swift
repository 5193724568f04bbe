import Foundation
import Testing
import SyncRuntime
import SyncStorage
import SyncLocalCloud
import SyncTesting

/// "Containers, accounts, databases, zones" of docs/LocalCloud.md, each against both storage modes.
@Suite("LocalCloud: accounts, databases and zones")
struct LocalCloudDatabaseTests {
    /// Apple, `CKAccountStatus` ("The device doesn't have an iCloud account", "The user's iCloud
    /// account is temporarily unavailable") and `CKError.Code.notAuthenticated` ("An error that occurs
    /// when the user is unauthenticated").
    @Test(arguments: CloudMode.allCases)
    func accountStatusAndSigningOut(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        #expect(try await phone.accountStatus() == .available)
        #expect(try await phone.userRecordName() == "_alice")
        try harness.cloud.setAccountStatus("alice", .temporarilyUnavailable)
        #expect(await cloudError { _ = try await phone.save([record("r")]) }?.code == .accountTemporarilyUnavailable)
        try harness.cloud.setAccountStatus("alice", .restricted)
        #expect(try await phone.accountStatus() == .restricted)
        #expect(await cloudError { try await phone.saveZones([myZone]) }?.code == .notAuthenticated)
        try harness.cloud.signIn("phone", account: nil)
        #expect(try await phone.accountStatus() == .noAccount)
        #expect(await cloudError { _ = try await phone.fetchDatabaseChanges(in: .private, since: nil) }?.code == .notAuthenticated)
    }

    /// Apple, `CKDatabase`: "The public database is always available, even when the device doesn't
    /// have an active iCloud account. In this scenario, your app can fetch specific records and perform
    /// searches, but it can't create or modify records."
    @Test(arguments: CloudMode.allCases)
    func publicRecordsCanBeReadWithoutAnAccount(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let writer = try harness.device("writer", "alice")
        try await writer.save([record("p", type: "Post", in: SyncConstants.publicZone)], in: .public)
        let reader = try harness.device("reader", nil)
        let page = try await reader.query(RecordQuery(recordType: "Post"), in: .public)
        #expect(page.records.map(\.id.recordName) == ["p"])
        #expect(await cloudError { try await reader.save([record("q", type: "Post", in: SyncConstants.publicZone)], in: .public) }?.code == .notAuthenticated)
    }

    /// Apple, `CKRecordZone.defaultRecordZone()`: "The returned object can be used to specify the
    /// default zone for either the public or private database ... The owner of the zone is set to
    /// CKOwnerDefaultName": the zone ID alone does not say which database it is in.
    @Test(arguments: CloudMode.allCases)
    func onlyTheZoneNameTellsPublicFromPrivate(_ mode: CloudMode) async throws {  // trap: T7.1
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let privateDefault = ZoneID(zoneName: SyncConstants.publicZoneName)  // the private default zone
        #expect(privateDefault.ownerName == SyncConstants.publicZone.ownerName)
        try await phone.save([record("same", in: privateDefault)], in: .private)
        try await phone.save([record("same", type: "Post", in: SyncConstants.publicZone)], in: .public)
        let snapshot = try harness.cloud.snapshot()
        #expect(snapshot.zone("_defaultZone", ofAccount: "alice")?.records["same"]?.recordType == "Item")
        #expect(snapshot.publicRecords["same"]?.recordType == "Post")
    }

    /// Apple, `CKRecordZone`: "The public and private databases each have a single default zone. In
    /// the private database, you can use CKRecordZone objects to create additional custom zones"; "You
    /// cannot create custom zones in a public database."
    @Test(arguments: CloudMode.allCases)
    func thePublicDatabaseHasOneZone(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let error = await cloudError { try await phone.save([record("p", in: ZoneID(zoneName: "Other"))], in: .public) }
        #expect(error?.code == .partialFailure)
        #expect(error?.itemErrors.values.first?.code == .invalidArguments)
    }

    /// Apple, `CKError.Code.zoneNotFound`: "An error that occurs when the specified record zone
    /// doesn't exist."
    @Test(arguments: CloudMode.allCases)
    func writingIntoAMissingZoneIsZoneNotFound(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let result = try await phone.modify(ModifyRequest(recordsToSave: [record("a"), record("b")]), in: .private)
        #expect(result.error(record("a").id)?.code == .zoneNotFound)
        #expect(result.error(record("b").id)?.code == .zoneNotFound)
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: myZone, scope: .private, since: nil, resultsLimit: nil) }?.code == .zoneNotFound)
    }

    /// Apple, `CKModifyRecordZonesOperation`: "You can also use the operation to delete record zones
    /// and their records"; `CKFetchDatabaseChangesOperation` reports "deleted or purged zones".
    @Test(arguments: CloudMode.allCases)
    func deletingAZoneDeletesItsRecordsAndIsReported(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("a")])
        let before = try await phone.fetchDatabaseChanges(in: .private, since: nil)
        #expect(before.changedZones == [myZone])
        try await phone.deleteZones([myZone])
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.isEmpty == true)
        let after = try await phone.fetchDatabaseChanges(in: .private, since: before.newToken)
        #expect(after.deletedZones == [myZone: .deleted] && after.changedZones.isEmpty)
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: myZone, scope: .private, since: nil, resultsLimit: nil) }?.code == .zoneNotFound)
        // Recreated, it starts empty, and its old tokens have expired.
        try await phone.saveZones([myZone])
        #expect(try await phone.allZoneChanges(myZone).records.isEmpty)
    }

    /// Apple, `CKError.Code.userDeletedZone`: "An error that occurs when the user deletes a record
    /// zone using the Settings app"; the database's changes give the reason `purged`.
    @Test(arguments: CloudMode.allCases)
    func aZoneThePurgedFromSettingsReportsUserDeletedZone(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("a")])
        let token = try await phone.fetchDatabaseChanges(in: .private, since: nil).newToken
        try harness.cloud.purgeZone("Zone", ofAccount: "alice")
        #expect(try await phone.fetchDatabaseChanges(in: .private, since: token).deletedZones == [myZone: .purged])
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: myZone, scope: .private, since: nil, resultsLimit: nil) }?.code == .userDeletedZone)
        let write = try await phone.modify(ModifyRequest(recordsToSave: [record("b")]), in: .private)
        #expect(write.error(record("b").id)?.code == .userDeletedZone)
    }

    /// Apple, `CKDatabase.DatabaseChange.Deletion.Reason.encryptedDataReset`: "The user chose to
    /// reset all encrypted data for their account... consider re-uploading locally-cached data to
    /// the server." The zones go with that reason; writing into one is `zoneNotFound` until it is
    /// created again, and then it starts empty.
    @Test(arguments: CloudMode.allCases)
    func anEncryptedDataResetDeletesTheZonesWithItsReason(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        try await phone.saveZones([myZone])
        _ = try await phone.modify(ModifyRequest(recordsToSave: [record("a")]), in: .private)
        let token = try await phone.fetchDatabaseChanges(in: .private, since: nil).newToken
        try harness.cloud.resetEncryptedData(ofAccount: "alice")
        #expect(try await phone.fetchDatabaseChanges(in: .private, since: token).deletedZones == [myZone: .encryptedDataReset])
        let write = try await phone.modify(ModifyRequest(recordsToSave: [record("b")]), in: .private)
        #expect(write.error(record("b").id)?.code == .zoneNotFound)
        try await phone.saveZones([myZone])
        #expect(try await phone.fetchZoneChanges(in: myZone, scope: .private, since: nil, resultsLimit: nil).changedRecords.isEmpty)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.state == "live")
    }

    /// Apple, `CKError.badDatabase`: "Make sure you aren't submitting a share operation to the
    /// public database, or a record zone create operation to the shared database."
    @Test(arguments: CloudMode.allCases)
    func noZonesAreCreatedInOtherUsersDatabases(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "bob")
        #expect(await cloudError { try await phone.saveZones([ZoneID(zoneName: "Zone", ownerName: "_alice")]) }?.code == .badDatabase)
        // A zone nobody shared with bob is not in his shared database.
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: ZoneID(zoneName: "Zone", ownerName: "_alice"), scope: .shared, since: nil, resultsLimit: nil) }?.code == .zoneNotFound)
    }

    /// A LocalCloud file written before subscriptions became the user's (schema version 1, one
    /// subscription per device, no previous versions of records) keeps them: opened again, the
    /// user's other devices hear them, and its records save as before.
    @Test func aFileOfVersionOneKeepsItsSubscriptions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("localcloud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("cloud.sqlite")
        do {
            let cloud = try LocalCloud.file(at: url, clock: ManualClock())
            try await cloud.device("phone", account: "alice").saveZones([myZone])
        }
        do {
            // What version 1 left: the subscriptions table keyed by device, and no push devices.
            let old = try SQLiteDatabase(.file(url))
            try old.execute("""
                DROP TABLE user_subscriptions; DROP TABLE push_devices;
                ALTER TABLE records DROP COLUMN prev_tag; ALTER TABLE records DROP COLUMN prev_fields;
                ALTER TABLE records DROP COLUMN prev_encrypted; ALTER TABLE records DROP COLUMN prev_parent;
                CREATE TABLE subscriptions (device TEXT NOT NULL, id TEXT NOT NULL, user TEXT NOT NULL, scope TEXT NOT NULL, record_type TEXT, PRIMARY KEY (device, id));
                INSERT INTO subscriptions VALUES ('laptop', 'private-changes', '_alice', 'private', NULL);
                UPDATE meta SET value = '1' WHERE key = 'schemaVersion';
                DROP TABLE syncgen_migrations;
                """)
        }
        let cloud = try LocalCloud.file(at: url, clock: ManualClock())
        let phone = try cloud.device("phone", account: "alice")
        // The laptop is known only from the file, as a device of another process would be.
        let saved = try await phone.save([record("r")])[0]
        var edited = saved
        edited.fields["title"] = .string("edited")
        try await phone.save([edited])
        #expect(try cloud.counters()["notifications.laptop"] == 2)
    }

    /// Apple, `CKRecordZone.init(zoneName:)`: "Zone names inside a user's private database are
    /// unique, consist of up to 255 ASCII characters, and don't start with an underscore." A name
    /// that breaks this is refused (`invalidArguments`: Apple names no code, the harsher answer is
    /// the default), and the zone is not created; a valid zone in the same request is.
    @Test(arguments: CloudMode.allCases)
    func aZoneNameCloudKitRefusesIsNotCreated(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        for name in ["_defaultZone", "_Personal", "Caf\u{E9}", String(repeating: "z", count: 256)] {
            #expect(await cloudError { try await phone.saveZones([ZoneID(zoneName: name)]) }?.code == .invalidArguments, "\(name.prefix(20))")
        }
        try await phone.saveZones([ZoneID(zoneName: "Personal")])
        let zones = try harness.cloud.snapshot().zones.filter { $0.owner == "_alice" }.map(\.name)
        #expect(zones == ["Personal"])
    }
}
