import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// A new field filled from the old ones (`SyncStore.migrate(toSchemaVersion:_:)`): version 2 of
/// the app adds `slug` to `Dish` and fills it from the title, once per store. Each engine test
/// runs through LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: backfilling a new field")
struct EngineBackfillTests {
    static func slug(_ dish: DishVersion2) -> String {
        dish.title.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    /// Alice's phone and laptop on version 1, both holding her two dishes.
    static func twoDevicesOnVersion1(throughCloudKit: Bool = false) async throws -> (SyncWorld, phone: SyncWorld.Device, laptop: SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", store: storeFile("alice-phone", in: world), models: [DishVersion1.self])
        let laptop = try world.device("alice-laptop", account: "alice", store: storeFile("alice-laptop", in: world), models: [DishVersion1.self])
        try phone.store.save([DishVersion1(recordName: "bread", title: "Sourdough Bread"), DishVersion1(recordName: "soup", title: "Pea Soup")])
        await phone.sync()
        await laptop.sync()
        return (world, phone, laptop)
    }

    /// A device's store, in a file: an upgrade opens it again in the new version's process.
    static func storeFile(_ device: String, in world: SyncWorld) throws -> SyncStore {
        try SyncStore(url: world.assetFolder.appendingPathComponent("\(device).sqlite"), clock: world.clock)
    }

    /// The device running version 2 of the app over the store version 1 filled (opened again,
    /// as the new version's process does), migrated.
    static func upgrade(_ device: SyncWorld.Device, in world: SyncWorld) throws -> SyncWorld.Device {
        let upgraded = try world.device(device.name, account: "alice", store: storeFile(device.name, in: world), models: [DishVersion2.self])
        try upgraded.store.migrate(toSchemaVersion: 2) { migration in
            try migration.backfill(\DishVersion2.slug, Self.slug)
        }
        return upgraded
    }

    /// The phone upgrades first and syncs its slugs; then Alice changes the bread's there.
    static func phoneUpgradesAndAliceEditsTheSlug(_ phone: SyncWorld.Device, in world: SyncWorld) async throws -> SyncWorld.Device {
        let newPhone = try upgrade(phone, in: world)
        await newPhone.sync()
        var bread = try #require(try newPhone.store.fetch(DishVersion2.self, recordName: "bread"))
        bread.slug = "alices-bread"
        try newPhone.store.save(bread)
        await newPhone.sync()
        return newPhone
    }

    static func cloudSlug(_ world: SyncWorld, _ name: String) throws -> SyncFieldValue? {
        try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records[name]?.fields["slug"]
    }

    /// The migration fills every stored dish once, and what it wrote is pushed as an edit;
    /// running it again (the next launch) does nothing.
    @Test func aBackfillRunsOncePerStoreAndIsPushed() async throws {
        let (world, phone, _) = try await Self.twoDevicesOnVersion1()
        let upgraded = try Self.upgrade(phone, in: world)
        #expect(try upgraded.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "sourdough-bread")
        #expect(try upgraded.store.schemaVersion() == 2)
        var calls = 0
        let again = try upgraded.store.migrate(toSchemaVersion: 2) { migration in
            try migration.backfill(\DishVersion2.slug) { _ in calls += 1; return "again" }
        }
        #expect(!again && calls == 0)
        await upgraded.sync()
        #expect(try Self.cloudSlug(world, "bread") == .string("sourdough-bread"))
        #expect(try Self.cloudSlug(world, "soup") == .string("pea-soup"))
    }

    /// The migration is one transaction: a kill at its commit leaves the store as it was (no
    /// slug, no version), and the next launch runs it whole, each dish filled and pushed once.
    /// Breaking it (the version's mark written in a transaction of its own, before the
    /// backfill's): the killed run marks version 2 done with no slug filled.
    @Test func aKillAtEveryWriteOfTheMigrationFinishesOnce() async throws {
        for crashPoint in 0..<2 {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("phone-\(crashPoint).sqlite")
            try SyncStore(url: url, clock: world.clock).save([DishVersion1(recordName: "bread", title: "Sourdough Bread"), DishVersion1(recordName: "soup", title: "Pea Soup")])
            do {
                let store = try SyncStore(url: url, clock: world.clock)
                store.crash(afterCommits: crashPoint)
                _ = try? store.migrate(toSchemaVersion: 2) { migration in
                    try migration.backfill(\DishVersion2.slug, Self.slug)
                }
            }
            let store = try SyncStore(url: url, clock: world.clock)
            let ran = try store.migrate(toSchemaVersion: 2) { migration in
                try migration.backfill(\DishVersion2.slug, Self.slug)
            }
            #expect(ran == (crashPoint == 0), "kill after \(crashPoint) commits")
            #expect(try store.fetch(Query<DishVersion2>()).map(\.slug).sorted() == ["pea-soup", "sourdough-bread"], "kill after \(crashPoint) commits")
            let backfills = try store.transaction { try $0.unpushedChanges(limit: nil).changes }.filter { $0.author == SchemaMigration.author.storedValue }
            #expect(backfills.count == 2, "kill after \(crashPoint) commits: \(backfills)")
        }
    }

    /// Both devices upgrade offline and fill the same slugs: once both sync, they hold the same
    /// values as the cloud, and neither keeps a conflict. Breaking it (the backfill writing
    /// through a merge that sees both sides' equal values as a conflict): a conflict is recorded.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func twoDevicesBackfillingTheSameValueConvergeWithNoConflict(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesOnVersion1(throughCloudKit: throughCloudKit)
        let newPhone = try Self.upgrade(phone, in: world)
        let newLaptop = try Self.upgrade(laptop, in: world)
        await newPhone.sync()
        await newLaptop.sync()
        await newPhone.sync()
        for device in [newPhone, newLaptop] {
            #expect(try device.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "sourdough-bread", "\(device.name)")
            #expect(try device.store.recentConflicts().isEmpty, "\(device.name)")
        }
        #expect(try Self.cloudSlug(world, "bread") == .string("sourdough-bread"))
    }

    /// The phone upgrades first and Alice changes the bread's slug there; the laptop upgrades
    /// weeks later, before it has synced again, and computes its own slug. Once it syncs it
    /// holds Alice's, and so does the cloud. Breaking it (no yielding: the backfilled value
    /// merged as any edit, the later one winning): the laptop's computed slug overwrites hers.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aDeviceUpgradingLateTakesTheCloudsValue(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesOnVersion1(throughCloudKit: throughCloudKit)
        let newPhone = try await Self.phoneUpgradesAndAliceEditsTheSlug(phone, in: world)

        world.clock.advance(by: 86_400 * 14)
        let newLaptop = try Self.upgrade(laptop, in: world)
        #expect(try newLaptop.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "sourdough-bread", "computed before it synced")
        await newLaptop.sync()
        await newPhone.sync()
        #expect(try newLaptop.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "alices-bread")
        #expect(try newPhone.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "alices-bread")
        #expect(try Self.cloudSlug(world, "bread") == .string("alices-bread"))
        #expect(try newLaptop.store.fetch(DishVersion2.self, recordName: "soup")?.slug == "pea-soup")
    }

    /// The laptop, still on version 1, syncs after the phone filled the slugs: the feed sends only
    /// the keys version 1 reads, so it holds no slug. Updated to a version that reads the slug
    /// (shipped without its backfill), its first pass fetches its zone again from scratch and
    /// learns every slug. When a later version's migration backfills the field, it takes what
    /// the cloud holds for each record, computes nothing and pushes nothing.
    /// Breaking it: the cloud's known value ignored, the computed slug goes up over Alice's; no
    /// fetch from scratch for new keys, the updated laptop reads no slug at all.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aValueTheCloudHoldsIsTakenNotComputed(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesOnVersion1(throughCloudKit: throughCloudKit)
        _ = try await Self.phoneUpgradesAndAliceEditsTheSlug(phone, in: world)
        await laptop.sync()
        let readingSlugs = try world.device(laptop.name, account: "alice", store: Self.storeFile(laptop.name, in: world), models: [DishVersion2.self])
        await readingSlugs.sync()
        #expect(try readingSlugs.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "alices-bread")
        #expect(try readingSlugs.store.fetch(DishVersion2.self, recordName: "soup")?.slug == "pea-soup")

        let newLaptop = try world.device(laptop.name, account: "alice", store: Self.storeFile(laptop.name, in: world), models: [DishVersion2.self])
        var computed: [String] = []
        try newLaptop.store.migrate(toSchemaVersion: 3) { migration in
            try migration.backfill(\DishVersion2.slug) { dish in
                computed.append(dish.recordName)
                return Self.slug(dish)
            }
        }
        #expect(computed.isEmpty)
        #expect(try newLaptop.store.fetch(DishVersion2.self, recordName: "bread")?.slug == "alices-bread")
        #expect(try newLaptop.store.transaction { try $0.hasUnpushedChanges() } == false)
        await newLaptop.sync()
        #expect(try Self.cloudSlug(world, "bread") == .string("alices-bread"))
    }
}

/// A dish as version 1 of the app knew it.
struct DishVersion1: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var title: String = ""
}

extension DishVersion1: SyncModel {
    static let recordType = "Dish"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("title", \Self.title)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}

/// Version 2: `slug: string`, filled from the title by the migration to version 2.
struct DishVersion2: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var title: String = ""
    var slug: String = ""
}

extension DishVersion2: SyncModel {
    static let recordType = "Dish"
    static let syncScopes: Set<DatabaseScope> = [.private]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("title", \Self.title), .field("slug", \Self.slug)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}
