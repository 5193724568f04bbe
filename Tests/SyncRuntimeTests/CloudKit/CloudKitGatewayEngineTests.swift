// Tests of the CloudKit gateway over its stand-in, which exists only where CloudKit does not: on
// Apple platforms the gateway talks to CloudKit itself (docs/CloudKit.md).
#if !canImport(CloudKit)
import CloudKitGateway
import CloudKitStandIn
import Foundation
import SyncLocalCloud
import SyncRuntime
import Testing

/// The engine with every device going through the CloudKit gateway over the stand-in: the path
/// an app on Apple platforms takes to iCloud, down to LocalCloud here. (CI also runs every engine
/// suite this way, `SYNCGEN_THROUGH_CLOUDKIT=1`; these run in every `swift test`.)
@Suite("CloudKit gateway: the engine through CloudKit's API")
struct CloudKitGatewayEngineTests {
    /// Two devices of one account: a note made on the phone reaches the laptop, the laptop's
    /// edit reaches the phone (a save over the version CloudKit's system fields name), and
    /// concurrent edits of two fields merge. Breaking it: saves rebuilt without their system
    /// fields are new records to CloudKit and conflict forever.
    @Test func twoDevicesSyncEditAndMergeThroughCloudKit() async throws {
        let world = try SyncWorld(throughCloudKit: true)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Milk", body: "2 litres"))
        await phone.sync()
        await laptop.sync()
        var note = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "Milk")
        note.title = "Oat milk"
        try laptop.store.save(note)
        await laptop.sync()
        await phone.sync()
        #expect(try phone.store.fetch(Note.self, recordName: "n")?.title == "Oat milk")
        // Concurrent edits of two fields: both kept, on both devices.
        var onPhone = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        onPhone.body = "1 litre"
        try phone.store.save(onPhone)
        var onLaptop = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        onLaptop.title = "Almond milk"
        try laptop.store.save(onLaptop)
        await phone.sync()
        await laptop.sync()
        await phone.sync()
        for device in [phone, laptop] {
            let merged = try #require(try device.store.fetch(Note.self, recordName: "n"))
            #expect(merged.title == "Almond milk" && merged.body == "1 litre", "\(device.name)")
        }
        #expect(try !phone.store.hasUnpushedChanges() && !laptop.store.hasUnpushedChanges())
    }

    /// Two devices conflict on one record through CloudKit: the phone pushes between the
    /// laptop's pull and its push, so the laptop's save meets `serverRecordChanged`, which
    /// CloudKit's atomic `modifyRecords` throws with each item's error inside: as
    /// `partialFailure`, as `batchRequestFailed`, or under the failing item's own code (Apple's
    /// async page names no code; `CKError.h` says `partialFailure` is not returned from the newer
    /// result blocks; the stand-in's default is the item's own code). The gateway unpacks it item
    /// by item whatever its code, the engine merges onto the server's record in the same pass,
    /// and both edits are kept. Breaking it: the gateway unpacking only a `partialFailure`
    /// (T21.28), or none (T21.16): the push fails the same way on every pass while the laptop's
    /// edit never lands.
    @Test(arguments: [StandInAtomicFailure.partialFailure, .batchRequestFailed, .failingItemsCode])
    func aConflictThatCloudKitThrowsIsMerged(as code: StandInAtomicFailure) async throws {  // trap: T21.16, T21.28
        let world = try SyncWorld(throughCloudKit: true)
        world.atomicFailure = code
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "Milk", body: "2 litres"))
        await phone.sync()
        await laptop.sync()
        var onPhone = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        onPhone.title = "Oat milk"
        try phone.store.save(onPhone)
        var onLaptop = try #require(try laptop.store.fetch(Note.self, recordName: "n"))
        onLaptop.body = "1 litre"
        try laptop.store.save(onLaptop)
        Self.syncs(phone, beforeTheFirstSaveOf: laptop)
        let events = laptop.recordEvents()
        await laptop.sync()
        #expect(await events.events().contains { if case .conflictResolved = $0 { true } else { false } })
        await phone.sync()
        for device in [phone, laptop] {
            let merged = try #require(try device.store.fetch(Note.self, recordName: "n"))
            #expect(merged.title == "Oat milk" && merged.body == "1 litre", "\(device.name)")
        }
        #expect(try !phone.store.hasUnpushedChanges() && !laptop.store.hasUnpushedChanges())
    }

    /// `phone` syncs once, right before `laptop`'s first save request: between the laptop's pull
    /// and its push, so what the laptop saves of a record the phone changed is over a stale
    /// version.
    private static func syncs(_ phone: SyncWorld.Device, beforeTheFirstSaveOf laptop: SyncWorld.Device) {
        let between = Once()
        let phoneEngine = phone.engine
        laptop.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard between.first() else { return }
                _ = await phoneEngine.sync()
            }
        }
    }

    /// An atomic save that fails naming no item (Apple's async `modifyRecords` "throws an error"
    /// and promises no map of the items' errors): the engine halves the chunk until each part
    /// settles its own items, as it does a request too large. The note that did not conflict
    /// lands in the same pass, the one that did, alone and still unexplained, is set aside where
    /// the app sees it, and the next pass sends nothing. Breaking it (the whole error thrown on,
    /// as before issue 57): every pass fails the whole chunk and "Bread" never reaches the phone.
    @Test func anAtomicFailureNamingNoItemIsSettledItemByItem() async throws {
        let world = try SyncWorld(throughCloudKit: true)
        world.atomicFailure = .partialFailureNamingNoItem
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save([Note(recordName: "n1", title: "Milk"), Note(recordName: "n2", title: "Eggs")])
        await phone.sync()
        await laptop.sync()
        var onPhone = try #require(try phone.store.fetch(Note.self, recordName: "n1"))
        onPhone.title = "Oat milk"
        try phone.store.save(onPhone)
        Self.syncs(phone, beforeTheFirstSaveOf: laptop)
        var first = try #require(try laptop.store.fetch(Note.self, recordName: "n1"))
        first.body = "1 litre"
        var second = try #require(try laptop.store.fetch(Note.self, recordName: "n2"))
        second.title = "Bread"
        try laptop.store.save([first, second])
        let events = laptop.recordEvents()
        let sent = laptop.gateway.modifies.count
        _ = await laptop.engine.sync()
        await phone.sync()
        #expect(try phone.store.fetch(Note.self, recordName: "n2")?.title == "Bread")
        #expect(await events.events().contains { if case .changeSetAside(let change) = $0 { change.recordName == "n1" } else { false } })
        #expect(try await laptop.engine.failedChanges().map(\.recordName) == ["n1"])
        let afterFirst = laptop.gateway.modifies.count
        #expect(afterFirst > sent)
        await laptop.sync()
        #expect(laptop.gateway.modifies.count == afterFirst, "nothing is sent again")
    }

    /// The engine checks the account before every page, chunk and download; through CloudKit
    /// the user record is asked of the server once a pass (with the account's status), and
    /// again after the system's `CKAccountChanged` (Apple, `Notification.Name.CKAccountChanged`:
    /// posted "when the user's iCloud account changes"), so a switch in the middle of a pass is
    /// still seen at the next check. Breaking it: `userRecordID()` asked before each of those
    /// checks, as the gateway did: a request per page, chunk and download.
    @Test func theUserRecordIsAskedOncePerAccount() async throws {
        let world = try SyncWorld(throughCloudKit: true)
        let phone = try world.device("alice-phone", account: "alice", configuration: { var configuration = SyncConfiguration(); configuration.zoneChangesPageSize = 2; return configuration }())
        let laptop = try world.device("alice-laptop", account: "alice")
        try laptop.store.save((0..<6).map { Note(recordName: "n\($0)", title: "\($0)") })
        await laptop.sync()
        let before = try world.cloud.counters()["requests.userRecordID"] ?? 0
        await phone.sync()
        #expect(try phone.store.count(Note.self) == 6)
        #expect(try world.cloud.counters()["requests.userRecordID"] ?? 0 == before + 1)
        // Bob signs in while the phone's pull waits for its second page: the next check asks
        // again, sees Bob, and the pass writes nothing more for Alice.
        let signedIn = Once()
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.before[.fetchZoneChanges] = {
                guard signedIn.first() else { return }
                try? cloud.signIn("alice-phone", account: "bob")
            }
        }
        try laptop.store.save(Note(recordName: "n9", title: "9"))
        await laptop.sync()
        let beforeSwitch = try world.cloud.counters()["requests.userRecordID"] ?? 0
        let events = phone.recordEvents()
        _ = await phone.engine.sync()
        #expect(try world.cloud.counters()["requests.userRecordID"] ?? 0 == beforeSwitch + 2)
        #expect(try phone.store.fetch(Note.self, recordName: "n9") == nil)
        await phone.sync()
        #expect(await events.events().contains(.accountChanged(.switched(from: "_alice", to: "_bob"))))
        #expect(try phone.store.count(Note.self) == 0)
    }

    /// The app setup of docs/CloudKit.md, run here: an engine over the container an app names
    /// (`CKContainer(identifier:)`) syncs, and a second container of that identifier is another
    /// device of the same account, while another identifier is another cloud. Breaking it: a
    /// container per call over a fresh cloud, and the laptop never sees the phone's note.
    @Test func theContainerAnAppNamesSyncs() async throws {
        let identifier = "iCloud.com.example.notes.\(UUID().uuidString)"
        let phoneStore = try SyncStore(url: nil)
        let phone = SyncEngine(store: phoneStore, cloud: CloudKitGateway(container: CKContainer(identifier: identifier)), schema: SyncSchema.self)
        try phoneStore.save(Note(recordName: "n", title: "Milk"))
        #expect(await phone.sync() == .completed)
        let laptopStore = try SyncStore(url: nil)
        let laptop = SyncEngine(store: laptopStore, cloud: CloudKitGateway(container: CKContainer(identifier: identifier)), schema: SyncSchema.self)
        #expect(await laptop.sync() == .completed)
        #expect(try laptopStore.fetch(Note.self, recordName: "n")?.title == "Milk")
        let elsewhereStore = try SyncStore(url: nil)
        let elsewhere = SyncEngine(store: elsewhereStore, cloud: CloudKitGateway(container: CKContainer(identifier: identifier + ".other")), schema: SyncSchema.self)
        #expect(await elsewhere.sync() == .completed)
        #expect(try elsewhereStore.fetch(Note.self, recordName: "n") == nil)
    }

    /// The system hands an app the metadata of a tapped link (`userDidAcceptCloudKitShareWith`);
    /// the gateway turns it into the engine's, which accepts from CloudKit's archive of it.
    @Test func metadataTheSystemHandsOverIsAccepted() async throws {
        let world = try SyncWorld(throughCloudKit: true)
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readOnly)])
        // What the system would hand Bob's app: CloudKit's metadata of the link.
        let fromSystem = try await CKContainer(device: try world.cloud.device("bob-phone", account: "bob")).shareMetadata(for: try #require(share.url))
        try await bob.engine.acceptShare(try CloudKitGateway.shareMetadata(fromSystem))
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).map(\.recordName) == ["groceries"])
    }

    /// The system's sharing sheet works on the `CKShare` the gateway hands over for a root: one
    /// made for a root never shared (asked twice, still one), then changed by the sheet itself,
    /// which saves to CloudKit directly. Each change reaches the owner's store at the next pass:
    /// Bob invited by the sheet, then sharing stopped by it, after which the root is shared again
    /// with nothing left over. Breaking it (a share's changes in the zone's feed not kept): Alice's
    /// store never hears of Bob.
    @Test func whatTheSystemSharingSheetChangesReachesTheStore() async throws {
        let world = try SyncWorld(throughCloudKit: true)
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
        await alice.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let prepared = try await alice.engine.shareForSystemSharing(root)
        #expect(prepared.participants.map(\.role) == [.owner] && prepared.title == "Groceries")
        #expect(try await alice.engine.shareForSystemSharing(root).id == prepared.id)
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.shares.count == 1)

        // The sheet: Bob added, read-write, saved by the sheet to the private database.
        let gateway = try #require(alice.gateway.wrapped as? CloudKitGateway)
        let container = gateway.cloudContainer
        let sheetShare = try await gateway.systemShare(for: prepared)
        let person = try await container.shareParticipant(forUserRecordID: CKRecord.ID(recordName: "_bob"))
        person.permission = .readWrite
        sheetShare.addParticipant(person)
        _ = try await container.privateCloudDatabase.modifyRecords(saving: [sheetShare], deleting: [])
        await alice.sync()
        let invited = try #require(try alice.store.knownShare(of: root))
        #expect(invited.participant(named: "_bob")?.acceptanceStatus == .pending)
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: invited, ownerAccount: "alice"))
        await bob.sync()
        #expect(try bob.store.fetchAll(ListItem.self).map(\.recordName) == ["milk"])

        // The sheet: sharing stopped.
        _ = try await container.privateCloudDatabase.modifyRecords(saving: [], deleting: [sheetShare.recordID])
        await alice.sync()
        #expect(try alice.store.knownShare(of: root) == nil)
        await bob.sync()
        #expect(try bob.store.fetchAll(SharedList.self).isEmpty)
        let again = try await alice.engine.shareForSystemSharing(root)
        #expect(again.participants.map(\.role) == [.owner])
        #expect(try alice.store.fetchAll(ListItem.self).map(\.recordName) == ["milk"])
    }
}
#endif
