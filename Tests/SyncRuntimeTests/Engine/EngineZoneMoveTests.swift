import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Every record of a zone moved into another at run time (`SyncEngine.moveZone(_:into:)`), as
/// seed 004's household app moves a person's zone into the household's when they start sharing:
/// the move is marked in both zones, the records are saved in the target and their old copies
/// deleted, and every device of the account routes the zone's models to the target from then on.
/// Each test runs through LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: a zone's records moved into another")
struct EngineZoneMoveTests {
    static let models = EngineZonesTests.models
    static let personal = "Personal"
    static let household = "Household"

    /// The records of a zone in the cloud, by record type (markers included).
    static func records(in zone: String, of world: SyncWorld, account: String = "alice") throws -> [String: [String]] {
        let records = try world.cloud.snapshot().zone(zone, ofAccount: account)?.records.values ?? [:].values
        return Dictionary(grouping: records, by: \.recordType).mapValues { $0.map(\.id.recordName).sorted() }
    }

    /// Alice's phone and laptop, both holding the diaries "monday" and "tuesday" of the personal
    /// zone, synced.
    static func twoDevicesHoldingTwoDiaries(throughCloudKit: Bool) async throws -> (SyncWorld, SyncWorld.Device, SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        for name in ["monday", "tuesday"] { try phone.store.save(Diary(recordName: name, text: "Day \(name)")) }
        await phone.sync()
        await laptop.sync()
        return (world, phone, laptop)
    }

    /// The phone moves the personal zone into a new household zone. The laptop, which edited a
    /// diary offline before it heard of the move, sees a move: its edit lands in the household
    /// zone and nothing is lost or deleted; an iPad that first syncs after the move holds each
    /// diary once; and each device's new diaries go to the household zone. The personal zone
    /// keeps only the marker that tells late devices where its records went.
    /// Breaking it (the pull not learning markers): the laptop takes the copies' deletions as
    /// deletions, its edit is announced lost, and its diaries are gone.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aZoneMovesIntoANewZoneOnEveryDevice(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        for name in ["monday", "tuesday", "wednesday"] { try phone.store.save(Diary(recordName: name, text: "Day \(name)")) }
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await phone.sync()
        await laptop.sync()
        var edited = try #require(try laptop.store.fetch(Diary.self, recordName: "monday"))
        edited.text = "Edited on the laptop before it heard of the move"
        try laptop.store.save(edited)
        let phoneEvents = phone.recordEvents()
        let laptopEvents = laptop.recordEvents()

        try await phone.engine.moveZone(Self.personal, into: Self.household)
        #expect(await phone.sync() == .completed)
        #expect(try Self.records(in: Self.personal, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday", "wednesday"])
        #expect(phoneEvents.collectedNow().contains(.zoneMoved(ZoneID(zoneName: Self.personal), into: ZoneID(zoneName: Self.household))))
        #expect(try phone.engine.diagnostics().zones.first { $0.zoneName == Self.personal }?.movedInto == Self.household)

        #expect(await laptop.sync() == .completed)
        #expect(await phone.sync() == .completed)
        let lost = laptopEvents.collectedNow().filter {
            if case .changeLostToDeletion = $0 { return true }
            if case .removedWithParent = $0 { return true }
            return false
        }
        #expect(lost.isEmpty, "the laptop saw deletions: \(lost)")
        #expect(try laptop.store.fetchAll(Diary.self).map(\.recordName).sorted() == ["monday", "tuesday", "wednesday"])
        #expect(try phone.store.fetch(Diary.self, recordName: "monday")?.text == "Edited on the laptop before it heard of the move")
        #expect(try Self.records(in: Self.personal, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])

        let ipad = try world.device("alice-ipad", account: "alice", models: Self.models)
        #expect(await ipad.sync() == .completed)
        #expect(try ipad.store.fetchAll(Diary.self).map(\.recordName).sorted() == ["monday", "tuesday", "wednesday"])
        try ipad.store.save(Diary(recordName: "thursday", text: "Written on the iPad"))
        try laptop.store.save(Diary(recordName: "friday", text: "Written on the laptop"))
        await ipad.sync()
        await laptop.sync()
        await phone.sync()
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["friday", "monday", "thursday", "tuesday", "wednesday"])
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == nil)
        #expect(try phone.store.fetchAll(Diary.self).count == 5)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["groceries"] != nil, "the other zone stays")
    }

    /// A diary deleted here before the move's pass, and one edited: the deletion takes the copy
    /// in the zone moved out of (the only one the cloud has), and the edit goes to the target.
    /// Breaking it (the copies of a record with no parent not looked up): the deletion goes to the
    /// household zone alone, and "tuesday" stays in the personal zone for good.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aChangeWaitingWhenTheZoneMovesGoesWhereTheRecordIs(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        for name in ["monday", "tuesday"] { try phone.store.save(Diary(recordName: name, text: "Day \(name)")) }
        await phone.sync()
        try phone.store.delete(try #require(try phone.store.fetch(Diary.self, recordName: "tuesday")))
        try phone.store.save(Diary(recordName: "monday", text: "Edited before the move went up"))
        try await phone.engine.moveZone(Self.personal, into: Self.household)
        #expect(await phone.sync() == .completed)
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == nil)
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday"])
        #expect(try world.cloud.snapshot().zone(Self.household, ofAccount: "alice")?.records["monday"]?.fields["text"] == .string("Edited before the move went up"))
    }

    /// The laptop learns of the move before the phone's pass carries it out, and deletes a diary:
    /// its deletion reaches the copy in the personal zone, the only one there is. The phone, which
    /// hears of a copy deleted in the zone that moved without having seen it in the household
    /// zone, looks it up there, finds nothing, and deletes it too; a copy the move deleted, whose
    /// moved copy the phone has not read yet, is found and kept. Breaking it (every deletion in a
    /// zone that moved taken for the move's): "tuesday" stays on the phone, and nowhere else.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRecordDeletedAfterTheMoveWasLearnedIsDeletedEverywhere(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesHoldingTwoDiaries(throughCloudKit: throughCloudKit)
        try await phone.engine.moveZone(Self.personal, into: Self.household)
        await laptop.sync()
        try laptop.store.delete(try #require(try laptop.store.fetch(Diary.self, recordName: "tuesday")))
        await laptop.sync()
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == ["monday"], "the laptop's deletion took the only copy")
        let phoneEvents = phone.recordEvents()
        await phone.sync()
        await phone.sync()
        #expect(try phone.store.fetchAll(Diary.self).map(\.recordName) == ["monday"])
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday"])
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == nil)
        #expect(!phoneEvents.collectedNow().contains { if case .changeLostToDeletion = $0 { true } else { false } })

        // The laptop hears of "monday"'s old copy deleted before it reads the household zone:
        // it looks the record up there and keeps it.
        laptop.gateway.hooks.withLock { $0.zoneFailure = { $0.zoneName == Self.household ? CloudError(.internalError, "the server failed on this zone") : nil } }
        _ = await laptop.engine.sync()
        #expect(try laptop.store.fetch(Diary.self, recordName: "monday")?.text == "Day monday")
        laptop.gateway.hooks.withLock { $0.zoneFailure = nil }
        #expect(await laptop.sync() == .completed)
        #expect(try laptop.store.fetchAll(Diary.self).map(\.recordName) == ["monday"])
    }

    /// Seed 004's household switch whole: Alice's lists move out of the app's sync zone into a
    /// household zone, which she then shares whole. Bob, who learns the move from the marker in
    /// the zone shared with him, sends his edit of a list to the household zone. Breaking it (a
    /// marker in a shared zone not learned): Bob's edit goes to Alice's sync zone, which he
    /// cannot write, and never reaches her.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theHouseholdSwitchMovesThenSharesTheZone(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice", models: Self.models)
        let bob = try world.device("bob-phone", account: "bob", models: Self.models)
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
        try alice.store.save(Diary(recordName: "monday", text: "Mine alone"))
        await alice.sync()
        try await alice.engine.moveZone(nil, into: Self.household)
        #expect(await alice.sync() == .completed)
        // Each old copy is sealed, then deleted: the item's seal names its list, whose copy is
        // still there.
        #expect(try Self.records(in: SyncConstants.defaultSyncZoneName, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])
        #expect(try Self.records(in: Self.household, of: world)["ListItem"] == ["milk"])
        let share = try await alice.engine.shareZone(title: "Home", inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)], zone: Self.household)
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()
        var list = try #require(try bob.store.fetch(SharedList.self, recordName: "groceries"))
        #expect(try bob.store.fetchAll(Diary.self).isEmpty, "the personal zone is not shared")
        list.title = "Groceries for the week"
        try bob.store.save(list)
        #expect(await bob.sync() == .completed)
        await alice.sync()
        #expect(try alice.store.fetch(SharedList.self, recordName: "groceries")?.title == "Groceries for the week")
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk")?.text == "Milk")
        #expect(try Self.records(in: Self.household, of: world)["SharedList"] == ["groceries"])
        #expect(try Self.records(in: SyncConstants.defaultSyncZoneName, of: world)["SharedList"] == nil)
    }

    /// The phone saves a diary into the personal zone after the laptop's move was marked and done,
    /// because it had not read either zone since (its reads failed; the soak met it as a pull that
    /// came just before the markers and a push just after). The phone, which then learns the move
    /// with its own diary, and the laptop, which meets the diary in the zone it emptied, each move
    /// it: it ends once, in the household zone, on both devices. Found by the notes soak under
    /// kill -9 (`alice's journal moved into Household, and 1 entries stay in Personal`).
    /// Breaking it (a record saved into a zone that moved away taken as it is, unmoved):
    /// "thursday" stays in the personal zone for good, read by no device that shares the
    /// household.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRecordSavedIntoTheZoneAfterItMovedIsMovedToo(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesHoldingTwoDiaries(throughCloudKit: throughCloudKit)
        try await laptop.engine.moveZone(Self.personal, into: Self.household)
        #expect(await laptop.sync() == .completed)
        #expect(try Self.records(in: Self.personal, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])

        phone.gateway.hooks.withLock { $0.zoneFailure = { _ in CloudError(.internalError, "the server failed on this zone") } }
        try phone.store.save(Diary(recordName: "thursday", text: "Written before the phone heard of the move"))
        _ = await phone.engine.sync()
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == ["thursday"], "the phone's push went where it knew the diary lives")
        phone.gateway.hooks.withLock { $0.zoneFailure = nil }

        let phoneEvents = phone.recordEvents()
        #expect(await phone.sync() == .completed)
        #expect(await laptop.sync() == .completed)
        #expect(await phone.sync() == .completed)
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "thursday", "tuesday"])
        #expect(try Self.records(in: Self.personal, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])
        for device in [phone, laptop] {
            #expect(try device.store.fetchAll(Diary.self).map(\.recordName).sorted() == ["monday", "thursday", "tuesday"], "\(device.name)")
        }
        #expect(try laptop.store.fetch(Diary.self, recordName: "thursday")?.text == "Written before the phone heard of the move")
        #expect(!phoneEvents.collectedNow().contains { if case .changeLostToDeletion = $0 { true } else { false } })
    }

    /// The moments of the laptop's pass that moves the personal zone, by the requests it has sent:
    /// 0, after its pull; 1, after sealing the old copies; 2, after saving them in the household
    /// zone; 3, after sealing them again; 4, after deleting them.
    static let momentsOfTheMove = [0, 1, 2, 3, 4]

    /// Alice's phone and laptop hold "monday" and "tuesday"; the laptop begins moving the personal
    /// zone, and its pass carries the move out. The phone, which reads no zone meanwhile (it
    /// knows no move), makes `change` and pushes it into the personal zone once the laptop's pass
    /// has sent `requests` requests. Then both sync until settled.
    static func moveWhileThePhoneChanges(
        throughCloudKit: Bool, afterLaptopRequests requests: Int, _ change: (SyncWorld.Device) throws -> Void
    ) async throws -> (world: SyncWorld, phone: SyncWorld.Device, laptop: SyncWorld.Device, phoneEvents: EventRecorder) {
        let (world, phone, laptop) = try await Self.twoDevicesHoldingTwoDiaries(throughCloudKit: throughCloudKit)
        try await laptop.engine.moveZone(Self.personal, into: Self.household)

        phone.gateway.hooks.withLock { $0.zoneFailure = { _ in CloudError(.internalError, "the server failed on this zone") } }
        try change(phone)
        let (phoneEngine, sent) = (phone.engine, Locked(0))
        laptop.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard sent.withLock({ $0 += 1; return $0 }) == requests + 1 else { return }
                _ = await phoneEngine.sync()
            }
        }
        _ = await laptop.engine.sync()
        laptop.gateway.hooks.withLock { $0.before[.modify] = nil }
        if sent.withLock({ $0 }) <= requests { _ = await phone.engine.sync() }
        phone.gateway.hooks.withLock { $0.zoneFailure = nil }

        let phoneEvents = phone.recordEvents()
        for _ in 0..<2 {
            #expect(await phone.sync() == .completed)
            #expect(await laptop.sync() == .completed)
        }
        #expect(try Self.records(in: Self.personal, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])
        return (world, phone, laptop, phoneEvents)
    }

    /// Once sealed, the copy the laptop keeps is the record as the cloud has it: its values (the
    /// seal's answer carries only the key it sent) under the seal's version. It is what the
    /// merge of the record's first version in the target starts from. Breaking it (the answer
    /// kept as it came): the copy kept holds no text, and a merge against it takes every field
    /// for changed on both sides.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aSealedCopyKeepsItsValues(throughCloudKit: Bool) async throws {
        let (_, _, laptop) = try await Self.twoDevicesHoldingTwoDiaries(throughCloudKit: throughCloudKit)
        try await laptop.engine.moveZone(Self.personal, into: Self.household)
        let (store, kept, sent) = (laptop.store, Locked<SyncRecord?>(nil), Locked(0))
        // Before the second request (the moved save): the seal's answer has landed.
        laptop.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard sent.withLock({ $0 += 1; return $0 }) == 2 else { return }
                let copy = try? store.transaction { try $0.serverRecord(RecordID(recordName: "monday", zoneID: ZoneID(zoneName: Self.personal))) }
                kept.withLock { $0 = copy ?? nil }
            }
        }
        #expect(await laptop.sync() == .completed)
        let copy = try #require(kept.withLock { $0 })
        #expect(copy.fields["text"] == .string("Day monday"))
        #expect(ZoneMoves.sealer(of: copy) != nil)
    }

    /// The phone edits a diary it read before the move and pushes the edit into the personal zone
    /// at each moment of the laptop's move. Before the first seal, or after it and before the
    /// second, the laptop's seal meets the edit and merges it into the moved diary; after a seal,
    /// the phone's push meets it, reads the zone's marker and sends the edit to the household
    /// zone; after the deletion, the phone's push finds the copy gone, and does the same. The edit
    /// ends in the household diary every time, on both devices. Found by the notes soak under
    /// kill -9 (`should be 'r14s1', and is 'r11s27'`). Breaking it (the copies deleted unsealed,
    /// as before): the edit pushed after the moved save is deleted with the old copy; (no marker
    /// read when a push fails): the phone's edit after a seal lands on the sealed copy and the
    /// deletion takes it, and after the deletion the phone takes it for the diary's deletion.
    @Test(arguments: SyncWorld.cloudKitPaths, momentsOfTheMove)
    func anEditPushedIntoTheZoneWhileItMovesReachesTheMovedRecord(throughCloudKit: Bool, afterLaptopRequests requests: Int) async throws {
        let edit = "Edited on the phone while the laptop moved it"
        let (world, phone, laptop, phoneEvents) = try await Self.moveWhileThePhoneChanges(throughCloudKit: throughCloudKit, afterLaptopRequests: requests) { phone in
            var edited = try #require(try phone.store.fetch(Diary.self, recordName: "monday"))
            edited.text = edit
            try phone.store.save(edited)
        }
        #expect(try world.cloud.snapshot().zone(Self.household, ofAccount: "alice")?.records["monday"]?.fields["text"] == .string(edit))
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday"])
        for device in [phone, laptop] {
            #expect(try device.store.fetch(Diary.self, recordName: "monday")?.text == edit, "\(device.name)")
            #expect(try device.store.fetchAll(Diary.self).count == 2, "\(device.name)")
        }
        #expect(!phoneEvents.collectedNow().contains { if case .changeLostToDeletion = $0 { true } else { false } })
    }

    /// The phone deletes a diary it read before the move, at each moment of the laptop's move:
    /// the deletion wins, on both devices and in the cloud. Before the first seal, the laptop's
    /// seal finds the copy gone and looks it up in the household zone, where it is not; after
    /// the deletion of the old copies, the phone's deletion finds the copy gone, reads the zone's
    /// marker and deletes the moved diary.
    @Test(arguments: SyncWorld.cloudKitPaths, momentsOfTheMove)
    func aDeletionPushedIntoTheZoneWhileItMovesWins(throughCloudKit: Bool, afterLaptopRequests requests: Int) async throws {
        let (world, phone, laptop, _) = try await Self.moveWhileThePhoneChanges(throughCloudKit: throughCloudKit, afterLaptopRequests: requests) { phone in
            try phone.store.delete(try #require(try phone.store.fetch(Diary.self, recordName: "monday")))
        }
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["tuesday"])
        for device in [phone, laptop] {
            #expect(try device.store.fetchAll(Diary.self).map(\.recordName) == ["tuesday"], "\(device.name)")
        }
    }

    /// The move outlives the engine: a phone opened again after the move routes a new diary to
    /// the household zone, read from the store's state. Breaking it (the moves not loaded when the
    /// engine starts): the new diary goes to the personal zone.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aMoveIsKeptAcrossLaunches(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
        var phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        await phone.sync()
        try await phone.engine.moveZone(Self.personal, into: Self.household)
        await phone.sync()
        phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        try phone.store.save(Diary(recordName: "tuesday", text: "Slept badly"))
        #expect(await phone.sync() == .completed)
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday"])
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == nil)
    }

    /// The phone is killed after each write of a move (its begin, its markers, each page of the
    /// push, each copy removed), opened again, and synced: every run ends with each diary once in
    /// the cloud, in the household zone, on the phone and on the laptop. Breaking it (the move
    /// begun kept only in memory, or the records queued only when the move begins): a kill after
    /// the markers leaves the diaries in the personal zone.
    @Test func aKillAtEveryWriteOfAMoveEndsWithEachRecordOnce() async throws {
        func run(crashingAfter crashPoint: Int?) async throws -> Int {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
            var phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
            for name in ["monday", "tuesday", "wednesday"] { try phone.store.save(Diary(recordName: name, text: "Day \(name)")) }
            await phone.sync()
            await laptop.sync()
            let before = phone.store.writeCommits
            if let crashPoint { phone.store.crash(afterCommits: crashPoint) }
            do {
                try await phone.engine.moveZone(Self.personal, into: Self.household)
                _ = await phone.engine.sync()
            } catch {}
            let writes = phone.store.writeCommits - before
            if crashPoint != nil {
                phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
                let zone = ZoneID(zoneName: Self.personal)
                let noted = try phone.store.transaction {
                    try $0.state(SyncStateKeys.zoneMoveBegun(zone)) != nil || $0.state(SyncStateKeys.zoneMoved(zone, .private)) != nil
                }
                // Killed before the move was noted, its call failed: the app asks again. Noted,
                // the passes go on with it alone.
                if !noted { try await phone.engine.moveZone(Self.personal, into: Self.household) }
            }
            await phone.sync()
            await phone.sync()
            await laptop.sync()
            let context = "kill after \(crashPoint.map(String.init) ?? "no") commits"
            #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday", "wednesday"], "\(context)")
            #expect(try Self.records(in: Self.personal, of: world)["Diary"] == nil, "\(context)")
            for device in [phone, laptop] {
                #expect(try device.store.fetchAll(Diary.self).map(\.recordName).sorted() == ["monday", "tuesday", "wednesday"], "\(context): \(device.name)")
            }
            return writes
        }
        let writes = try await run(crashingAfter: nil)
        #expect(writes >= 4, "the move made only \(writes) writes")
        for crashPoint in 0..<writes { _ = try await run(crashingAfter: crashPoint) }
    }

    /// The laptop's pass moves the diaries, then loses the network before removing the old
    /// copies it sealed. The phone, which knows no move, deletes "monday" in the personal zone.
    /// The laptop's next pull meets that deletion before its removal runs: a copy it sealed and
    /// never deleted itself, so the user's deletion, and the moved diary goes too. Breaking it
    /// (every deletion in a zone that moved taken for the move's): "monday" stays in the
    /// household zone, undeleted. The laptop's removal request never left (network gone), so it
    /// must forget the deletions it noted before sending; breaking that (the notes kept) fails the
    /// same way: the user's deletion is taken for the laptop's own.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aSealedCopyDeletedBeforeItsRemovalTakesTheMovedRecord(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.twoDevicesHoldingTwoDiaries(throughCloudKit: throughCloudKit)
        try await laptop.engine.moveZone(Self.personal, into: Self.household)
        let (cloud, sent) = (world.cloud, Locked(0))
        laptop.gateway.hooks.withLock {
            $0.after[.modify] = { if sent.withLock({ $0 += 1; return $0 }) == 2 { cloud.setNetworkAvailable(false, for: "alice-laptop") } }
        }
        _ = await laptop.engine.sync()
        laptop.gateway.hooks.withLock { $0.after[.modify] = nil }
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday"], "moved, not removed")
        #expect(try Self.records(in: Self.personal, of: world)["Diary"] == ["monday", "tuesday"])

        phone.gateway.hooks.withLock { $0.zoneFailure = { _ in CloudError(.internalError, "the server failed on this zone") } }
        try phone.store.delete(try #require(try phone.store.fetch(Diary.self, recordName: "monday")))
        _ = await phone.engine.sync()
        phone.gateway.hooks.withLock { $0.zoneFailure = nil }
        world.cloud.setNetworkAvailable(true, for: "alice-laptop")
        for _ in 0..<2 {
            #expect(await laptop.sync() == .completed)
            #expect(await phone.sync() == .completed)
        }
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["tuesday"])
        #expect(try Self.records(in: Self.personal, of: world) == ["SyncgenZoneMove": ["syncgen.zoneMove"]])
        for device in [phone, laptop] {
            #expect(try device.store.fetchAll(Diary.self).map(\.recordName) == ["tuesday"], "\(device.name)")
        }
    }

    /// The phone is killed after each write of the pass that moves the zone, and opened again with
    /// the personal zone unreadable for its next pass: its removal of the old copies, not the
    /// pull, meets the copies it deleted itself before the kill. Each is known as its own deletion
    /// (noted before the request went), never taken for the user's: every diary stays. Breaking
    /// it (a copy found gone after this device's seal always taken for the user's deletion): a
    /// kill after the deletion request deletes the moved diaries too.
    @Test func aCopyThisDeviceDeletedBeforeAKillIsNotTakenForTheUsers() async throws {
        func run(crashingAfter crashPoint: Int?) async throws -> Int {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
            var phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            for name in ["monday", "tuesday"] { try phone.store.save(Diary(recordName: name, text: "Day \(name)")) }
            await phone.sync()
            try await phone.engine.moveZone(Self.personal, into: Self.household)
            let before = phone.store.writeCommits
            if let crashPoint { phone.store.crash(afterCommits: crashPoint) }
            _ = await phone.engine.sync()
            let writes = phone.store.writeCommits - before
            if crashPoint != nil {
                phone = try world.device("alice-phone", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
            }
            phone.gateway.hooks.withLock { $0.zoneFailure = { $0.zoneName == Self.personal ? CloudError(.internalError, "the server failed on this zone") : nil } }
            _ = await phone.engine.sync()
            phone.gateway.hooks.withLock { $0.zoneFailure = nil }
            await phone.sync()
            let context = "kill after \(crashPoint.map(String.init) ?? "no") commits"
            #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday"], "\(context)")
            #expect(try Self.records(in: Self.personal, of: world)["Diary"] == nil, "\(context)")
            #expect(try phone.store.fetchAll(Diary.self).map(\.recordName).sorted() == ["monday", "tuesday"], "\(context)")
            return writes
        }
        let writes = try await run(crashingAfter: nil)
        for crashPoint in 0..<writes { _ = try await run(crashingAfter: crashPoint) }
    }

    /// Two devices move one zone at once, into different zones: the first claim stands, the
    /// second device's call says so and follows it. Breaking it (the claim saved over another):
    /// the laptop's target wins on its side, and the diaries end in two zones.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func twoDevicesMovingOneZoneAgreeOnOneTarget(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        let laptop = try world.device("alice-laptop", account: "alice", models: Self.models)
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        await phone.sync()
        await laptop.sync()
        try await phone.engine.moveZone(Self.personal, into: Self.household)
        await #expect(throws: SyncError.self) { try await laptop.engine.moveZone(Self.personal, into: "Elsewhere") }
        try laptop.store.save(Diary(recordName: "tuesday", text: "Slept badly"))
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        #expect(try Self.records(in: Self.household, of: world)["Diary"] == ["monday", "tuesday"])
        #expect(try Self.records(in: "Elsewhere", of: world)["Diary"] == nil)
        #expect(try phone.store.fetchAll(Diary.self).count == 2)
    }

    /// What cannot move is refused before anything is sent, naming why: a zone name CloudKit
    /// refuses, a zone no model lives in, a zone into itself, a zone moved already, a target that
    /// moved away, and a zone holding a share.
    @Test func aMoveThatCannotBeMadeIsRefusedBeforeAnythingIsSent() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice", models: Self.models)
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await phone.sync()
        _ = try await phone.engine.shareZone(title: "Home")
        func refusal(_ zone: String?, _ target: String) async -> String {
            do {
                try await phone.engine.moveZone(zone, into: target)
                return "moved"
            } catch {
                return "\(error)"
            }
        }
        let before = phone.gateway.modifies.count
        #expect(await refusal(Self.personal, "_defaultZone").contains("underscore"))
        #expect(await refusal("Nowhere", Self.household).contains("no model of this app lives in zone 'Nowhere'"))
        #expect(await refusal(Self.personal, Self.personal).contains("cannot move into itself"))
        #expect(await refusal(nil, Self.household).contains("holds a share"))
        #expect(phone.gateway.modifies.count == before, "a refused move sent nothing")
        try await phone.engine.moveZone(Self.personal, into: Self.household)
        #expect(await refusal(Self.personal, "Elsewhere").contains("moved into 'Household' already"))
        #expect(await refusal(Self.household, Self.personal).contains("a zone moved away takes no records"))
    }
}
