import Foundation
import GeneratedCoverage
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@_spi(SyncgenGenerated) import SyncCore
import SyncRuntime

/// Natural keys through engines and the cloud: the coverage schema's `Household`
/// (`unique: [[name], [code, partner]]`, `tags` a union) with its child `Chore`. Devices that each
/// create "Home" offline end with one household, the same on every device and in the cloud.
@Suite("Engine: natural keys")
struct EngineNaturalKeyTests {
    static let models: [any SyncModel.Type] = [Household.self, Chore.self]

    static func devices(_ names: [String]) throws -> (SyncWorld, [SyncWorld.Device]) {
        let world = try SyncWorld()
        return (world, try names.map { try world.device($0, account: "alice", models: models) })
    }

    static func households(on device: SyncWorld.Device) throws -> [Household] {
        try device.store.fetchAll(Household.self, sortedBy: { $0.recordName < $1.recordName })
    }

    /// Every device, and the cloud, hold exactly the households named; every other household in
    /// the cloud is a copy marked merged (`syncgenMergedInto`), which no device shows, into one of
    /// them sharing its name (through the marks of its survivors), or into one deleted since.
    static func expectEverywhere(_ names: [String], _ world: SyncWorld, _ devices: [SyncWorld.Device], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for device in devices {
            #expect(try households(on: device).map(\.recordName) == names, "\(device.name)", sourceLocation: sourceLocation)
        }
        let cloud = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records.values.filter { $0.recordType == "Household" } ?? []
        #expect(cloud.filter { $0.mergedInto == nil }.map(\.id.recordName).sorted() == names, "the cloud", sourceLocation: sourceLocation)
        let byName = Dictionary(uniqueKeysWithValues: cloud.map { ($0.id.recordName, $0) })
        for copy in cloud where copy.mergedInto != nil {
            var survivor = copy
            while let next = survivor.mergedInto, let record = byName[next] { survivor = record }
            #expect(survivor.mergedInto != nil || survivor.fields["name"] == copy.fields["name"], "\(copy.id.recordName) is marked merged into \(survivor.id.recordName), another name", sourceLocation: sourceLocation)
        }
    }

    /// The phone and the laptop each make "Home" offline, each with a chore, and the phone a
    /// "Cabin" whose partner is its "Home": after they sync, one "Home" (the smaller name) holds
    /// both tags and both chores, the partner points at it, and the other is gone everywhere.
    /// Breaking it (no merging after the pull) leaves two homes on every device.
    @Test func copiesMadeOfflineOnTwoDevicesBecomeOne() async throws {
        let (world, devices) = try Self.devices(["alice-laptop", "alice-phone"])
        let (laptop, phone) = (devices[0], devices[1])
        try phone.store.save(Household(recordName: "home-phone", name: "Home", tags: ["garden"], visits: 5))
        try phone.store.save(Chore(recordName: "water", parent: RecordReference(recordName: "home-phone"), title: "Water plants"))
        try phone.store.save(Household(recordName: "cabin", name: "Cabin", partner: RecordReference(recordName: "home-phone"), members: [RecordReference(recordName: "home-phone")]))
        try laptop.store.save(Household(recordName: "home-laptop", name: "Home", tags: ["attic"], visits: 2))
        try laptop.store.save(Chore(recordName: "dust", parent: RecordReference(recordName: "home-laptop"), title: "Dust"))
        let events = phone.recordEvents()
        await laptop.sync()
        await phone.sync()   // merges its copy into the laptop's ("home-laptop" < "home-phone")
        await laptop.sync()
        await phone.sync()
        try Self.expectEverywhere(["cabin", "home-laptop"], world, devices)
        for device in devices {
            let home = try #require(try device.store.fetch(Household.self, recordName: "home-laptop"))
            #expect(Set(home.tags) == ["garden", "attic"] && home.visits == 5, "\(device.name): \(home)")
            let chores = try device.store.fetchAll(Chore.self)
            #expect(Set(chores.map(\.recordName)) == ["water", "dust"] && chores.allSatisfy { $0.parent?.recordName == "home-laptop" }, "\(device.name)")
            let cabin = try #require(try device.store.fetch(Household.self, recordName: "cabin"))
            #expect(cabin.partner?.recordName == "home-laptop" && cabin.members.map(\.recordName) == ["home-laptop"], "\(device.name)")
        }
        #expect(await events.events().contains(.duplicatesMerged(RecordKey("Household", "home-laptop"), merged: ["home-phone"])))
    }

    /// Under lastWriterWins, a copy made later that never set an optional field does not erase
    /// the value the user typed in the other: a field nobody set is nobody's edit. Both ways: the
    /// survivor's value stays against a newer empty copy, and a copy's value fills the
    /// survivor's empty field. Breaking it (issue 57): the newer copy's emptiness wins, and 42
    /// vanishes into `duplicatesMerged`.
    @Test func aNeverSetOptionalDoesNotBeatATypedValue() async throws {
        let world = try SyncWorld()
        let newest = SyncConfiguration(conflictPolicies: ["Household": .lastWriterWins])
        let laptop = try world.device("alice-laptop", account: "alice", configuration: newest, models: Self.models)
        let phone = try world.device("alice-phone", account: "alice", configuration: newest, models: Self.models)
        try laptop.store.save(Household(recordName: "home-laptop", name: "Home", code: 42))
        try laptop.store.save(Household(recordName: "cabin-laptop", name: "Cabin"))
        world.clock.advance(by: 60)
        try phone.store.save(Household(recordName: "home-phone", name: "Home"))
        try phone.store.save(Household(recordName: "cabin-phone", name: "Cabin", code: 7))
        await laptop.sync()
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        try Self.expectEverywhere(["cabin-laptop", "home-laptop"], world, [laptop, phone])
        for device in [laptop, phone] {
            #expect(try device.store.fetch(Household.self, recordName: "home-laptop")?.code == 42, "\(device.name)")
            #expect(try device.store.fetch(Household.self, recordName: "cabin-laptop")?.code == 7, "\(device.name)")
        }
    }

    /// Three devices, three copies, heard in different orders: the same survivor everywhere.
    @Test func threeCopiesConvergeWhateverTheOrder() async throws {
        let (world, devices) = try Self.devices(["alice-laptop", "alice-phone", "alice-tablet"])
        for (device, name) in zip(devices, ["c-home", "a-home", "b-home"]) {
            try device.store.save(Household(recordName: name, name: "Home", tags: [device.name]))
        }
        await devices[2].sync()
        await devices[0].sync()
        await devices[1].sync()
        await world.syncAll()
        try Self.expectEverywhere(["a-home"], world, devices)
        for device in devices {
            #expect(Set(try #require(try device.store.fetch(Household.self, recordName: "a-home")).tags) == Set(devices.map(\.name)), "\(device.name)")
        }
    }

    /// The tablet adds a tag to its "Home" while the laptop, which has heard of it, merges it into
    /// its own: when the tablet hears that its copy was deleted, its edit goes into the survivor
    /// (only what it changed: the tag it added), not away with the deletion. Breaking it (the
    /// deletion applied alone, as for any record) loses "porch".
    @Test func anEditOfACopyMergedAwayElsewhereGoesToTheSurvivor() async throws {
        let (world, devices) = try Self.devices(["alice-laptop", "alice-tablet"])
        let (laptop, tablet) = (devices[0], devices[1])
        try tablet.store.save(Household(recordName: "b", name: "Home", tags: ["garden"]))
        await tablet.sync()
        try laptop.store.save(Household(recordName: "a", name: "Home", tags: ["attic"]))
        await laptop.sync()  // hears of "b", merges it into "a", deletes it
        var copy = try #require(try tablet.store.fetch(Household.self, recordName: "b"))
        copy.tags.append("porch")
        try tablet.store.save(copy)
        await tablet.sync()
        await laptop.sync()
        try Self.expectEverywhere(["a"], world, devices)
        for device in devices {
            #expect(Set(try #require(try device.store.fetch(Household.self, recordName: "a")).tags) == ["attic", "garden", "porch"], "\(device.name)")
        }
        // The cloud, whole: the survivor with every tag; the copy kept, marked merged into it,
        // as its last version before the merge (the tablet's edit went to the survivor).
        try world.expectCloud(is: "a-copy-edited-after-the-merge")
    }

    /// The laptop, holding "a" (`attic`), hears of the tablet's "b" (`tags`) and merges it into
    /// "a"; before the laptop's `request`th modify request goes out, the tablet edits "b" and
    /// syncs. Then every device syncs twice; returns the tags of "a" on each device, after
    /// checking that "a" is the one household everywhere and no change is set aside.
    static func tagsAfterAnEditDuringTheMerge(
        throughCloudKit: Bool, tags: [String], beforeRequest request: Int, edit: @escaping @Sendable (inout [String]) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Set<String>] {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        let tablet = try world.device("alice-tablet", account: "alice", models: Self.models)
        try tablet.store.save(Household(recordName: "b", name: "Home", tags: tags))
        await tablet.sync()
        try laptop.store.save(Household(recordName: "a", name: "Home", tags: ["attic"]))
        let (tabletStore, tabletEngine, modifies) = (tablet.store, tablet.engine, Locked(0))
        laptop.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard modifies.withLock({ count in count += 1; return count }) == request else { return }
                var copy = try! tabletStore.fetch(Household.self, recordName: "b")!
                edit(&copy.tags)
                try! tabletStore.save(copy)
                #expect(await tabletEngine.sync() == .completed, sourceLocation: sourceLocation)
            }
        }
        await laptop.sync()
        laptop.gateway.hooks.withLock { $0.before[.modify] = nil }
        await world.syncAll()
        await world.syncAll()
        try Self.expectEverywhere(["a"], world, [laptop, tablet], sourceLocation: sourceLocation)
        var result: [Set<String>] = []
        for device in [laptop, tablet] {
            #expect(try await device.engine.failedChanges().isEmpty, "\(device.name)", sourceLocation: sourceLocation)
            result.append(Set(try #require(try device.store.fetch(Household.self, recordName: "a"), sourceLocation: sourceLocation).tags))
        }
        return result
    }

    /// The window between a merge and the copy's retirement: the laptop hears of the tablet's
    /// "b", merges it into its "a", and before its first request (the retirement) goes out the
    /// tablet (which never heard of "a") adds "eggs" to "b" and the cloud acknowledges it. The
    /// laptop must not retire a version it has not merged: its conditional mark of "b" (saved
    /// with "a" holding "b") meets the tablet's version, takes it, and marks it in the next
    /// round, so "eggs" reaches "a" on every device (T21.19). Breaking it: deleting the copy
    /// unconditionally, as the merge once did, deletes "eggs".
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anEditAcknowledgedWhileACopyIsMergedReachesTheSurvivor(throughCloudKit: Bool) async throws {  // trap: T21.19
        let tags = try await Self.tagsAfterAnEditDuringTheMerge(throughCloudKit: throughCloudKit, tags: ["garden"], beforeRequest: 1) { $0.append("eggs") }
        #expect(tags == [["attic", "garden", "eggs"], ["attic", "garden", "eggs"]])
    }

    /// After the mark: the laptop has marked "b" merged into "a" (and saved "a" holding "b"), and
    /// before its push the tablet (which holds "b" only) adds "eggs" to "b". The tablet's pull
    /// brings the mark and "a" with it: "eggs" goes to "a", and "b" is never saved again
    /// (T21.19). Breaking it: the tablet saving "b" over the mark, where no device looks, or the
    /// mark saved apart from "a" (the laptop's merge of the whole "b" going up after).
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anEditAfterTheMarkReachesTheSurvivor(throughCloudKit: Bool) async throws {  // trap: T21.19
        let tags = try await Self.tagsAfterAnEditDuringTheMerge(throughCloudKit: throughCloudKit, tags: ["garden"], beforeRequest: 2) { $0.append("eggs") }
        #expect(tags == [["attic", "garden", "eggs"], ["attic", "garden", "eggs"]])
    }

    /// A removal after the mark stays removed: the laptop marks "b" into "a" (saved holding "b"
    /// whole, "shed" with it), and before its push the tablet, still holding "b", removes "shed"
    /// from it. The tablet's change goes to "a" only once "a" holds "b", so the removal is one of
    /// "a": "shed" is on no device in the end (T21.19). Breaking it: saving the mark apart from
    /// "a" (the laptop's merge of the whole "b" going up after, as it once did) brings "shed"
    /// back.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRemovalAfterTheMarkStaysRemoved(throughCloudKit: Bool) async throws {  // trap: T21.19
        let tags = try await Self.tagsAfterAnEditDuringTheMerge(throughCloudKit: throughCloudKit, tags: ["garden", "shed"], beforeRequest: 2) { $0.removeAll { $0 == "shed" } }
        #expect(tags == [["attic", "garden"], ["attic", "garden"]])
    }

    /// A save of a copy the store knows as marked merged is set aside while its request is built,
    /// and left out of it (another record goes): the push reads no answer for it, so the pass
    /// completes and names no failure, the change waiting for the survivor. Breaking it (the results read for every item
    /// of the chunk, as they once were): the copy comes back as "no result", a failure that ends
    /// every push, and the token never moves.
    @Test func aCopyMarkedMergedIsSetAsideAndNotReadAsUnanswered() async throws {
        let (_, devices) = try Self.devices(["alice-tablet"])
        let tablet = devices[0]
        try tablet.store.save(Household(recordName: "b", name: "Home", tags: ["garden"]))
        #expect(await tablet.sync() == .completed)
        var marked = try #require(try tablet.store.serverRecord(RecordID(recordName: "b", zoneID: ZoneID(zoneName: SyncConstants.defaultSyncZoneName))))
        marked.fields[RecordFieldNames.mergedInto] = .string("a")
        try tablet.store.sqliteTransaction { try $0.setServerRecord(marked) }
        try tablet.store.save(Household(recordName: "b", name: "Home", tags: ["garden", "eggs"]))
        try tablet.store.save(Household(recordName: "c", name: "Cabin"))
        let events = tablet.recordEvents()
        #expect(await tablet.sync() == .completed)
        #expect(try await tablet.engine.failedChanges().map(\.recordName) == ["b"])
        #expect(try !tablet.store.hasUnpushedChanges())
        #expect(!events.collectedNow().contains { if case .pushFailed = $0 { true } else { false } })
    }

    /// A copy marked into a survivor a user deleted since goes with it: the laptop marks "b" into
    /// "a" and deletes "a"; the tablet, which heard of neither, has made a chore under "b". Its
    /// pull brings the mark and the deletion: "b" and the chore go, as the records under a
    /// deleted record do, and no household or chore is left anywhere. Breaking it (keeping a
    /// marked copy whose survivor is gone) leaves "b" on the tablet alone, a household no other
    /// device shows.
    @Test func aCopyMarkedIntoADeletedSurvivorGoesWithIt() async throws {
        let (world, devices) = try Self.devices(["alice-laptop", "alice-tablet"])
        let (laptop, tablet) = (devices[0], devices[1])
        try tablet.store.save(Household(recordName: "b", name: "Home", tags: ["garden"]))
        await tablet.sync()
        try laptop.store.save(Household(recordName: "a", name: "Home", tags: ["attic"]))
        await laptop.sync()
        try laptop.store.delete(Household.self, recordName: "a")
        await laptop.sync()
        try tablet.store.save(Chore(recordName: "mop", parent: RecordReference(recordName: "b"), title: "Mop"))
        await world.syncAll()
        await world.syncAll()
        try Self.expectEverywhere([], world, devices)
        for device in devices {
            #expect(try device.store.fetchAll(Chore.self).isEmpty, "\(device.name)")
            #expect(try await device.engine.failedChanges().isEmpty, "\(device.name)")
        }
        // The cloud, whole: the copy's mark, and no chore.
        try world.expectCloud(is: "a-copy-marked-into-a-deleted-survivor")
    }

    /// A key with an empty or missing value is no key: households without a name, or whose
    /// second key lacks its partner, are never one (trap T16.5). Breaking it (grouping a nil or
    /// empty value) merges the two unnamed households into one.
    @Test func recordsWithoutAKeyValueAreNeverGrouped() async throws {  // trap: T16.5
        let (world, devices) = try Self.devices(["alice-laptop", "alice-phone"])
        try devices[0].store.save(Household(recordName: "one", name: "", code: 7))
        try devices[1].store.save(Household(recordName: "two", name: "", code: 7))
        await world.syncAll()
        try Self.expectEverywhere(["one", "two"], world, devices)
        // The app may write them too: nothing is refused without a whole key.
        try devices[0].store.save(Household(recordName: "three", name: "", code: 7))
    }

    /// The app's own write never makes a duplicate: the store refuses it, and says which record
    /// has the key. The same name in someone else's zone is another record.
    @Test func theStoreRefusesALocalDuplicate() throws {
        let store = try SyncStore(url: nil)
        try store.save(Household(recordName: "home", name: "Home", code: 1, partner: RecordReference(recordName: "x")))
        #expect(throws: DuplicateNaturalKey(recordType: "Household", recordName: "other", key: ["name"], existingRecordName: "home")) {
            try store.save(Household(recordName: "other", name: "Home"))
        }
        #expect(throws: DuplicateNaturalKey(recordType: "Household", recordName: "other", key: ["code", "partner"], existingRecordName: "home")) {
            try store.save(Household(recordName: "other", name: "Other", code: 1, partner: RecordReference(recordName: "x")))
        }
        try store.save(Household(recordName: "home", name: "Home", code: 2))  // the record itself, edited
        try store.save(Household(recordName: "bobs", ownerName: "_bob", name: "Home"))
        #expect(try store.count(Household.self) == 2)
        let message = DuplicateNaturalKey(recordType: "Household", recordName: "other", key: ["name"], existingRecordName: "home").description
        #expect(message.contains("'other'") && message.contains("'home'") && message.contains("name"))
    }

    /// The merge, its moves and deletions, and the end of the check commit together, and so does
    /// each retirement's answer: a crash at any write of the pass that merges leaves, after a
    /// restart and a pass, one home with both chores, everywhere. `copyInCloud`: the copy the
    /// merging device takes in ("b", the phone's) is in the cloud first, so it is retired (its
    /// mark and "a" holding it saved at once), else it merges at once.
    @Test(arguments: [false, true])
    func aCrashAtEveryWriteOfTheMergingPassResumesWithOneRecord(copyInCloud: Bool) async throws {
        let merger = copyInCloud ? "alice-laptop" : "alice-phone"
        func scenario() async throws -> (world: SyncWorld, other: SyncWorld.Device, merger: SyncWorld.Device, restart: () throws -> SyncWorld.Device) {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("\(merger).sqlite")
            let devices = try ["alice-laptop", "alice-phone"].map { name in
                try world.device(name, account: "alice", store: name == merger ? SyncStore(url: url, clock: world.clock) : SyncStore(url: nil, clock: world.clock), models: Self.models)
            }
            let (laptop, phone) = (devices[0], devices[1])
            try laptop.store.save(Household(recordName: "a", name: "Home", tags: ["attic"]))
            try laptop.store.save(Chore(recordName: "dust", parent: RecordReference(recordName: "a"), title: "Dust"))
            try phone.store.save(Household(recordName: "b", name: "Home", tags: ["garden"]))
            try phone.store.save(Chore(recordName: "water", parent: RecordReference(recordName: "b"), title: "Water"))
            let other = copyInCloud ? phone : laptop
            await other.sync()
            let restart = { try world.device(merger, account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models) }
            return (world, other, copyInCloud ? laptop : phone, restart)
        }
        let reference = try await scenario()
        let before = reference.merger.store.writeCommits
        await reference.merger.sync()
        let writes = reference.merger.store.writeCommits - before
        // The cloud, whole: one home with both chores, and the copy retired into it when the
        // cloud had it.
        try reference.world.expectCloud(is: copyInCloud ? "a-merge-retiring-the-copy" : "a-merge-of-a-copy-the-cloud-never-had")
        for crashPoint in 0..<writes {
            let run = try await scenario()
            run.merger.store.crash(afterCommits: crashPoint)
            #expect(await run.merger.engine.sync() != .completed, "crash after \(crashPoint) commits: the pass did not notice")
            let merger = try run.restart()
            await merger.sync()
            await run.other.sync()
            await merger.sync()
            await run.other.sync()
            try Self.expectEverywhere(["a"], run.world, [run.other, merger])
            for device in [run.other, merger] {
                #expect(Set(try device.store.fetchAll(Chore.self).map { "\($0.recordName)>\($0.parent?.recordName ?? "")" }) == ["dust>a", "water>a"], "crash after \(crashPoint) of \(writes): \(device.name)")
                #expect(Set(try #require(try device.store.fetch(Household.self, recordName: "a")).tags) == ["attic", "garden"], "crash after \(crashPoint) of \(writes): \(device.name)")
            }
        }
    }

    /// A store that held duplicates before the key existed (an app version without it) merges
    /// them at the first pass of the version that has it.
    @Test func aKeyNewToAStoreMergesWhatItHolds() async throws {
        let world = try SyncWorld()
        let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
        let before = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: [HouseholdVersion1.self])
        try before.store.save([HouseholdVersion1(recordName: "b", name: "Home"), HouseholdVersion1(recordName: "a", name: "Home")])
        await before.sync()
        let phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        await phone.sync()
        try Self.expectEverywhere(["a"], world, [phone])
    }
}

/// `Household` as an app version before `unique` knew it: its name only.
struct HouseholdVersion1: Sendable, Hashable {
    var recordName: String
    var ownerName: String = SyncConstants.currentUserOwnerName
    var name: String = ""
}

extension HouseholdVersion1: SyncModel {
    static let recordType = "Household"
    static let syncScopes: Set<DatabaseScope> = [.private, .shared]
    static let parentRecordType: String? = nil
    static var childTypes: [any SyncModel.Type] { [] }
    static let _syncFields = ModelFields<Self>(
        [.field("name", \Self.name)],
        tombstone: [TombstoneKeyPath("recordName", \Self.recordName), TombstoneKeyPath("ownerName", \Self.ownerName)],
        empty: { Self(recordName: $0, ownerName: $1) })

    var parentRecordName: String? { nil }
}
