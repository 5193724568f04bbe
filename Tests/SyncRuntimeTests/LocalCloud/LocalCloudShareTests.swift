import Foundation
import Testing
import SyncRuntime
import SyncLocalCloud

/// Shares of docs/LocalCloud.md, each against both storage modes.
@Suite("LocalCloud: shares")
struct LocalCloudShareTests {
    static let lists = ZoneID(zoneName: "Lists")

    /// Alice's zone with two lists (one with an item), the first shared with bob (read-write) and
    /// carol (read-only).
    struct Household {
        let harness: CloudHarness
        let alice: LocalCloudDevice
        let bob: LocalCloudDevice
        let carol: LocalCloudDevice
        let share: ShareRecord
        var metadata: ShareMetadata { harness.cloud.shareMetadata(for: share, ownerAccount: "alice") }
        /// The lists zone as participants name it.
        let sharedZone = ZoneID(zoneName: "Lists", ownerName: "_alice")

        init(_ mode: CloudMode) async throws {
            harness = try CloudHarness(mode)
            alice = try await harness.deviceWithZone("alice-phone", "alice", zone: "Lists")
            bob = try harness.device("bob-phone", "bob")
            carol = try harness.device("carol-phone", "carol")
            let share = ShareRecord(
                id: RecordID(recordName: "share-list-1", zoneID: lists), rootRecordName: "list-1", title: "Groceries",
                participants: [
                    ShareParticipant(userRecordName: "_bob", permission: .readWrite),
                    ShareParticipant(userRecordName: "_carol", permission: .readOnly),
                ])
            let result = try await alice.modify(ModifyRequest(
                recordsToSave: [record("list-1", type: "List", in: lists), record("list-2", type: "List", in: lists), record("milk", in: lists, parent: "list-1")],
                sharesToSave: [share]), in: .private)
            if let failure = result.partialFailure { throw failure }
            self.share = try result.savedShares[share.id]!.get()
        }
    }

    /// Apple, `CKShare.url` ("The URL for inviting participants to the share") and
    /// `CKContainer.shareMetadata(for:)` ("Fetches the share metadata for the specified share
    /// URL"): a saved share carries its link, and the link leads to the metadata a participant
    /// accepts with. Metadata is never made up by the app: CloudKit's `CKShare.Metadata` has no
    /// public initialiser. A link to a share that ended is `unknownItem`; a link this cloud did
    /// not make is `invalidArguments`. Breaking it: metadata that does not name the owner's zone
    /// fails the acceptance below.
    @Test(arguments: CloudMode.allCases)
    func aSharesLinkLeadsToTheMetadataToAcceptItWith(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        let url = try #require(household.share.url)
        let metadata = try await household.bob.shareMetadata(for: url)
        #expect(metadata.shareID == RecordID(recordName: "share-list-1", zoneID: household.sharedZone))
        #expect(metadata.rootRecordName == "list-1" && metadata.title == "Groceries" && metadata.url == url)
        try await household.bob.acceptShare(metadata)
        #expect(try await household.bob.fetchRecords([RecordID(recordName: "list-1", zoneID: household.sharedZone)], desiredKeys: nil, in: .shared).values.first.map { (try? $0.get()) != nil } == true)
        // Fetched again, the share keeps its link.
        let fetched = try await household.alice.fetchShares([household.share.id], in: .private)[household.share.id]?.get()
        #expect(fetched?.url == url)
        let elsewhere = URL(string: "https://example.com/share/x")!
        do {
            _ = try await household.bob.shareMetadata(for: elsewhere)
            Issue.record("a link of another site led to a share")
        } catch {
            #expect(error.code == .invalidArguments)
        }
        _ = try await household.alice.modify(ModifyRequest(recordIDsToDelete: [household.share.id]), in: .private)
        do {
            _ = try await household.carol.shareMetadata(for: url)
            Issue.record("the link of a share that ended still leads somewhere")
        } catch {
            #expect(error.code == .unknownItem)
        }
    }

    /// Apple, `CKShare.Participant` has no public initialiser: participants come from a lookup
    /// (`CKContainer.shareParticipant(forEmailAddress:)`, `(forPhoneNumber:)`,
    /// `(forUserRecordID:)`). Apple, `CKUserIdentity`: "When creating participants, CloudKit
    /// tries to find iCloud accounts it can use to populate their identities. If CloudKit doesn't
    /// find an account, it sets the identity's hasiCloudAccount to false". LocalCloud finds an
    /// account by the email address or phone number it registered, and a user record name only
    /// if an account has it.
    @Test(arguments: CloudMode.allCases)
    func participantsAreLookedUpByEmailPhoneOrUserRecord(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        try harness.cloud.addAccount("bob", emailAddress: "Bob@Example.com", phoneNumber: "+1 (555) 010-0000")
        let alice = try harness.device("alice-phone", "alice")
        let lookups: [ParticipantLookup] = [
            .emailAddress("bob@example.com"), .phoneNumber("+15550100000"), .userRecordName("_bob"),
            .emailAddress("nobody@example.com"), .userRecordName("_nobody"),
        ]
        let found = try await alice.participants(for: lookups)
        for lookup in lookups.prefix(3) {
            #expect(try found[lookup]?.get().userRecordName == "_bob", "\(lookup)")
            #expect(try found[lookup]?.get().lookup == lookup)
        }
        let accountless = try #require(try found[.emailAddress("nobody@example.com")]?.get())
        #expect(accountless.userRecordName == nil && accountless.acceptanceStatus == .pending)
        guard case .failure(let error) = found[.userRecordName("_nobody")] else {
            Issue.record("a user record name no account has was found")
            return
        }
        #expect(error.code == .unknownItem)
        // Nobody signed in finds nobody.
        let signedOut = try harness.device("kiosk", nil)
        do {
            _ = try await signedOut.participants(for: [.emailAddress("bob@example.com")])
            Issue.record("a signed-out device looked people up")
        } catch {
            #expect(error.code == .notAuthenticated)
        }
    }

    /// Apple, `CKContainer.shareParticipant(forEmailAddress:)`: "If the email address doesn't
    /// correspond to a known iCloud account, then at share-accept-time, CloudKit offers the
    /// accepting participant a vetting process ... to link the email address to an iCloud
    /// account." Someone invited by an address no account had accepts once an account that
    /// registered it opens the link, and becomes that participant; anyone else is still refused.
    /// Breaking it: matching participants by record name alone leaves such an invitation
    /// unacceptable for good.
    @Test(arguments: CloudMode.allCases)
    func someoneInvitedBeforeTheyHadAnAccountAcceptsWithIt(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice", zone: "Lists")
        var dana = try #require(try await alice.participants(for: [.emailAddress("Dana@Example.com")]).values.first?.get())
        #expect(dana.userRecordName == nil)
        dana.permission = .readWrite
        let share = ShareRecord(id: RecordID(recordName: "share-list", zoneID: Self.lists), rootRecordName: "list", title: "List", participants: [dana])
        let saved = try await alice.modify(ModifyRequest(recordsToSave: [record("list", type: "List", in: Self.lists)], sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let link = try #require(saved.url)
        let eve = try harness.device("eve-phone", "eve")
        do {
            try await eve.acceptShare(try await eve.shareMetadata(for: link))
            Issue.record("someone not invited accepted")
        } catch {
            #expect(error.code == .permissionFailure)
        }
        try harness.cloud.addAccount("dana", emailAddress: "dana@example.com")
        let danaPhone = try harness.device("dana-phone", "dana")
        try await danaPhone.acceptShare(try await danaPhone.shareMetadata(for: link))
        let stored = try #require(try harness.cloud.snapshot().zone("Lists", ofAccount: "alice")?.shares["share-list"])
        #expect(stored.participants.contains { $0.userRecordName == "_dana" && $0.acceptanceStatus == .accepted && $0.permission == .readWrite })
    }

    /// Apple, `CKShare.init(rootRecord:shareID:)`: "When saving a newly created CKShare, you save both
    /// the share and its rootRecord in the same CKModifyRecordsOperation batch."
    @Test(arguments: CloudMode.allCases)
    func aShareIsSavedInTheSameRequestAsItsRoot(_ mode: CloudMode) async throws {  // trap: T8.1
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice", zone: "Lists")
        try await alice.save([record("list", type: "List", in: Self.lists)])
        let alone = ShareRecord(id: RecordID(recordName: "share", zoneID: Self.lists), rootRecordName: "list")
        let result = try await alice.modify(ModifyRequest(sharesToSave: [alone]), in: .private)
        #expect(result.error(alone.id)?.code == .invalidArguments)
        // A zone-wide share needs no root.
        let zoneWide = ShareRecord(id: RecordID(recordName: ShareRecord.zoneWideRecordName, zoneID: Self.lists), rootRecordName: nil)
        #expect(try await alice.modify(ModifyRequest(sharesToSave: [zoneWide]), in: .private).partialFailure == nil)
    }

    /// Apple's SDK header, CKShareParticipant.h: "The participant is the share's owner"
    /// (`CKShareParticipantRoleOwner`); the owner is a participant of the share, known by that role.
    @Test(arguments: CloudMode.allCases)
    func theOwnerIsKnownByRole(_ mode: CloudMode) async throws {  // trap: T8.3
        let household = try await Household(mode)
        #expect(household.share.owner?.userRecordName == "_alice")
        #expect(household.share.participants.filter { $0.role == .owner }.count == 1)
    }

    /// Apple, `CKShare.currentUserParticipant`: "The participant that represents the current
    /// user", and `CKShare.participants`: "At a minimum, it includes the share's owner and the
    /// current user." The owner saving or fetching the share reads themselves; Bob reads Bob,
    /// with his permission, in his zone changes and by ID. Breaking it (the reader left out): every share comes without
    /// its current participant, and a participant's store cannot tell what they may write.
    @Test(arguments: CloudMode.allCases)
    func aShareNamesTheParticipantWhoReadsIt(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        #expect(household.share.currentUserParticipant?.role == .owner)
        let id = household.share.id
        #expect(try await household.alice.fetchShares([id], in: .private)[id]?.get().currentUserParticipant?.userRecordName == "_alice")
        try await household.bob.acceptShare(household.metadata)
        let page = try await household.bob.fetchZoneChanges(in: household.sharedZone, scope: .shared, since: nil, resultsLimit: 100)
        let fed = try #require(page.changedShares.first)
        #expect(fed.currentUserParticipant?.userRecordName == "_bob" && fed.currentUserParticipant?.permission == .readWrite)
        let byID = RecordID(recordName: id.recordName, zoneID: household.sharedZone)
        #expect(try await household.bob.fetchShares([byID], in: .shared)[byID]?.get().currentUserParticipant?.userRecordName == "_bob")
    }

    /// Apple, `CKShare`: "CloudKit infers the shared hierarchy using only the parent property, and
    /// ignores any custom reference fields"; the SDK header: "A share, its root record, and its root
    /// record's children records will only appear in a participant's ... results after the share has
    /// been accepted by that participant."
    @Test(arguments: CloudMode.allCases)
    func anAcceptedShareShowsOnlyItsRootsHierarchy(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let database = try await household.bob.fetchDatabaseChanges(in: .shared, since: nil)
        #expect(database.changedZones == [household.sharedZone])
        let changes = try await household.bob.allZoneChanges(household.sharedZone, scope: .shared)
        #expect(changes.records.map(\.id.recordName).sorted() == ["list-1", "milk"])
        #expect(changes.records.allSatisfy { $0.id.zoneID == household.sharedZone })
    }

    /// Bob, in the share and caught up (`before`), and Alice's "milk" then moved under her
    /// private "list-2" (`moved`, as the server returned it before the move).
    private static func milkMovedOutOfTheShare(_ mode: CloudMode) async throws -> (household: Household, before: (records: [SyncRecord], deleted: [DeletedRecord], token: ChangeToken, pages: Int), moved: SyncRecord) {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let before = try await household.bob.allZoneChanges(household.sharedZone, scope: .shared)
        #expect(before.records.map(\.id.recordName).sorted() == ["list-1", "milk"])
        let server = try await household.alice.fetchRecords([RecordID(recordName: "milk", zoneID: Self.lists)], desiredKeys: nil, in: .private)
        var moved = try #require(try server[RecordID(recordName: "milk", zoneID: Self.lists)]?.get())
        moved.parentRecordName = "list-2"
        try await household.alice.save([moved, record("eggs", in: Self.lists, parent: "list-2")])
        return (household, before, moved)
    }

    /// Apple, `CKShare`: "CloudKit infers the shared hierarchy using only the parent property": a
    /// record moved under a parent no share holds leaves the share. Apple does not say how a
    /// participant hears of it; LocalCloud reads it to them as deleted (the reading that leaves
    /// no stale copy on their devices), and never names a record they were not shown: Alice's
    /// private item, moved between her own lists, never shows in Bob's feed.
    @Test(arguments: CloudMode.allCases)
    func aRecordMovedOutOfAShareReadsAsDeletedToItsParticipants(_ mode: CloudMode) async throws {
        let (household, before, movedOut) = try await Self.milkMovedOutOfTheShare(mode)
        var moved = movedOut
        let after = try await household.bob.allZoneChanges(household.sharedZone, scope: .shared, since: before.token)
        #expect(after.records.isEmpty)
        #expect(after.deleted.map(\.id.recordName) == ["milk"])
        #expect(after.deleted.first?.id.zoneID == household.sharedZone)
        // Back under the shared list, it shows again.
        moved = try #require(try await household.alice.fetchRecords([moved.id], desiredKeys: nil, in: .private)[moved.id]?.get())
        moved.parentRecordName = "list-1"
        try await household.alice.save([moved])
        let again = try await household.bob.allZoneChanges(household.sharedZone, scope: .shared, since: after.token)
        #expect(again.records.map(\.id.recordName) == ["milk"] && again.deleted.isEmpty)
    }

    /// A record moved out of a share reads as deleted to its participants until the server
    /// forgets the zone's history (`expireChangeTokens`): like every other deletion, it is then
    /// forgotten (SDK header, `CKErrorChangeTokenExpired`: "the client must re-sync from
    /// scratch"), and a fetch from scratch lists what the participant can see, naming no record
    /// it moved away. Breaking it (the move-out replayed after the forgetting, as before issue
    /// 57): Bob's fetch from scratch names "milk" as deleted.
    @Test(arguments: CloudMode.allCases)
    func aMoveOutOfAShareIsForgottenWithTheZonesHistory(_ mode: CloudMode) async throws {
        let (household, before, _) = try await Self.milkMovedOutOfTheShare(mode)
        try household.harness.cloud.expireChangeTokens(zone: "Lists", ofAccount: "alice")
        let expired = await cloudError { _ = try await household.bob.allZoneChanges(household.sharedZone, scope: .shared, since: before.token) }
        #expect(expired?.code == .changeTokenExpired)
        let fromScratch = try await household.bob.allZoneChanges(household.sharedZone, scope: .shared)
        #expect(fromScratch.records.map(\.id.recordName) == ["list-1"])
        #expect(fromScratch.deleted.isEmpty, "\(fromScratch.deleted.map(\.id.recordName))")
    }

    /// Apple, `CKShare.ParticipantPermission.readWrite` ("read-and-write permissions for the
    /// share"); `CKDatabase.Scope.shared`: records in a shared database "are counted towards the
    /// originating owner's iCloud account storage quota": they live in the owner's zone.
    @Test(arguments: CloudMode.allCases)
    func aReadWriteParticipantWritesIntoTheOwnersZone(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        try await household.bob.save([record("eggs", in: household.sharedZone, parent: "list-1")], in: .shared)
        let zone = try household.harness.cloud.snapshot().zone("Lists", ofAccount: "alice")!
        #expect(zone.records["eggs"]?.parentRecordName == "list-1")
        #expect(try await household.alice.allZoneChanges(Self.lists).records.map(\.id.recordName).contains("eggs"))
        // Outside the shared hierarchy, nothing.
        let stray = record("stray", in: household.sharedZone, parent: "list-2")
        #expect(try await household.bob.modify(ModifyRequest(recordsToSave: [stray]), in: .shared).error(stray.id)?.code == .permissionFailure)
    }

    /// Apple, `CKShare.ParticipantPermission.readOnly`; a write without permission is
    /// `CKError.Code.permissionFailure` ("the user doesn't have permission to save or fetch data").
    @Test(arguments: CloudMode.allCases)
    func aReadOnlyParticipantCannotWrite(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.carol.acceptShare(household.metadata)
        let item = record("bread", in: household.sharedZone, parent: "list-1")
        #expect(try await household.carol.modify(ModifyRequest(recordsToSave: [item]), in: .shared).error(item.id)?.code == .permissionFailure)
    }

    /// Apple, `CKShare.publicPermission`: with `none`, only invited participants may join;
    /// `CKError.Code.permissionFailure` for anyone else.
    @Test(arguments: CloudMode.allCases)
    func anUninvitedUserCannotAccept(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        let mallory = try household.harness.device("mallory-phone", "mallory")
        #expect(await cloudError { try await mallory.acceptShare(household.metadata) }?.code == .permissionFailure)
    }

    /// Apple, `CKShare` ("The user that initiates sharing, the owner, handles all aspects of the
    /// collaboration", Shared Records): the root belongs to the owner. Apple does not say what a
    /// participant's deletion of it does: LocalCloud refuses it (`permissionFailure`), the stricter
    /// reading; the participant leaves instead.
    @Test(arguments: CloudMode.allCases)
    func aParticipantCannotDeleteTheSharedRoot(_ mode: CloudMode) async throws {  // trap: T8.5
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let root = RecordID(recordName: "list-1", zoneID: household.sharedZone)
        #expect(try await household.bob.delete([root], in: .shared).error(root)?.code == .permissionFailure)
        // Leaving is how a participant lets go: delete the share in the shared database.
        let leave = try await household.bob.delete([RecordID(recordName: "share-list-1", zoneID: household.sharedZone)], in: .shared)
        #expect(leave.partialFailure == nil)
        #expect(try household.harness.cloud.snapshot().zone("Lists", ofAccount: "alice")?.records["list-1"] != nil)
    }

    /// Apple, `CKShare.Participant`: "The records remain accessible for as long as the
    /// participant's status is accepted." A participant leaves by deleting the share in their shared
    /// database; the owner's records stay.
    @Test(arguments: CloudMode.allCases)
    func leavingRemovesTheZoneFromTheParticipantsDatabaseOnly(_ mode: CloudMode) async throws {  // trap: T4.6
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        try await household.carol.acceptShare(household.metadata)
        let token = try await household.bob.fetchDatabaseChanges(in: .shared, since: nil).newToken
        _ = try await household.bob.delete([RecordID(recordName: "share-list-1", zoneID: household.sharedZone)], in: .shared)
        #expect(try await household.bob.fetchDatabaseChanges(in: .shared, since: token).deletedZones == [household.sharedZone: .deleted])
        #expect(await cloudError { _ = try await household.bob.fetchZoneChanges(in: household.sharedZone, scope: .shared, since: nil, resultsLimit: nil) }?.code == .permissionFailure)
        #expect(try await household.carol.allZoneChanges(household.sharedZone, scope: .shared).records.count == 2)
        let share = try await household.alice.fetchShares([household.share.id], in: .private)[household.share.id]!.get()
        #expect(share.participants.first { $0.userRecordName == "_bob" }?.acceptanceStatus == .removed)
    }

    /// Apple, `CKDatabaseSubscription`: it fires for changes in zones "in the database where you
    /// save the subscription". A participant who left (Bob, from his phone) or was removed by the
    /// owner (Carol) hears of it once: their other devices are notified, and the zone is reported
    /// gone from their shared database. After that, the owner's writes in the zone neither
    /// notify them nor report the zone gone again. Breaking it: notifying every membership the
    /// zone ever had, and dating an ended membership's zone by the zone's latest change, as
    /// LocalCloud did: a push and a deletion for every write of the owner (T21.23).
    @Test(arguments: CloudMode.allCases)
    func aParticipantWhoLeftHearsNothingMoreOfTheZone(_ mode: CloudMode) async throws {  // trap: T21.23
        let household = try await Household(mode)
        let cloud = household.harness.cloud
        let bobLaptop = try household.harness.device("bob-laptop", "bob")
        let carolLaptop = try household.harness.device("carol-laptop", "carol")
        try await household.bob.saveSubscription(.database(id: "shared", scope: .shared))
        try await household.carol.saveSubscription(.database(id: "shared", scope: .shared))
        try await household.bob.acceptShare(household.metadata)
        try await household.carol.acceptShare(household.metadata)
        let bobToken = try await bobLaptop.fetchDatabaseChanges(in: .shared, since: nil).newToken
        let carolToken = try await carolLaptop.fetchDatabaseChanges(in: .shared, since: nil).newToken
        _ = cloud.takePushes(for: "bob-laptop")
        _ = cloud.takePushes(for: "carol-laptop")
        // Bob leaves from his phone; the owner takes Carol off the share.
        _ = try await household.bob.delete([RecordID(recordName: household.share.id.recordName, zoneID: household.sharedZone)], in: .shared)
        #expect(cloud.takePushes(for: "bob-laptop").count == 1)
        _ = cloud.takePushes(for: "carol-laptop")  // the share changed while she was in it
        var withoutCarol = try await household.alice.fetchShares([household.share.id], in: .private)[household.share.id]!.get()
        withoutCarol.participants.removeAll { $0.userRecordName == "_carol" }
        #expect(try await household.alice.modify(ModifyRequest(sharesToSave: [withoutCarol]), in: .private).partialFailure == nil)
        #expect(cloud.takePushes(for: "carol-laptop").count == 1 && cloud.takePushes(for: "bob-laptop").isEmpty)
        let bobGone = try await bobLaptop.fetchDatabaseChanges(in: .shared, since: bobToken)
        let carolGone = try await carolLaptop.fetchDatabaseChanges(in: .shared, since: carolToken)
        #expect(bobGone.deletedZones == [household.sharedZone: .deleted] && carolGone.deletedZones == [household.sharedZone: .deleted])
        // The owner writes on: nothing of it reaches either of them.
        try await household.alice.save([record("eggs", in: Self.lists, parent: "list-1")])
        #expect(cloud.takePushes(for: "bob-laptop").isEmpty && cloud.takePushes(for: "carol-laptop").isEmpty)
        let bobAfter = try await bobLaptop.fetchDatabaseChanges(in: .shared, since: bobGone.newToken)
        let carolAfter = try await carolLaptop.fetchDatabaseChanges(in: .shared, since: carolGone.newToken)
        #expect(bobAfter.deletedZones.isEmpty && bobAfter.changedZones.isEmpty)
        #expect(carolAfter.deletedZones.isEmpty && carolAfter.changedZones.isEmpty)
    }

    /// Apple, `CKRecord.share`: "CloudKit clears this property's value when it deletes the
    /// corresponding CKShare object on the server": the owner stops sharing by deleting the share, and
    /// every participant's access ends (`CKShare.Participant`: access lasts while they are accepted).
    @Test(arguments: CloudMode.allCases)
    func stoppingAShareByItsIDEndsEveryonesAccess(_ mode: CloudMode) async throws {  // trap: T8.2
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let token = try await household.bob.fetchDatabaseChanges(in: .shared, since: nil).newToken
        #expect(try await household.alice.delete([household.share.id]).partialFailure == nil)
        #expect(try household.harness.cloud.snapshot().zone("Lists", ofAccount: "alice")?.shares.isEmpty == true)
        #expect(try await household.bob.fetchDatabaseChanges(in: .shared, since: token).deletedZones == [household.sharedZone: .deleted])
        // The owner's records stay.
        #expect(try household.harness.cloud.snapshot().zone("Lists", ofAccount: "alice")?.records.count == 3)
    }

    /// Apple, `CKShare`: a share is created with "the root record, which defines the point in a
    /// record hierarchy where you want to start sharing". Apple does not say what deleting the root
    /// does to the share; LocalCloud deletes the share with it, so nothing stays shared of a hierarchy
    /// that is gone.
    @Test(arguments: CloudMode.allCases)
    func deletingTheRootDeletesItsShare(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        _ = try await household.alice.delete([RecordID(recordName: "list-1", zoneID: Self.lists)])
        #expect(try household.harness.cloud.snapshot().zone("Lists", ofAccount: "alice")?.shares.isEmpty == true)
        #expect(await cloudError { _ = try await household.bob.fetchZoneChanges(in: household.sharedZone, scope: .shared, since: nil, resultsLimit: nil) }?.code == .permissionFailure)
    }

    /// Apple, `CKShare`: "You create a share with either the ID of the record zone to share, or the
    /// root record"; a zone-wide share (`init(recordZoneID:)`) shares every record of the zone.
    @Test(arguments: CloudMode.allCases)
    func aZoneWideShareShowsEveryRecord(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice", zone: "Lists")
        try await alice.save([record("a", in: Self.lists), record("b", in: Self.lists)])
        let zoneShare = ShareRecord(id: RecordID(recordName: ShareRecord.zoneWideRecordName, zoneID: Self.lists), rootRecordName: nil,
            participants: [ShareParticipant(userRecordName: "_bob", permission: .readWrite)])
        let saved = try await alice.modify(ModifyRequest(sharesToSave: [zoneShare]), in: .private).savedShares[zoneShare.id]!.get()
        let bob = try harness.device("bob-phone", "bob")
        try await bob.acceptShare(harness.cloud.shareMetadata(for: saved, ownerAccount: "alice"))
        #expect(try await bob.allZoneChanges(ZoneID(zoneName: "Lists", ownerName: "_alice"), scope: .shared).records.map(\.id.recordName).sorted() == ["a", "b"])
    }

    /// Apple, `CKShare.removeParticipant(_:)`: "Removes a participant from the share";
    /// `CKShare.Participant`: "The records remain accessible for as long as the participant's status
    /// is accepted", so those kept stay accepted and those removed lose access.
    @Test(arguments: CloudMode.allCases)
    func updatingAShareKeepsAcceptedParticipantsAndDropsRemovedOnes(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        try await household.carol.acceptShare(household.metadata)
        var update = try await household.alice.fetchShares([household.share.id], in: .private)[household.share.id]!.get()
        update.participants.removeAll { $0.userRecordName == "_carol" }
        let saved = try await household.alice.modify(ModifyRequest(sharesToSave: [update]), in: .private).savedShares[update.id]!.get()
        #expect(saved.participants.first { $0.userRecordName == "_bob" }?.acceptanceStatus == .accepted)
        #expect(await cloudError { _ = try await household.carol.fetchZoneChanges(in: household.sharedZone, scope: .shared, since: nil, resultsLimit: nil) }?.code == .permissionFailure)
        #expect(try await household.bob.allZoneChanges(household.sharedZone, scope: .shared).records.count == 2)
    }

    /// Apple, `CKRecord.share`: "If any records have a parent reference to this record,
    /// CloudKit implicitly shares them along with this record": a shared root under a parent of
    /// its own is shared with what is below it, and the parent stays the owner's.
    @Test(arguments: CloudMode.allCases)
    func aSharedRootUnderAParentIsSharedWithItsChildren(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice", zone: "Lists")
        try await alice.save([record("folder", type: "Folder", in: Self.lists), record("list", type: "List", in: Self.lists, parent: "folder"), record("milk", in: Self.lists, parent: "list")])
        let list = try await alice.fetchRecords([RecordID(recordName: "list", zoneID: Self.lists)], desiredKeys: nil, in: .private)[RecordID(recordName: "list", zoneID: Self.lists)]!.get()
        let share = ShareRecord(id: RecordID(recordName: "share-list", zoneID: Self.lists), rootRecordName: "list",
            participants: [ShareParticipant(userRecordName: "_bob", permission: .readWrite)])
        let saved = try await alice.modify(ModifyRequest(recordsToSave: [list], sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let bob = try harness.device("bob-phone", "bob")
        try await bob.acceptShare(harness.cloud.shareMetadata(for: saved, ownerAccount: "alice"))
        let sharedZone = ZoneID(zoneName: "Lists", ownerName: "_alice")
        #expect(Set(try await bob.allZoneChanges(sharedZone, scope: .shared).records.map(\.id.recordName)) == ["list", "milk"])
        // Bob writes under the list, not beside it.
        try await bob.save([record("eggs", in: sharedZone, parent: "list")], in: .shared)
        let beside = record("beside", in: sharedZone, parent: "folder")
        #expect(try await bob.modify(ModifyRequest(recordsToSave: [beside]), in: .shared).error(beside.id)?.code == .permissionFailure)
    }

    // MARK: - What CloudKit refuses of shares

    /// Apple, `CKRecord.share`: "CloudKit only supports sharing in zones with the
    /// CKRecordZoneCapabilitySharing capability. The default zone doesn't support sharing."
    @Test(arguments: CloudMode.allCases)
    func theDefaultZoneCannotBeShared(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try harness.device("alice-phone", "alice")
        let zone = ZoneID(zoneName: SyncConstants.publicZoneName)
        let share = ShareRecord(id: RecordID(recordName: "share", zoneID: zone), rootRecordName: "list")
        let result = try await alice.modify(ModifyRequest(recordsToSave: [record("list", type: "List", in: zone)], sharesToSave: [share]), in: .private)
        #expect(result.error(share.id)?.code == .invalidArguments)
    }

    /// Apple, `CKError.badDatabase`: "Make sure you aren't submitting a share operation to the
    /// public database".
    @Test(arguments: CloudMode.allCases)
    func thePublicDatabaseHoldsNoShares(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let alice = try harness.device("alice-phone", "alice")
        let post = record("post", type: "Post", in: SyncConstants.publicZone)
        let share = ShareRecord(id: RecordID(recordName: "share", zoneID: SyncConstants.publicZone), rootRecordName: "post")
        let result = try await alice.modify(ModifyRequest(recordsToSave: [post], sharesToSave: [share]), in: .public)
        #expect(result.error(share.id)?.code == .badDatabase)
    }

    /// Apple, `CKError.alreadyShared`: "A record can exist in only a single share at a time": the
    /// record has a share, its parent has one, or one of its children has one.
    @Test(arguments: CloudMode.allCases)
    func aRecordTakesPartInOneShareAtMost(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        let alice = household.alice
        func share(_ root: String, named name: String, parent: String? = nil) async throws -> CloudError? {
            let rootRecord = try await alice.fetchRecords([RecordID(recordName: root, zoneID: Self.lists)], desiredKeys: nil, in: .private)[RecordID(recordName: root, zoneID: Self.lists)]!.get()
            let share = ShareRecord(id: RecordID(recordName: name, zoneID: Self.lists), rootRecordName: root)
            return try await alice.modify(ModifyRequest(recordsToSave: [rootRecord], sharesToSave: [share]), in: .private).error(share.id)
        }
        // list-1 is shared: again, its child, and a new parent of it are refused.
        #expect(try await share("list-1", named: "second")?.code == .alreadyShared)
        #expect(try await share("milk", named: "child")?.code == .alreadyShared)
        try await alice.save([record("folder", type: "Folder", in: Self.lists)])
        var list = try await alice.fetchRecords([RecordID(recordName: "list-1", zoneID: Self.lists)], desiredKeys: nil, in: .private)[RecordID(recordName: "list-1", zoneID: Self.lists)]!.get()
        list.parentRecordName = "folder"
        try await alice.save([list])
        #expect(try await share("folder", named: "parent")?.code == .alreadyShared)
        // list-2 stands apart and can be shared.
        #expect(try await share("list-2", named: "share-list-2") == nil)
    }

    /// Apple, `CKRecordZone.share`: "A record zone, and the records it contains, can take part in
    /// only a single share. CloudKit returns an error if you attempt to share an already-shared
    /// record zone, or if that record zone contains previously shared records."
    @Test(arguments: CloudMode.allCases)
    func aZoneSharedAsAWholeHoldsNoOtherShare(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        let zoneWide = ShareRecord(id: RecordID(recordName: ShareRecord.zoneWideRecordName, zoneID: Self.lists), rootRecordName: nil)
        #expect(try await household.alice.modify(ModifyRequest(sharesToSave: [zoneWide]), in: .private).error(zoneWide.id)?.code == .alreadyShared)

        let harness = try CloudHarness(mode)
        let alice = try await harness.deviceWithZone("alice-phone", "alice", zone: "Lists")
        try await alice.save([record("list", type: "List", in: Self.lists)])
        #expect(try await alice.modify(ModifyRequest(sharesToSave: [zoneWide]), in: .private).partialFailure == nil)
        let list = try await alice.fetchRecords([RecordID(recordName: "list", zoneID: Self.lists)], desiredKeys: nil, in: .private)[RecordID(recordName: "list", zoneID: Self.lists)]!.get()
        let recordShare = ShareRecord(id: RecordID(recordName: "share-list", zoneID: Self.lists), rootRecordName: "list")
        #expect(try await alice.modify(ModifyRequest(recordsToSave: [list], sharesToSave: [recordShare]), in: .private).error(recordShare.id)?.code == .alreadyShared)
    }

    /// Apple, `CKError.Code.tooManyParticipants`: "CloudKit generally enforces a maximum of 100
    /// participants for a share." LocalCloud counts the owner among them, the stricter reading.
    @Test(arguments: CloudMode.allCases)
    func aShareTakesAtMostAHundredParticipants(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        var share = household.share
        share.participants = (1...98).map { ShareParticipant(userRecordName: "_guest\($0)", permission: .readOnly) } + [ShareParticipant(userRecordName: "_bob", permission: .readWrite)]
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(share.participants.count == CloudKitLimits.maxShareParticipants)
        share.participants.append(ShareParticipant(userRecordName: "_one-too-many", permission: .readOnly))
        #expect(try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).error(share.id)?.code == .tooManyParticipants)
    }

    /// Whoever joined by the link loses access when the owner closes the link: Apple,
    /// `CKShare.publicPermission`: "CloudKit removes all public participants when you save the
    /// share if you set the property's value to `CKShare.ParticipantPermission.none`." The
    /// invited people go first: a share open to its link lists none (next test).
    @Test(arguments: CloudMode.allCases)
    func closingTheLinkRemovesWhoeverJoinedByIt(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        var share = household.share
        share.participants = []
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        share.publicPermission = .readOnly
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let dave = try household.harness.device("dave-phone", "dave")
        try await dave.acceptShare(household.harness.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        #expect(try await dave.allZoneChanges(household.sharedZone, scope: .shared).records.isEmpty == false)
        share = try await household.alice.fetchShares([share.id], in: .private)[share.id]!.get()
        share.publicPermission = .none
        let closed = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(!closed.participants.contains { $0.role == .publicUser })
        #expect(await cloudError { _ = try await dave.allZoneChanges(household.sharedZone, scope: .shared) }?.code == .permissionFailure)
    }

    /// Apple, `CKShare.h`, `publicPermission`: opening the link "will result in all pending
    /// participants being removed. Already-accepted participants will remain on the share";
    /// `addParticipant:`: "In order to modify the list of participants, a share must have
    /// publicPermission set to CKShareParticipantPermissionNone"; `CKShareParticipantRolePublicUser`:
    /// "owners cannot add public users". Bob accepted, Carol did not: the link opens with Bob,
    /// and Carol's invitation is gone (the link would let her in as anyone, no longer as
    /// invited). While the link is open, Bob's permission changes; inviting Dave, removing Bob,
    /// or writing Dave in as a public user is refused with `invalidArguments` (what CloudKit
    /// answers is not documented: the stricter reading), and the share stays as it was.
    /// Breaking it (the pending kept, or no check): Carol stays invited, or Dave is added.
    @Test(arguments: CloudMode.allCases)
    func aShareOpenToItsLinkKeepsWhoAcceptedAndItsPeopleStay(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let alice = household.alice
        var share = try await alice.fetchShares([household.share.id], in: .private)[household.share.id]!.get()
        share.publicPermission = .readOnly
        share = try await alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(share.publicPermission == .readOnly)
        #expect(share.participants.first { $0.userRecordName == "_bob" }?.acceptanceStatus == .accepted)
        #expect(!share.participants.contains { $0.userRecordName == "_carol" })
        #expect(try await household.carol.shareMetadata(for: #require(share.url)).participantRole == .publicUser)

        var refused: [ShareRecord] = []
        var adding = share
        adding.participants.append(ShareParticipant(userRecordName: "_dave", permission: .readOnly))
        var removing = share
        removing.participants.removeAll { $0.userRecordName == "_bob" }
        var marking = share
        for index in marking.participants.indices where marking.participants[index].userRecordName == "_bob" {
            marking.participants[index].acceptanceStatus = .removed
        }
        var writingIn = share
        writingIn.participants.append(ShareParticipant(userRecordName: "_dave", role: .publicUser, permission: .readOnly, acceptanceStatus: .accepted))
        refused = [adding, removing, marking, writingIn]
        for attempt in refused {
            #expect(try await alice.modify(ModifyRequest(sharesToSave: [attempt]), in: .private).error(share.id)?.code == .invalidArguments)
        }
        #expect(try await alice.fetchShares([share.id], in: .private)[share.id]!.get().changeTag == share.changeTag)
        for index in share.participants.indices where share.participants[index].userRecordName == "_bob" {
            share.participants[index].permission = .readOnly
        }
        let lowered = try await alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(lowered.participants.first { $0.userRecordName == "_bob" }?.permission == .readOnly)
    }

    /// Apple, `CKShare.Participant.participantID` and `oneTimeURLParticipant()` (a participant
    /// added "when a participant's email address / phone number / userRecordID isn't known
    /// up-front"): every participant a share lists has an identifier of its own, kept while they
    /// are in the share. Two invitees without a name are saved; each keeps its identifier across
    /// the next save, and leaving one out removes that one only. Breaking it (no identifier, or a
    /// new one at each save): the invitees cannot be told apart.
    @Test(arguments: CloudMode.allCases)
    func aParticipantKeepsItsIdentifierWhileInTheShare(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        var share = household.share
        share.participants += [ShareParticipant(userRecordName: nil, permission: .readOnly), ShareParticipant(userRecordName: nil, permission: .readWrite)]
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        let ids = share.participants.compactMap(\.participantID)
        #expect(ids.count == share.participants.count && Set(ids).count == ids.count)
        let invitees = share.participants.filter { $0.userRecordName == nil && $0.lookup == nil }
        try #require(invitees.count == 2)
        share.participants.removeAll { $0.participantID == invitees[1].participantID }
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(share.participants.compactMap(\.participantID) == ids.filter { $0 != invitees[1].participantID })
    }

    /// Someone who left a share is listed as removed, and the owner can invite them again (Apple,
    /// `CKShare.addParticipant(_:)`; their status is "pending" again, `CKShare.Participant`: "If
    /// the status is pending, use CKAcceptSharesOperation to accept the share"): Bob leaves, is
    /// sent again as pending, and accepts. Sent as removed, he stays removed. Breaking it (a
    /// listing that stays removed whatever the owner sends): his acceptance is refused.
    @Test(arguments: CloudMode.allCases)
    func someoneWhoLeftCanBeInvitedAgain(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let leaving = try await household.bob.modify(ModifyRequest(recordIDsToDelete: [RecordID(recordName: household.share.id.recordName, zoneID: household.sharedZone)]), in: .shared)
        #expect(leaving.partialFailure == nil)
        var share = try await household.alice.fetchShares([household.share.id], in: .private)[household.share.id]!.get()
        #expect(share.participants.first { $0.userRecordName == "_bob" }?.acceptanceStatus == .removed)
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(share.participants.first { $0.userRecordName == "_bob" }?.acceptanceStatus == .removed)
        for index in share.participants.indices where share.participants[index].userRecordName == "_bob" {
            share.participants[index].acceptanceStatus = .pending
        }
        share = try await household.alice.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]!.get()
        #expect(share.participants.filter { $0.userRecordName == "_bob" }.map(\.acceptanceStatus) == [.pending])
        try await household.bob.acceptShare(household.metadata)
        #expect(try await household.bob.allZoneChanges(household.sharedZone, scope: .shared).records.isEmpty == false)
    }

    /// Apple, `CKRecord.creatorUserRecordID` ("The ID of the user who creates the record"),
    /// `creationDate` ("The time when the server first saves the record"),
    /// `lastModifiedUserRecordID` ("The ID of the user who most recently modified the record")
    /// and `modificationDate`: set by the server, each user named to the reader as CloudKit names
    /// them (the reader themself is `__defaultOwner__`). Bob edits Alice's item: both read the
    /// same creator, creation time and last modifier, each from their side. Breaking it: the
    /// modifier kept as the creator, or the creation time moved by the edit.
    @Test(arguments: CloudMode.allCases)
    func aRecordNamesWhoMadeAndLastChangedIt(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        try await household.bob.acceptShare(household.metadata)
        let milkID = RecordID(recordName: "milk", zoneID: household.sharedZone)
        let made = try #require(try await household.bob.fetchRecords([milkID], desiredKeys: nil, in: .shared)[milkID]?.get())
        #expect(made.creatorUserRecordName == "_alice" && made.lastModifiedUserRecordName == "_alice")
        let created = try #require(made.creationDate)
        household.harness.clock.advance(by: 30)
        var edit = made
        edit.fields["title"] = .string("Oat milk")
        let saved = try #require(try await household.bob.save([edit], in: .shared).first)
        #expect(saved.creatorUserRecordName == "_alice" && saved.lastModifiedUserRecordName == SyncConstants.currentUserOwnerName)
        #expect(saved.creationDate == created && saved.modificationDate == created.addingTimeInterval(30))
        let mine = RecordID(recordName: "milk", zoneID: Self.lists)
        let atAlice = try #require(try await household.alice.fetchRecords([mine], desiredKeys: nil, in: .private)[mine]?.get())
        #expect(atAlice.creatorUserRecordName == SyncConstants.currentUserOwnerName && atAlice.lastModifiedUserRecordName == "_bob")
        #expect(atAlice.creationDate == created)
    }

    /// Apple, `CKUserIdentity.nameComponents` ("The user's name"), and CloudKit JS's
    /// `UserIdentity`: a user who lets themselves be found carries their name, anyone else only
    /// how they were looked up. LocalCloud's stricter reading names a share's owner and the
    /// participants who accepted, to every reader of the share; Carol, who has not accepted, is
    /// not named yet. Breaking it: names given to pending participants, or to nobody.
    @Test(arguments: CloudMode.allCases)
    func aSharesOwnerAndAcceptedParticipantsCarryTheirNames(_ mode: CloudMode) async throws {
        let household = try await Household(mode)
        for (account, given) in [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")] {
            var name = PersonNameComponents()
            name.givenName = given
            name.familyName = "Example"
            try household.harness.cloud.addAccount(account, name: name)
        }
        try await household.bob.acceptShare(household.metadata)
        let id = RecordID(recordName: "share-list-1", zoneID: household.sharedZone)
        let read = try #require(try await household.bob.fetchShares([id], in: .shared)[id]?.get())
        #expect(read.owner?.nameComponents?.givenName == "Alice")
        #expect(read.participant(named: "_bob")?.nameComponents?.givenName == "Bob")
        #expect(read.participant(named: SyncConstants.currentUserOwnerName)?.nameComponents?.familyName == "Example")
        #expect(read.participant(named: "_carol")?.nameComponents == nil)
        let atAlice = try #require(try await household.alice.fetchShares([household.share.id], in: .private)[household.share.id]?.get())
        #expect(atAlice.participant(named: "_bob")?.nameComponents?.givenName == "Bob")
    }
}
