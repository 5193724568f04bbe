import Foundation
import Testing
import SyncRuntime
import SyncLocalCloud

/// "Fetching changes" of docs/LocalCloud.md, each against both storage modes.
@Suite("LocalCloud: change feeds, queries, assets and subscriptions")
struct LocalCloudChangeTests {
    /// Apple, `CKFetchRecordZoneChangesOperation`: the configuration's server change token "is an
    /// opaque pointer to a specific change in the zone's history. CloudKit returns only the changes that
    /// occur after that point"; pages follow one another with `moreComing`.
    @Test(arguments: CloudMode.allCases)
    func zoneChangesArriveInChangeOrderAcrossPages(_ mode: CloudMode) async throws {  // trap: T4.3
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save((0..<25).map { record("r\($0)") })
        let all = try await phone.allZoneChanges(myZone, limit: 10)
        #expect(all.pages == 3)
        #expect(all.records.map(\.id.recordName) == (0..<25).map { "r\($0)" })
        // Nothing new since the last token: an empty page.
        let none = try await phone.fetchZoneChanges(in: myZone, scope: .private, since: all.token, resultsLimit: 10)
        #expect(none.changedRecords.isEmpty && !none.moreComing)
        // An edit and a delete show up once each, deletions with their record type.
        var edit = all.records[3]
        edit.fields["title"] = .string("edited")
        try await phone.save([edit])
        _ = try await phone.delete([all.records[4].id])
        let next = try await phone.allZoneChanges(myZone, since: all.token)
        #expect(next.records.map(\.id.recordName) == ["r3"])
        #expect(next.deleted == [DeletedRecord(id: all.records[4].id, recordType: "Item")])
    }

    /// Apple, `CKFetchDatabaseChangesOperation`: "Use this operation to fetch all record zone changes
    /// in a database. This includes new record zones, changed zones — including deleted or purged zones
    /// — and zones that contain record changes."
    @Test(arguments: CloudMode.allCases)
    func databaseChangesPageThroughZones(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode) { $0.databaseChangesPageSize = 2 }
        let phone = try harness.device("phone", "alice")
        try await phone.saveZones((0..<5).map { ZoneID(zoneName: "Z\($0)") })
        var token: ChangeToken?
        var zones: [ZoneID] = []
        var pages = 0
        repeat {
            let changes = try await phone.fetchDatabaseChanges(in: .private, since: token)
            zones += changes.changedZones
            token = changes.newToken
            pages += 1
            if !changes.moreComing { break }
        } while true
        #expect(pages == 3)
        #expect(Set(zones) == Set((0..<5).map { ZoneID(zoneName: "Z\($0)") }))
        // Only the zone that changed is reported next time.
        try await phone.save([record("r", in: ZoneID(zoneName: "Z2"))])
        #expect(try await phone.fetchDatabaseChanges(in: .private, since: token).changedZones == [ZoneID(zoneName: "Z2")])
    }

    /// Apple, `CKError.Code.changeTokenExpired`: "An error that occurs when the change token
    /// expires"; the SDK header: "the client must re-sync from scratch". The server no longer
    /// keeps the zone's history from before that point, so a fetch from scratch lists what exists
    /// and names no deletion made before it (nothing in Apple's text says a server keeps what it
    /// deleted: the harsher reading); a deletion made since is history it keeps, and is named.
    /// Breaking it (every deletion replayed from scratch) names "gone".
    @Test(arguments: CloudMode.allCases)
    func anExpiredTokenIsChangeTokenExpired(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("a"), record("gone"), record("later")])
        let token = try await phone.allZoneChanges(myZone).token
        _ = try await phone.delete([record("gone").id])
        try harness.cloud.expireChangeTokens(zone: "Zone", ofAccount: "alice")
        _ = try await phone.delete([record("later").id])
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: myZone, scope: .private, since: token, resultsLimit: nil) }?.code == .changeTokenExpired)
        // From scratch, what exists comes back, and only the deletion made since the expiry.
        let scratch = try await phone.allZoneChanges(myZone)
        #expect(scratch.records.map(\.id.recordName) == ["a"])
        #expect(scratch.deleted.map(\.id.recordName) == ["later"])
    }

    /// A database's change token expires as a zone's does (Apple, `CKError.Code.changeTokenExpired`;
    /// the SDK header: "the client must re-sync from scratch"). Fetched from scratch, the database
    /// lists the zones there are, and no zone deleted before the server forgot its history (the
    /// harsher reading, as for a zone's records); a zone deleted since is named. Breaking it
    /// (every zone's deletion replayed from scratch) names "Old".
    @Test(arguments: CloudMode.allCases)
    func anExpiredDatabaseTokenForgetsTheZonesThatWent(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let (kept, old, later) = (ZoneID(zoneName: "Kept"), ZoneID(zoneName: "Old"), ZoneID(zoneName: "Later"))
        try await phone.saveZones([kept, old, later])
        let token = try await phone.fetchDatabaseChanges(in: .private, since: nil).newToken
        try await phone.deleteZones([old])
        try harness.cloud.expireDatabaseChangeTokens(.private, ofAccount: "alice")
        try await phone.deleteZones([later])
        #expect(await cloudError { _ = try await phone.fetchDatabaseChanges(in: .private, since: token) }?.code == .changeTokenExpired)
        let scratch = try await phone.fetchDatabaseChanges(in: .private, since: nil)
        #expect(scratch.changedZones == [kept])
        #expect(Array(scratch.deletedZones.keys) == [later])
        #expect(try await phone.fetchDatabaseChanges(in: .private, since: scratch.newToken).changedZones.isEmpty)
    }

    /// Apple, `CKError.badDatabase`: "The system submitted the operation to the wrong database";
    /// `CKFetchDatabaseChangesOperation`: "Only private and shared databases support this operation."
    @Test(arguments: CloudMode.allCases)
    func thePublicDatabaseHasNoChangeFeed(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        #expect(await cloudError { _ = try await phone.fetchDatabaseChanges(in: .public, since: nil) }?.code == .badDatabase)
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: SyncConstants.publicZone, scope: .public, since: nil, resultsLimit: nil) }?.code == .badDatabase)
    }

    /// Apple, `CKQueryOperation`: a query returns at most `resultsLimit` records and a cursor
    /// (`CKQueryOperation.Cursor`) to fetch the next batch from where the last ended.
    @Test(arguments: CloudMode.allCases)
    func queriesFilterSortAndPageWithCursors(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let posts = (0..<7).map { record("p\($0)", type: "Post", in: SyncConstants.publicZone, fields: ["rank": .int64(Int64(7 - $0)), "kind": .string($0 % 2 == 0 ? "even" : "odd")]) }
        try await phone.save(posts, in: .public)
        try await phone.save([record("other", type: "Other", in: SyncConstants.publicZone)], in: .public)
        var query = RecordQuery(recordType: "Post", sorts: [FieldSort("rank")], resultsLimit: 3)
        var names: [String] = []
        var pages = 0
        repeat {
            let page = try await phone.query(query, in: .public)
            names += page.records.map(\.id.recordName)
            pages += 1
            query.cursor = page.cursor
        } while query.cursor != nil
        #expect(pages == 3)
        #expect(names == ["p6", "p5", "p4", "p3", "p2", "p1", "p0"])
        let odd = try await phone.query(RecordQuery(recordType: "Post", conditions: [FieldCondition("kind", .equal, [.string("odd")])], sorts: [FieldSort("rank")]), in: .public)
        #expect(odd.records.map(\.id.recordName) == ["p5", "p3", "p1"])
    }

    /// Apple, `CKQueryOperation.init(cursor:)`: a cursor "stores a relative offset into the
    /// results list"; the next page "performs a new search, sorts the new set of results, and uses
    /// the previous offset value to determine where the next batch of results starts". A query
    /// without sort keys pages in record name order: a record deleted before the cursor between
    /// two pages makes the next one pass over a record that exists (c20 here), one saved after
    /// the cursor comes where its name falls. Without conditions SQLite skips to the offset: a
    /// page reads the page and one record more. Breaking it: resume after the last name
    /// returned (as LocalCloud once did, milder than CloudKit) and c20 comes; drop the LIMIT and
    /// the reads grow with the catalog.
    func unsortedQueriesResumeAtTheirOffset(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let names = (0..<50).map { String(format: "c%02d", $0) }
        try await phone.save(names.map { record($0, type: "Card", in: SyncConstants.publicZone) }, in: .public)
        var query = RecordQuery(recordType: "Card", resultsLimit: 10)
        var seen: [String] = []
        var reads: [Int64] = []
        repeat {
            let before = try harness.cloud.counters()["query.recordsRead"] ?? 0
            let page = try await phone.query(query, in: .public)
            reads.append((try harness.cloud.counters()["query.recordsRead"] ?? 0) - before)
            seen += page.records.map(\.id.recordName)
            if seen.count == 20 {
                // Between pages: one record before the cursor goes, one after it arrives.
                _ = try await phone.delete([RecordID(recordName: "c05", zoneID: SyncConstants.publicZone)], in: .public)
                _ = try await phone.save([record("c25x", type: "Card", in: SyncConstants.publicZone)], in: .public)
            }
            query.cursor = page.cursor
        } while query.cursor != nil
        #expect(seen == Array(names.prefix(20) + names[21...25] + ["c25x"] + names.dropFirst(26)))
        #expect(reads.allSatisfy { $0 <= 11 }, "each page reads at most the page and one more: \(reads)")
        var malformed = RecordQuery(recordType: "Card")
        malformed.cursor = QueryCursor(archive: Data("query:3".utf8))
        #expect(await cloudError { _ = try await phone.query(malformed, in: .public) }?.code == .invalidArguments)
    }

    /// Apple, `CKFetchRecordsOperation.desiredKeys` and `CKQueryOperation.desiredKeys`: only the
    /// fields named are fetched, so an asset whose key is left out is not downloaded.
    @Test(arguments: CloudMode.allCases)
    func assetsTravelOnlyWhenTheirKeyIsDesired(_ mode: CloudMode) async throws {  // trap: T12.4
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let file = harness.folder.appendingPathComponent("cover.jpg")
        try FileManager.default.createDirectory(at: harness.folder, withIntermediateDirectories: true)
        try Data(repeating: 0xAB, count: 5_000).write(to: file)
        let post = record("post", type: "Post", in: SyncConstants.publicZone, fields: [
            "title": .string("Hello"), "assetData": .asset(SyncAsset(fileURL: file)),
            "assetSuffix": .string("jpg"), "assetSize": .int64(5_000),
        ])
        try await phone.save([post], in: .public)
        #expect(try harness.cloud.counters()["assetBytes.uploaded"] == 5_000)
        let reader = try harness.device("reader", "bob")
        let catalog = try await reader.query(RecordQuery(recordType: "Post", desiredKeys: ["title", "assetSuffix", "assetSize"]), in: .public)
        #expect(catalog.records[0].fields.names.sorted() == ["assetSize", "assetSuffix", "title"])
        _ = try await reader.query(RecordQuery(recordType: "Post", desiredKeys: ["title", "assetSuffix", "assetSize"]), in: .public)
        #expect(try harness.cloud.counters()["assetBytes.downloaded"] == nil)
        // Asked for, the asset arrives as a file with the same contents, and the bytes are counted.
        let full = try await reader.fetchRecords([post.id], desiredKeys: nil, in: .public)[post.id]!.get()
        guard case .asset(let asset) = full.fields["assetData"] else {
            Issue.record("no asset")
            return
        }
        #expect(try Data(contentsOf: asset.fileURL) == Data(repeating: 0xAB, count: 5_000))
        #expect(try harness.cloud.counters()["assetBytes.downloaded"] == 5_000)
    }

    /// Apple, `CKModifyRecordsOperation.RecordSavePolicy.allKeys`: "saving that same record modifies
    /// only those keys that you include": an asset left out of a save stays on the server.
    @Test(arguments: CloudMode.allCases)
    func aSaveWithoutTheAssetContentsKeepsThem(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let file = harness.folder.appendingPathComponent("cover.jpg")
        try FileManager.default.createDirectory(at: harness.folder, withIntermediateDirectories: true)
        try Data(repeating: 0xCD, count: 3_000).write(to: file)
        let post = record("post", type: "Post", in: SyncConstants.publicZone, fields: [
            "title": .string("Hello"), "assetData": .asset(SyncAsset(fileURL: file)), "assetSize": .int64(3_000),
        ])
        let saved = try await phone.modify(ModifyRequest(recordsToSave: [post]), in: .public).savedRecords[post.id]!.get()
        // The saved record holds the contents as the server stored them: saving it again uploads nothing.
        #expect(saved.assetContents(.first)?.fileURL.isFileURL == false)
        // A model's push leaves the contents out (it holds only the markers): they stay.
        var edited = record("post", type: "Post", in: SyncConstants.publicZone, fields: ["title": .string("Edited"), "assetSize": .int64(3_000)])
        edited.base(onServerVersionOf: saved)
        let again = try await phone.modify(ModifyRequest(recordsToSave: [edited]), in: .public).savedRecords[post.id]!.get()
        // A conflict hands back the server's record with its asset as a reference, not a download.
        var stale = edited
        stale.base(onServerVersionOf: saved)
        let conflict = try await phone.modify(ModifyRequest(recordsToSave: [stale]), in: .public).savedRecords[post.id]
        guard case .failure(let error) = conflict else {
            Issue.record("no conflict")
            return
        }
        #expect(error.serverRecord?.assetContents(.first) != nil)
        #expect(try harness.cloud.counters()["assetBytes.downloaded"] == nil)
        let full = try await phone.fetchRecords([post.id], desiredKeys: nil, in: .public)[post.id]!.get()
        #expect(full.changeTag == again.changeTag)
        #expect(try Data(contentsOf: #require(full.assetContents(.first)).fileURL) == Data(repeating: 0xCD, count: 3_000))
        #expect(try harness.cloud.counters()["assetBytes.uploaded"] == 3_000)
    }

    /// Apple, `CKQueryOperation.zoneID`: "If you don't specify a record zone, the search includes
    /// all record zones"; `CKDatabase.records(matching:inZoneWith:)`: "If you're searching a shared
    /// database, provide a record zone identifier".
    @Test(arguments: CloudMode.allCases)
    func aQuerySearchesTheZoneItNamesOrEveryZone(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice")
        let other = ZoneID(zoneName: "Other")
        try await alice.saveZones([other])
        try await alice.save([record("a", type: "Task"), record("b", type: "Task", in: other), record("c", type: "Task", in: ZoneID(zoneName: SyncConstants.publicZoneName))])
        let everywhere = try await alice.query(RecordQuery(recordType: "Task"), in: .private)
        #expect(Set(everywhere.records.map(\.id.recordName)) == ["a", "b", "c"])
        #expect(try await alice.query(RecordQuery(recordType: "Task", in: other), in: .private).records.map(\.id.recordName) == ["b"])
        // The shared database: a zone must be named.
        let share = ShareRecord(id: RecordID(recordName: "share-a", zoneID: myZone), rootRecordName: "a", participants: [ShareParticipant(userRecordName: "_bob", permission: .readOnly)])
        let aRecord = try await alice.fetchRecords([RecordID(recordName: "a", zoneID: myZone)], desiredKeys: nil, in: .private)[RecordID(recordName: "a", zoneID: myZone)]!.get()
        let saved = try await alice.modify(ModifyRequest(recordsToSave: [aRecord], sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let bob = try harness.device("bob-phone", "bob")
        try await bob.acceptShare(harness.cloud.shareMetadata(for: saved, ownerAccount: "alice"))
        #expect(await cloudError { _ = try await bob.query(RecordQuery(recordType: "Task"), in: .shared) }?.code == .invalidArguments)
        let shared = try await bob.query(RecordQuery(recordType: "Task", in: ZoneID(zoneName: myZone.zoneName, ownerName: "_alice")), in: .shared)
        #expect(shared.records.map(\.id.recordName) == ["a"])
    }

    /// Apple, `CKRecord.encryptedValues`: "CloudKit doesn't support indexes on encrypted fields.
    /// Don't include encrypted fields in your predicate or sort descriptors". A query that does is
    /// refused, rather than quietly ignoring the field.
    @Test(arguments: CloudMode.allCases)
    func queriesNeitherFilterNorSortOnEncryptedFields(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let privateDefault = ZoneID(zoneName: SyncConstants.publicZoneName)
        var secret = record("s", type: "Secret", in: privateDefault, fields: ["kind": .string("pin")])
        secret.encryptedFields = ["code": .string("1234")]
        try await phone.save([secret], in: .private)
        let filtered = RecordQuery(recordType: "Secret", conditions: [FieldCondition("code", .equal, [.string("1234")])])
        #expect(await cloudError { _ = try await phone.query(filtered, in: .private) }?.code == .invalidArguments)
        let sorted = RecordQuery(recordType: "Secret", sorts: [FieldSort("code")])
        #expect(await cloudError { _ = try await phone.query(sorted, in: .private) }?.code == .invalidArguments)
        let plain = try await phone.query(RecordQuery(recordType: "Secret", conditions: [FieldCondition("kind", .equal, [.string("pin")])], sorts: [FieldSort("kind")]), in: .private)
        #expect(plain.records.map(\.id.recordName) == ["s"])
    }

    /// Apple, `CKDatabaseSubscription`: "A subscription applies only to the user that creates it.
    /// When a subscription registers a change ... it sends push notifications to the user's
    /// devices ... When appropriate, the server excludes the device where the change originates."
    @Test(arguments: CloudMode.allCases)
    func subscriptionsNotifyTheUsersOtherDevicesNotTheWriter(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let laptop = try harness.device("laptop", "alice")
        let stranger = try harness.device("stranger", "bob")
        // Only the phone subscribes; the subscriptions are Alice's, so her laptop hears them.
        try await phone.saveSubscription(.database(id: "private-changes", scope: .private))
        try await phone.saveSubscription(.query(QuerySubscription(id: "posts", recordType: "Post")))
        try await stranger.saveSubscription(.database(id: "private-changes", scope: .private))
        let laptopStream = laptop.notifications()
        var laptopNotifications = laptopStream.makeAsyncIterator()
        let phoneStream = phone.notifications()
        let strangerStream = stranger.notifications()
        try await phone.save([record("r")])
        #expect(await laptopNotifications.next() == CloudNotification(subscriptionID: "private-changes", scope: .private))
        try await phone.save([record("p", type: "Post", in: SyncConstants.publicZone)], in: .public)
        #expect(await laptopNotifications.next() == CloudNotification(subscriptionID: "posts", scope: .public))
        // Neither the writer nor another user's device heard anything.
        var counters = try harness.cloud.counters()
        #expect(counters["notifications.laptop"] == 2)
        #expect(counters["notifications.phone"] == nil && counters["notifications.stranger"] == nil)
        // Signed in to Bob, the laptop hears Bob's subscriptions and no longer Alice's.
        try harness.cloud.signIn("laptop", account: "bob")
        try await phone.save([record("s")])
        #expect(try harness.cloud.counters()["notifications.laptop"] == 2)
        try await stranger.saveZones([myZone])
        try await stranger.save([record("bobs")])
        #expect(await laptopNotifications.next() == CloudNotification(subscriptionID: "private-changes", scope: .private))
        counters = try harness.cloud.counters()
        #expect(counters["notifications.laptop"] == 3 && counters["notifications.stranger"] == nil)
        _ = (phoneStream, strangerStream)
    }

    /// Apple's SDK header, CKSubscription.h: "CKDatabaseSubscription is only supported in the
    /// Private and Shared databases"; "CKQuerySubscriptions are not supported in a
    /// sharedCloudDatabase". A query subscription in the private database fires for its type,
    /// whoever writes the record into the user's zones.
    @Test(arguments: CloudMode.allCases)
    func eachSubscriptionLivesInTheDatabasesThatTakeIt(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let laptop = try harness.device("laptop", "alice")
        #expect(await cloudError { try await phone.saveSubscription(.database(id: "public", scope: .public)) }?.code == .badDatabase)
        #expect(await cloudError { try await phone.saveSubscription(.query(QuerySubscription(id: "shared", recordType: "Task", scope: .shared))) }?.code == .badDatabase)
        try await phone.saveSubscription(.query(QuerySubscription(id: "tasks", recordType: "Task", scope: .private)))
        let stream = laptop.notifications()
        var notifications = stream.makeAsyncIterator()
        try await phone.save([record("other", type: "Other")])
        try await phone.save([record("t", type: "Task", in: ZoneID(zoneName: SyncConstants.publicZoneName))])
        #expect(await notifications.next() == CloudNotification(subscriptionID: "tasks", scope: .private))
        #expect(try harness.cloud.counters()["notifications.laptop"] == 1)
        // Bob, sharing the zone, writes a task into it: Alice's subscription fires.
        let root = try await phone.save([record("list", type: "List")])[0]
        let share = ShareRecord(id: RecordID(recordName: "share-list", zoneID: myZone), rootRecordName: "list", participants: [ShareParticipant(userRecordName: "_bob", permission: .readWrite)])
        let saved = try await phone.modify(ModifyRequest(recordsToSave: [root], sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let bob = try harness.device("bob-phone", "bob")
        try await bob.acceptShare(harness.cloud.shareMetadata(for: saved, ownerAccount: "alice"))
        try await bob.save([record("bobs-task", type: "Task", in: ZoneID(zoneName: myZone.zoneName, ownerName: "_alice"), parent: "list")], in: .shared)
        #expect(await notifications.next() == CloudNotification(subscriptionID: "tasks", scope: .private))
        // A deletion fires it too: LocalCloud's query subscriptions fire on creation, update and
        // deletion (CloudKit's `CKQuerySubscription.Options`, all three).
        let before = try harness.cloud.counters()["notifications.laptop"] ?? 0
        _ = try await phone.delete([RecordID(recordName: "bobs-task", zoneID: myZone)])
        #expect(await notifications.next() == CloudNotification(subscriptionID: "tasks", scope: .private))
        #expect(try harness.cloud.counters()["notifications.laptop"] == before + 1)
    }

    /// Apple, `CKQuerySubscription`: it "generates push notifications when CloudKit modifies
    /// records that match a predicate"; its `zoneID` "limits the scope of the query to only the
    /// records in that zone"; `CKQuerySubscription.Options`: `firesOnRecordCreation`,
    /// `firesOnRecordUpdate`, `firesOnRecordDeletion` fire for a record "that matches the
    /// predicate", and `firesOnce` deletes the subscription after it fires once.
    /// `CKSubscription.NotificationInfo`: the alert the push shows. LocalCloud reads a record's
    /// match after an update and before a deletion.
    @Test(arguments: CloudMode.allCases)
    func aQuerySubscriptionFiresAsItsPredicateZoneAndOptionsSay(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        _ = try harness.device("laptop", "alice")
        let alert = SubscriptionAlert(title: "Tasks", body: "An urgent task", sound: nil, badge: true)
        try await phone.saveSubscription(.query(QuerySubscription(
            id: "urgent", recordType: "Task", scope: .private, zone: myZone, conditions: [FieldCondition("priority", .equal, [.string("urgent")])],
            firesOn: [.creation, .update], alert: alert)))
        try await phone.saveSubscription(.query(QuerySubscription(id: "any-once", recordType: "Task", scope: .private, firesOn: [.deletion], firesOnce: true)))
        func fired() throws -> [String] { harness.cloud.takePushes(for: "laptop").map(\.subscriptionID) }
        _ = try fired()
        try await phone.save([record("calm", type: "Task", fields: ["priority": .string("normal")])])
        #expect(try fired().isEmpty, "a record that does not match fires nothing")
        var urgent = try await phone.save([record("urgent", type: "Task", fields: ["priority": .string("urgent")])])[0]
        let pushes = harness.cloud.takePushes(for: "laptop")
        #expect(pushes == [CloudNotification(subscriptionID: "urgent", scope: .private, alert: alert)])
        urgent.fields["title"] = .string("changed")
        _ = try await phone.save([urgent])
        #expect(try fired() == ["urgent"], "an update of a record that matches fires it")
        try await phone.saveZones([ZoneID(zoneName: "Other")])
        _ = try await phone.save([record("elsewhere", type: "Task", in: ZoneID(zoneName: "Other"), fields: ["priority": .string("urgent")])])
        #expect(try fired().isEmpty, "a record of another zone is not watched")
        _ = try await phone.delete([RecordID(recordName: "calm", zoneID: myZone)])
        #expect(try fired() == ["any-once"])
        _ = try await phone.delete([RecordID(recordName: "urgent", zoneID: myZone)])
        #expect(try fired().isEmpty, "fired once, then gone; deletion is not among the urgent one's options")
        #expect(try await phone.subscriptions(in: .private).map(\.id) == ["urgent"])
    }

    /// Apple, `CKDatabase.allSubscriptions()` lists the user's subscriptions of a database;
    /// `modifySubscriptions(saving:deleting:)` deletes by ID. Apple names no code for an ID the
    /// database does not hold: LocalCloud answers `unknownItem`. Conditions CloudKit cannot
    /// express are refused when saved (`invalidArguments`).
    @Test(arguments: CloudMode.allCases)
    func subscriptionsAreListedAndDeletedByID(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.saveSubscription(.database(id: "db", scope: .private))
        try await phone.saveSubscription(.query(QuerySubscription(id: "tasks", recordType: "Task", scope: .private, zone: myZone)))
        #expect(try await phone.subscriptions(in: .private) == [
            SavedSubscription(id: "db", scope: .private), SavedSubscription(id: "tasks", scope: .private, recordType: "Task", zone: myZone),
        ])
        #expect(try await phone.subscriptions(in: .public).isEmpty)
        try await phone.deleteSubscription(id: "tasks", in: .private)
        #expect(await cloudError { try await phone.deleteSubscription(id: "tasks", in: .private) }?.code == .unknownItem)
        #expect(try await phone.subscriptions(in: .private).map(\.id) == ["db"])
        let bad = QuerySubscription(id: "bad", recordType: "Task", scope: .private, conditions: [FieldCondition("when", .withinDistance, [.string("here")])])
        #expect(await cloudError { try await phone.saveSubscription(.query(bad)) }?.code == .invalidArguments)
    }

    /// Apple, `CKRecordZone.defaultRecordZone()`: the default zone "does not have any special
    /// capabilities ... you cannot use a CKFetchRecordChangesOperation object on records in the
    /// default zone". Its changes are not fetched, not listed among the database's changed zones,
    /// and fire no database subscription.
    @Test(arguments: CloudMode.allCases)
    func thePrivateDefaultZoneTracksNoChanges(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let laptop = try harness.device("laptop", "alice")
        try await phone.saveSubscription(.database(id: "private-changes", scope: .private))
        let privateDefault = ZoneID(zoneName: SyncConstants.publicZoneName)
        let token = try await phone.fetchDatabaseChanges(in: .private, since: nil).newToken
        try await laptop.save([record("kept", in: privateDefault)], in: .private)
        #expect(await cloudError { _ = try await phone.fetchZoneChanges(in: privateDefault, scope: .private, since: nil, resultsLimit: nil) }?.code == .invalidArguments)
        let changes = try await phone.fetchDatabaseChanges(in: .private, since: token)
        #expect(changes.changedZones.isEmpty)
        #expect(try harness.cloud.counters()["notifications.phone"] == nil)
        // The record is there, fetched by its ID.
        let id = RecordID(recordName: "kept", zoneID: privateDefault)
        #expect(try await phone.fetchRecords([id], desiredKeys: nil, in: .private)[id]?.get().id == id)
    }
}
