import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// A participant leaving a share chooses to keep a copy (`leaveShare(_:keepingACopy:)`): the root
/// and its subtree become new records of their own zone, linked as the originals were, and the
/// owner's records are untouched.
@Suite("Engine: leaving a share with a copy")
struct EngineLeaveWithCopyTests {
    typealias Household = EngineSharingTests.Household

    /// Alice's list with an item assigned to a member; Bob accepted and synced.
    static func household(throughCloudKit: Bool? = nil) async throws -> Household {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let alice = household.alice
        try alice.store.save(Member(recordName: "ann", parent: RecordReference(recordName: "groceries"), displayName: "Ann"))
        var milk = try #require(try alice.store.fetch(ListItem.self, recordName: "milk"))
        milk.assignee = RecordReference(recordName: "ann")
        try alice.store.save(milk)
        await alice.sync()
        await household.bob.sync()
        try #require(try household.bob.store.fetch(Member.self, recordName: "ann") != nil)
        return household
    }

    /// The copy is Bob's: new names, his zone, the item under the copied list and assigned to the
    /// copied member; the next pass uploads it, and Alice's list and share stay as they were, less
    /// Bob. Breaking it (leaving without copying): Bob has no list left.
    /// A leave that finished forgets its copy: Bob leaves keeping a copy, is invited again and
    /// accepts, and Alice adds "eggs"; leaving again keeping a copy copies the list as it is now,
    /// "eggs" with it (the list's copy is the first one, which has its title, a natural key of
    /// lists: the new items join it). Breaking it (the copy remembered after the leave finished,
    /// as an interrupted leave's is): the second leave takes the first copy for its own, and
    /// "eggs" is kept nowhere.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func leavingAgainAfterRejoiningCopiesTheListAsItIsNow(throughCloudKit: Bool) async throws {
        let household = try await Self.household(throughCloudKit: throughCloudKit)
        let (alice, bob, world) = (household.alice, household.bob, household.world)
        let first = try #require(try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true))
        let invited = try await alice.engine.invite([ShareInvitation(.userRecordName("_bob"), permission: .readWrite)], to: EngineShareManagementTests.groceries(alice))
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: invited, ownerAccount: "alice"))
        try alice.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        await alice.sync()
        await bob.sync()
        try #require(try bob.store.fetch(ListItem.self, recordName: "eggs") != nil)
        let second = try #require(try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true))
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == [first.recordName] && second.recordName == first.recordName)
        let items = try bob.store.fetchAll(ListItem.self)
        #expect(items.allSatisfy { $0.parent?.recordName == first.recordName && !["milk", "eggs"].contains($0.recordName) })
        #expect(items.map(\.text).sorted() == ["Eggs", "Milk", "Milk"])
    }

    @Test(arguments: SyncWorld.cloudKitPaths)
    func theCopyIsTheParticipantsOwnAndLinkedAsTheOriginal(throughCloudKit: Bool) async throws {
        let household = try await Self.household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        let copy = try #require(try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true))
        #expect(copy.recordName != "groceries" && copy.title == "Groceries" && copy.ownerName == SyncConstants.currentUserOwnerName)
        #expect(try bob.store.fetchAll(SharedList.self) == [copy])
        let item = try #require(try bob.store.fetchAll(ListItem.self).first)
        let member = try #require(try bob.store.fetchAll(Member.self).first)
        #expect(item.recordName != "milk" && item.text == "Milk" && item.parent?.recordName == copy.recordName && item.ownerName == copy.ownerName)
        #expect(member.recordName != "ann" && member.displayName == "Ann" && member.parent?.recordName == copy.recordName)
        #expect(item.assignee.recordName == member.recordName)
        #expect(try bob.store.knownShare(of: copy) == nil)

        await bob.sync()
        let snapshot = try household.world.cloud.snapshot()
        let bobs = snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        #expect(Set(bobs.keys) == [copy.recordName, item.recordName, member.recordName])
        #expect(bobs[item.recordName]?.parentRecordName == copy.recordName)
        let alices = snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
        #expect(Set(alices.keys) == ["groceries", "chores", "milk", "ann"])
        #expect(try !bob.store.hasUnpushedChanges())

        await alice.sync()
        let share = try #require(try alice.store.knownShare(of: EngineShareManagementTests.groceries(alice)))
        #expect(share.participants.first { $0.isSamePerson(as: EngineShareManagementTests.bob) }?.acceptanceStatus ?? .removed == .removed)
        #expect(try alice.store.fetchAll(ListItem.self).map(\.recordName) == ["milk"])
    }

    /// The list's title is its natural key: Bob's own "Groceries" is the copy, kept as it is, and
    /// the copied item joins it. Breaking it (a copy that repeats a key refused): leaving fails
    /// with `DuplicateNaturalKey` and Bob stays in the share.
    @Test func aCopyThatRepeatsANaturalKeyJoinsTheRecordThatHasIt() async throws {
        let household = try await Self.household()
        let bob = household.bob
        try bob.store.save(SharedList(recordName: "bobs-groceries", title: "Groceries", color: "green"))
        try bob.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "bobs-groceries"), text: "Eggs", assignee: .unset))
        let copy = try #require(try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true))
        #expect(copy.recordName == "bobs-groceries" && copy.color == "green")
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["bobs-groceries"])
        let items = try bob.store.fetchAll(ListItem.self)
        #expect(Set(items.map(\.text)) == ["Eggs", "Milk"])
        #expect(items.allSatisfy { $0.parent?.recordName == "bobs-groceries" })
        await bob.sync()
        let bobs = try household.world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        #expect(bobs.values.filter { $0.recordType == "SharedList" }.map(\.id.recordName) == ["bobs-groceries"])
        #expect(bobs.values.filter { $0.recordType == "ListItem" }.allSatisfy { $0.parentRecordName == "bobs-groceries" })
    }

    /// Leaving without a copy is unchanged: the subtree goes and nothing is copied.
    @Test func leavingWithoutACopyCopiesNothing() async throws {
        let household = try await Self.household()
        let bob = household.bob
        #expect(try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob)) == nil)
        #expect(try bob.store.fetchAll(SharedList.self).isEmpty && bob.store.fetchAll(ListItem.self).isEmpty && bob.store.fetchAll(Member.self).isEmpty)
        #expect(try !bob.store.hasUnpushedChanges())
    }

    /// A leave cut after the copy is made (the share's deletion fails: offline, or the app died)
    /// keeps Bob in the share with his copy; leaving again finishes with that copy, never a
    /// second one. Breaking it (the copy not remembered): Bob's zone ends with the item twice
    /// (the second list joins the first by its title, its natural key).
    @Test func aLeaveCutAfterTheCopyKeepsThatCopy() async throws {
        let household = try await Self.household()
        let bob = household.bob
        household.world.cloud.inject(ScriptedFault(CloudError(.networkUnavailable, "offline"), on: .modify, account: "bob"))
        await #expect(throws: SyncError.self) { try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true) }
        #expect(try bob.store.fetchAll(SharedList.self).count == 2, "the copy and the shared list")
        let copy = try #require(try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true))
        #expect(try bob.store.fetchAll(SharedList.self) == [copy])
        #expect(try bob.store.fetchAll(ListItem.self).count == 1)
        await bob.sync()
        let bobs = try household.world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        #expect(bobs.count == 3)
    }

    /// A file store cut at each commit of a leave with a copy, then opened again and left again:
    /// every run ends with one copy in Bob's zone and Bob out of the share.
    @Test func aCrashAtEveryWriteOfALeaveWithACopyEndsWithOneCopy() async throws {
        func run(crashingAfter crashPoint: Int?) async throws -> Int {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("bob-phone.sqlite")
            let alice = try world.device("alice-phone", account: "alice")
            var bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock))
            try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
            try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
            await alice.sync()
            let share = try await alice.engine.share(EngineShareManagementTests.groceries(alice), inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
            try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
            await bob.sync()
            let before = bob.store.writeCommits
            if let crashPoint {
                bob.store.crash(afterCommits: crashPoint)
                await #expect(throws: (any Error).self) { try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true) }
                bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock))
                if let groceries = try bob.store.fetch(SharedList.self, recordName: "groceries") {
                    try await bob.engine.leaveShare(groceries, keepingACopy: true)
                }
            } else {
                try await bob.engine.leaveShare(EngineShareManagementTests.groceries(bob), keepingACopy: true)
            }
            let writes = bob.store.writeCommits - before
            await bob.sync()
            let context = "crash after \(crashPoint.map(String.init) ?? "no") commits"
            let bobs = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
            #expect(bobs.values.map(\.recordType).sorted() == ["ListItem", "SharedList"], "\(context): Bob's zone has \(bobs.values.map(\.recordType))")
            #expect(try bob.store.fetchAll(SharedList.self).map(\.ownerName) == [SyncConstants.currentUserOwnerName], "\(context)")
            #expect(try bob.store.fetch(SharedList.self, recordName: "groceries") == nil, "\(context)")
            await alice.sync()
            let participants = try #require(try alice.store.knownShare(of: EngineShareManagementTests.groceries(alice))?.participants)
            #expect(participants.first { $0.isSamePerson(as: EngineShareManagementTests.bob) }?.acceptanceStatus ?? .removed == .removed, "\(context)")
            return writes
        }
        let writes = try await run(crashingAfter: nil)
        #expect(writes >= 2, "the leave made only \(writes) writes")
        for crashPoint in 0..<writes { _ = try await run(crashingAfter: crashPoint) }
    }
}

/// A copy takes the files of the records it copies, and refuses before anything changes when a
/// file is not on the device (once the share is left it cannot be read).
@Suite("Engine: leaving a share with a copy of its files")
struct EngineLeaveWithCopyAssetTests {
    static let models: [any SyncModel.Type] = SyncSchema.models + [Album.self, Photo.self]
    static let picture = Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0 * 7) })

    /// Alice's album "trip" with the photo "beach" and its file, shared with Bob read-only and
    /// accepted: Bob has the records, not the file.
    static func shareTrip(in world: SyncWorld, from alice: SyncWorld.Device, to bob: SyncWorld.Device) async throws {
        try alice.store.save(Album(recordName: "trip", title: "Trip"))
        try alice.store.save(Photo(recordName: "beach", parent: RecordReference(recordName: "trip")))
        try await alice.engine.attachAsset(Self.picture, suffix: "jpg", to: \Photo.image, recordName: "beach")
        await alice.sync()
        let share = try await alice.engine.share(try #require(try alice.store.fetch(Album.self, recordName: "trip")), inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readOnly)])
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()
    }

    /// Breaking it (the files left out of the copy): the copied photo reaches Bob's zone without
    /// its contents; (the check left out) the first leave goes through and the copy has no file.
    @Test func theCopyTakesTheFilesAndWaitsForOnesNotOnTheDevice() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice", models: Self.models)
        let bob = try world.device("bob-phone", account: "bob", models: Self.models)
        try await Self.shareTrip(in: world, from: alice, to: bob)
        let trip = try #require(try bob.store.fetch(Album.self, recordName: "trip"))

        await #expect(throws: SyncError.assetFiles(.notOnDevice(AssetKey(\Photo.image, recordName: "beach")))) {
            try await bob.engine.leaveShare(trip, keepingACopy: true)
        }
        #expect(try bob.store.fetchAll(Album.self) == [trip] && bob.store.fetchAll(Photo.self).count == 1)
        #expect(try !bob.store.hasUnpushedChanges())

        try await bob.engine.requestAssetDownload(for: \Photo.image, recordName: "beach")
        await bob.sync()
        let copy = try #require(try await bob.engine.leaveShare(trip, keepingACopy: true))
        let photo = try #require(try bob.store.fetchAll(Photo.self).first)
        #expect(photo.parent?.recordName == copy.recordName && photo.image != nil)
        await bob.sync()
        let bobs = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        #expect(bobs[photo.recordName]?.assetContents(.first) != nil)
        #expect(try await bob.engine.assetEntry(for: \Photo.image, recordName: photo.recordName)?.state == .cached)
        let file = try #require(try await bob.engine.assetFileURL(for: \Photo.image, recordName: photo.recordName))
        #expect(try Data(contentsOf: file) == Self.picture)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["beach"]?.assetContents(.first) != nil)
    }

    /// A leave cut after the copies are saved, before their files are copied (the app died): the
    /// next pass copies the files, so the copied photo reaches Bob's zone with its contents though
    /// he never leaves again, and leaving then keeps that one copy. Breaking it (the pass leaving
    /// remembered copies alone): the copy reaches the cloud without its file.
    @Test func aLeaveCutBeforeTheFilesAreCopiedHasThemCopiedByTheNextPass() async throws {
        let world = try SyncWorld()
        let url = world.assetFolder.appendingPathComponent("bob-phone.sqlite")
        let alice = try world.device("alice-phone", account: "alice", models: Self.models)
        var bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        try await Self.shareTrip(in: world, from: alice, to: bob)
        try await bob.engine.requestAssetDownload(for: \Photo.image, recordName: "beach")
        await bob.sync()

        bob.store.crash(afterCommits: 1)  // the copies commit; the copied file's entry does not
        let trip = try #require(try bob.store.fetch(Album.self, recordName: "trip"))
        await #expect(throws: (any Error).self) { try await bob.engine.leaveShare(trip, keepingACopy: true) }
        bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        let copiedPhoto = try #require(try bob.store.fetchAll(Photo.self).first { $0.recordName != "beach" })
        #expect(try await bob.engine.assetEntry(for: \Photo.image, recordName: copiedPhoto.recordName) == nil, "the crash came before the file")

        await bob.sync()
        let bobs = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        #expect(bobs[copiedPhoto.recordName]?.assetContents(.first) != nil, "the copy reached the cloud without its file")
        #expect(try await bob.engine.assetEntry(for: \Photo.image, recordName: copiedPhoto.recordName)?.state == .cached, "uploaded")
        let file = try #require(try await bob.engine.assetFileURL(for: \Photo.image, recordName: copiedPhoto.recordName))
        #expect(try Data(contentsOf: file) == Self.picture)

        let original = try #require(try bob.store.fetch(Album.self, recordName: "trip"))
        let kept = try #require(try await bob.engine.leaveShare(original, keepingACopy: true))
        await bob.sync()
        #expect(try bob.store.fetchAll(Album.self).map(\.recordName) == [kept.recordName])
        #expect(try bob.store.fetchAll(Photo.self).map(\.recordName) == [copiedPhoto.recordName])
    }
}

/// A shareable album, written by hand as syncgen writes it: a share hierarchy with a file.
struct Album: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var title: String = ""
}

extension Album: SyncModel, ShareableModel {
    static let recordType = "Album"
    static let syncScopes: Set<DatabaseScope> = [.private, .shared]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [Photo.self] }
    static let _syncFields = ModelFields<Self>(
        [.field("title", \Self.title)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
    var shareTitle: String { title }
}

/// A photo of an album: its file is the record's asset.
struct Photo: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var parent: RecordReference<Album>?
    var image: AssetReference?
}

extension Photo: SyncModel, CacheableModel {
    static let recordType = "Photo"
    static let syncScopes: Set<DatabaseScope> = [.private, .shared]
    static let parentRecordType: String? = "Album"
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.parent(\Self.parent), .asset("image", \Self.image)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { parent?.recordName }
}
