import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
@testable import SyncStorage
import SyncRuntime
@testable import SyncLocalCloud

/// A process can die between any two writes. The phone's store is a file; its pass is cut at
/// every commit it makes in turn (the transaction it dies in rolls back, as SQLite's does), the
/// store is opened again as a restarted app would, and the devices sync: every run must converge
/// with every acknowledged write kept and nothing deleted come back.
///
/// Breaking it: committing a pulled page's server versions in a transaction before the one that
/// writes the models (the shipped T21.1) makes the run cut between the two lose the laptop's
/// body of "merged" for good: the restarted phone believes it has that version and skips it.
@Suite("Engine: a crash at any write of a pass")
struct EngineCrashTests {
    /// Alice's phone (store on file) and laptop, synced; then, offline from each other, both edit.
    /// The phone's next pass has everything to do: merge a concurrent edit, pull a new record and
    /// a deletion over several pages, push a new note with a file, an edit, a deletion and a
    /// publication, and upload the file.
    struct Scenario {
        let world: SyncWorld
        let phone: SyncWorld.Device
        let laptop: SyncWorld.Device
        let storeURL: URL

        static let picture = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0) })

        init() async throws {
            world = try SyncWorld()
            storeURL = world.assetFolder.appendingPathComponent("alice-phone.sqlite")
            let pages = SyncConfiguration(zoneChangesPageSize: 1)
            phone = try world.device("alice-phone", account: "alice", configuration: pages, store: SyncStore(url: storeURL, clock: world.clock))
            laptop = try world.device("alice-laptop", account: "alice")
            try phone.store.save([
                Note(recordName: "merged", title: "Title", body: "Body"),
                Note(recordName: "edited", title: "old"),
                Note(recordName: "deleted-here", title: "doomed"),
                Note(recordName: "deleted-there", title: "doomed too"),
            ])
            await phone.sync()
            await laptop.sync()

            // The laptop: another field of "merged", a new note, a deletion.
            var there = try #require(try laptop.store.fetch(Note.self, recordName: "merged"))
            there.body = "Laptop body"
            try laptop.store.save(there)
            try laptop.store.save(Note(recordName: "new-there", title: "from the laptop"))
            try laptop.store.delete(Note.self, recordName: "deleted-there")
            await laptop.sync()

            // The phone, before it hears of any of it.
            world.clock.advance(by: 1)
            var here = try #require(try phone.store.fetch(Note.self, recordName: "merged"))
            here.title = "Phone title"
            try phone.store.save(here)
            var edited = try #require(try phone.store.fetch(Note.self, recordName: "edited"))
            edited.title = "new"
            try phone.store.save(edited)
            try phone.store.delete(Note.self, recordName: "deleted-here")
            try phone.store.save(Note(recordName: "new-here", title: "from the phone"))
            try await phone.engine.attachAsset(Self.picture, suffix: "jpg", to: \Note.cover, recordName: "new-here")
            try await phone.engine.publish(try #require(try phone.store.fetch(Note.self, recordName: "edited")))
        }

        /// The phone after a restart: the same file, a new store and engine.
        func restartedPhone() throws -> SyncWorld.Device {
            try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(zoneChangesPageSize: 1), store: SyncStore(url: storeURL, clock: world.clock))
        }
    }

    static let expectedTitles = [
        "edited": "new", "merged": "Phone title", "new-here": "from the phone", "new-there": "from the laptop",
    ]

    @Test func aCrashAtEveryWriteOfAPassResumesWithNothingLost() async throws {  // trap: T21.1
        let reference = try await Scenario()
        let before = reference.phone.store.writeCommits
        await reference.phone.sync()
        let writes = reference.phone.store.writeCommits - before
        try await Self.expectConverged(reference, reference.phone, context: "without a crash")
        // Pages of one record, merges, pushes, a publication and an upload: many commit points.
        #expect(writes >= 12, "the pass made only \(writes) writes")

        for crashPoint in 0..<writes {
            let scenario = try await Scenario()
            scenario.phone.store.crash(afterCommits: crashPoint)
            let cut = await scenario.phone.engine.sync()
            #expect(cut != .completed, "crash after \(crashPoint) commits: the pass did not notice")
            let phone = try scenario.restartedPhone()
            await phone.sync()
            await scenario.laptop.sync()
            await phone.sync()
            try await Self.expectConverged(scenario, phone, context: "crash after \(crashPoint) of \(writes) commits")
        }
    }

    /// Both devices and the server agree, with every write the devices acknowledged: the phone's
    /// title and the laptop's body of "merged", both new notes, the phone's edit, neither
    /// deletion undone, the publication and the file.
    static func expectConverged(_ scenario: Scenario, _ phone: SyncWorld.Device, context: String) async throws {
        await scenario.laptop.sync()
        let zone = try scenario.world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
        let server = zone.values.reduce(into: [String: String]()) { titles, record in
            if case .string(let title) = record.fields["title"] { titles[record.id.recordName] = title }
        }
        #expect(server == expectedTitles, "\(context): the server has \(server)")
        for device in [phone, scenario.laptop] {
            let titles = try device.store.fetchAll(Note.self).reduce(into: [String: String]()) { $0[$1.recordName] = $1.title }
            #expect(titles == expectedTitles, "\(context): \(device.name) has \(titles)")
            #expect(try device.store.fetch(Note.self, recordName: "merged")?.body == "Laptop body", "\(context): \(device.name) lost the laptop's body")
            #expect(try !device.store.hasUnpushedChanges(), "\(context): \(device.name) still has changes to push")
        }
        #expect(try await phone.engine.failedChanges().isEmpty, "\(context)")
        #expect(try scenario.world.cloud.snapshot().publicRecords["edited"]?.fields["title"] == .string("new"), "\(context): the publication is missing")
        #expect(zone["new-here"]?.assetContents(.first) != nil, "\(context): the file never reached the cloud")
        #expect(try await phone.engine.assetEntry(for: \Note.cover, recordName: "new-here")?.state == .cached, "\(context)")
    }

    /// Bob (store on file) moves "bread" from his list into Alice's shared one and deletes his
    /// list "old" with its two items, offline; his next pass is cut at every commit it makes. Every
    /// run ends with "bread" once, in Alice's zone, under her list, and nothing of "old" anywhere.
    /// Breaking it: deleting only the copy a move detected by its owner leaves (as the engine
    /// first did) leaves "bread" in both zones in the run cut after the save: the restarted pull
    /// puts the model where the copy landed, so the push sees no move, only the copy left behind.
    @Test func aCrashAtEveryWriteOfAMoveAndADeletionResumesWithNothingLost() async throws {  // trap: T21.13, T21.14
        func scenario() async throws -> (world: SyncWorld, alice: SyncWorld.Device, bob: SyncWorld.Device, restart: () throws -> SyncWorld.Device) {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("bob-phone.sqlite")
            let alice = try world.device("alice-phone", account: "alice")
            let bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock))
            try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
            try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
            try bob.store.save([SharedList(recordName: "mine", title: "Mine"), SharedList(recordName: "old", title: "Old")])
            try bob.store.save([
                ListItem(recordName: "bread", parent: RecordReference(recordName: "mine"), text: "Bread", assignee: .unset),
                ListItem(recordName: "y1", parent: RecordReference(recordName: "old"), assignee: .unset),
                ListItem(recordName: "y2", parent: RecordReference(recordName: "old"), assignee: .unset),
            ])
            await alice.sync()
            await bob.sync()
            let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
            let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
            try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
            await bob.sync()
            var bread = try #require(try bob.store.fetch(ListItem.self, recordName: "bread"))
            bread.parent = RecordReference(recordName: "groceries")
            try bob.store.save(bread)
            try bob.store.delete(SharedList.self, recordName: "old")
            return (world, alice, bob, { try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock)) })
        }
        func expectConverged(_ world: SyncWorld, _ devices: [SyncWorld.Device], context: String) throws {
            let snapshot = try world.cloud.snapshot()
            let aliceZone = snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
            let bobZone = snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
            #expect(aliceZone.keys.sorted() == ["groceries", "milk", "bread"].sorted(), "\(context): Alice's zone has \(aliceZone.keys.sorted())")
            #expect(aliceZone["bread"]?.parentRecordName == "groceries", "\(context)")
            #expect(bobZone.keys.sorted() == ["mine"], "\(context): Bob's zone has \(bobZone.keys.sorted())")
            for device in devices {
                let items = try device.store.fetchAll(ListItem.self).map(\.recordName).sorted()
                #expect(items == ["bread", "milk"], "\(context): \(device.name) has \(items)")
                #expect(try device.store.fetch(ListItem.self, recordName: "bread")?.parent?.recordName == "groceries", "\(context): \(device.name)")
                #expect(try !device.store.hasUnpushedChanges(), "\(context): \(device.name) still has changes to push")
            }
        }

        let reference = try await scenario()
        let before = reference.bob.store.writeCommits
        await reference.bob.sync()
        let writes = reference.bob.store.writeCommits - before
        await reference.alice.sync()
        try expectConverged(reference.world, [reference.alice, reference.bob], context: "without a crash")
        #expect(writes >= 4, "the pass made only \(writes) writes")

        for crashPoint in 0..<writes {
            let run = try await scenario()
            run.bob.store.crash(afterCommits: crashPoint)
            #expect(await run.bob.engine.sync() != .completed, "crash after \(crashPoint) commits: the pass did not notice")
            let bob = try run.restart()
            await bob.sync()
            await run.alice.sync()
            await bob.sync()
            try expectConverged(run.world, [run.alice, bob], context: "crash after \(crashPoint) of \(writes) commits")
        }
    }
}
