import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Several zones in the user's private database: a model that names its zone
/// (`SyncModel.zoneName`) lives there, every other model in the app's sync zone. The household's
/// lists are in the sync zone, shared whole; each person's diary is in a "Personal" zone of their
/// own, which no share reaches. Each test runs through LocalCloud's port and through the CloudKit
/// gateway over the stand-in.
@Suite("Engine: several zones")
struct EngineZonesTests {
    static let models: [any SyncModel.Type] = [SharedList.self, Member.self, ListItem.self, Diary.self]
    static let personal = ZoneID(zoneName: Diary.zoneName!)

    /// Each record goes to its model's zone, and another device of the account reads both.
    /// Breaking it (the routing rule reading the sync zone only): the diary lands in the sync
    /// zone, and the golden shows it there.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func eachModelSyncsInItsOwnZone(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        await phone.sync()
        try world.expectCloud(is: "two-zones-one-of-them-personal")
        await laptop.sync()
        #expect(try laptop.store.fetch(Diary.self, recordName: "monday")?.text == "Slept well")
        #expect(try laptop.store.fetch(SharedList.self, recordName: "groceries") != nil)
        var edited = try #require(try laptop.store.fetch(Diary.self, recordName: "monday"))
        edited.text = "Slept badly"
        try laptop.store.save(edited)
        await laptop.sync()
        await phone.sync()
        #expect(try phone.store.fetch(Diary.self, recordName: "monday")?.text == "Slept badly")
    }

    /// The household zone is shared whole while the diary's zone stays Alice's: Bob receives the
    /// lists and never the diary. Breaking it (the zone share's check reading every zoned model):
    /// sharing fails, naming Diary, though no diary is in the shared zone.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theSyncZoneIsSharedWholeAndThePersonalZoneStaysApart(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice", models: Self.models)
        let bob = try world.device("bob-phone", account: "bob", models: Self.models)
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try alice.store.save(Diary(recordName: "monday", text: "Private"))
        await alice.sync()
        await bob.sync()
        let share = try await alice.engine.shareZone(title: "Home", inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()
        #expect(try bob.store.fetch(SharedList.self, recordName: "groceries") != nil)
        #expect(try bob.store.fetchAll(Diary.self).isEmpty)
        try alice.store.save(SharedList(recordName: "chores", title: "Chores"))
        await alice.sync()
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["chores", "groceries"])
    }

    /// Another client deletes the personal zone: the next pass creates it again and uploads the
    /// diary, and the household zone syncs on in the same pass. Breaking it (a rebuild that
    /// queues every model of the account): the lists are uploaded again too, and the rebuild
    /// queues records of the sync zone under the personal zone's name.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aZoneDeletedElsewhereIsRebuiltWhileTheOtherSyncsOn(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        await phone.sync()
        let other = try world.cloud.device("script", account: "alice")
        try await other.deleteZones([Self.personal])
        try phone.store.save(SharedList(recordName: "chores", title: "Chores"))
        let before = phone.gateway.modifies.count
        await phone.sync()
        await phone.sync()
        try world.expectCloud(is: "a-personal-zone-rebuilt-beside-the-household")
        let saved = phone.gateway.modifies.dropFirst(before).flatMap(\.request.recordsToSave).map(\.id.recordName)
        #expect(saved.sorted() == ["chores", "monday"], "only the rebuilt zone's records and the new list: \(saved)")
    }

    /// The personal zone's read fails on its own (the server failed on it): the pass reads the
    /// household zone all the same, pushes the laptop's new list, and reports the failure last;
    /// the personal zone stays unfetched, and the next pass reads it. Breaking it (a zone's
    /// failure ending the pull): the list does not reach the laptop while the personal zone fails
    /// (the feed names that zone first); (ending the pass before its push): "chores" never
    /// reaches the phone.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aZoneThatFailsToBeReadStopsNoOtherZone(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        await laptop.sync()
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await phone.sync()
        laptop.gateway.hooks.withLock {
            $0.zoneFailure = { $0 == Self.personal ? CloudError(.internalError, "the server failed on this zone") : nil }
        }
        try laptop.store.save(SharedList(recordName: "chores", title: "Chores"))
        let failed = await laptop.engine.sync()
        #expect(failed != .completed)
        #expect(try laptop.store.fetch(SharedList.self, recordName: "groceries") != nil, "the household zone was read")
        await phone.sync()
        #expect(try phone.store.fetch(SharedList.self, recordName: "chores") != nil, "the laptop's push went up")
        #expect(try laptop.store.fetch(Diary.self, recordName: "monday") == nil)
        #expect(try laptop.engine.diagnostics().zones.filter(\.hasUnfetchedChanges).map(\.zoneName) == ["Personal"])
        laptop.gateway.hooks.withLock { $0.zoneFailure = nil }
        #expect(await laptop.engine.sync() == .completed)
        #expect(try laptop.store.fetch(Diary.self, recordName: "monday")?.text == "Slept well")
    }

    /// A pass that reads only the household zone leaves the personal zone's changes for later:
    /// the diagnostics list it as unfetched (CloudKit's `zoneIDsWithUnfetchedServerChanges`) until
    /// a pass fetches it to its end. Breaking it (the mark never set, or never cleared): the
    /// laptop shows no zone waiting, or one that waits forever.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aZoneAPassLeftOutIsListedAsUnfetchedUntilFetched(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        await laptop.sync()
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        await phone.sync()
        func unfetched() throws -> [String] {
            try laptop.engine.diagnostics().zones.filter(\.hasUnfetchedChanges).map(\.zoneName)
        }
        #expect(await laptop.engine.sync(SyncOptions(zones: [ZoneID(zoneName: SyncConstants.defaultSyncZoneName)])) == .completed)
        #expect(try laptop.store.fetch(SharedList.self, recordName: "groceries") != nil)
        #expect(try laptop.store.fetch(Diary.self, recordName: "monday") == nil)
        #expect(try unfetched() == ["Personal"])
        await laptop.sync()
        #expect(try laptop.store.fetch(Diary.self, recordName: "monday") != nil)
        #expect(try unfetched().isEmpty)
    }

    /// The household lives in a zone of its own, shared whole, while the sync zone holds Alice's
    /// private notes: the share is made (the notes' zone is not the shared one), Bob receives the
    /// chores and never a note, and a zone no model lives in cannot be shared. Breaking it (the
    /// zone share always made of the sync zone): the call fails, naming Note.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aZoneOtherThanTheSyncZoneIsSharedWhole(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let models: [any SyncModel.Type] = [Note.self, HouseholdChore.self]
        let alice = try world.device("alice-phone", account: "alice", models: models)
        let bob = try world.device("bob-phone", account: "bob", models: models)
        try alice.store.save(Note(recordName: "secret", title: "Mine alone", createdAt: Date(timeIntervalSince1970: 0)))
        try alice.store.save(HouseholdChore(recordName: "dishes", title: "Dishes"))
        await alice.sync()
        await bob.sync()
        let refused = await #expect(throws: SyncError.self) { try await alice.engine.shareZone(title: "Nowhere", zone: "Elsewhere") }
        #expect(refused?.cloudError?.code == .invalidArguments)
        let share = try await alice.engine.shareZone(title: "Home", inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)], zone: "Household")
        #expect(try await alice.engine.zoneShare(zone: "Household")?.id == share.id)
        #expect(try await alice.engine.zoneShare() == nil, "the sync zone is not shared")
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()
        #expect(try bob.store.fetchAll(HouseholdChore.self).map(\.title) == ["Dishes"])
        #expect(try bob.store.fetchAll(Note.self).isEmpty)
        var chore = try #require(try bob.store.fetch(HouseholdChore.self, recordName: "dishes"))
        chore.title = "Dishes, done"
        try bob.store.save(chore)
        await bob.sync()
        await alice.sync()
        #expect(try alice.store.fetch(HouseholdChore.self, recordName: "dishes")?.title == "Dishes, done")
    }
}

/// A household chore, written by hand as syncgen writes a model with `zone: Household`: in a
/// zone of its own, shareable with the whole zone.
struct HouseholdChore: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var title: String = ""
}

extension HouseholdChore: SyncModel {
    static let recordType = "HouseholdChore"
    static let syncScopes: Set<DatabaseScope> = [.private, .shared]
    static let zoneName: String? = "Household"
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("title", \Self.title)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}

/// A diary entry, written by hand as syncgen writes a model with `zone: Personal`: private only,
/// in a zone of its own.
struct Diary: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var text: String = ""
}

extension Diary: SyncModel {
    static let recordType = "Diary"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let zoneName: String? = "Personal"
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("text", \Self.text)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}
