import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// The user's data in the cloud as a whole: reset with their encrypted data, deleted by them in
/// Settings, or deleted by the app on their word.
@Suite("Engine: zone resets and the user's data in the cloud")
struct EngineZoneResetTests {
    static let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName)

    static func aliceZone(_ world: SyncWorld) throws -> LocalCloudSnapshot.Zone? {
        try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")
    }

    /// An encrypted data reset takes the zone and its encrypted values; the devices still hold
    /// them, so the zone is created again and everything uploaded again, with an event (Apple's
    /// advice for `encryptedDataReset`: "consider re-uploading locally-cached data"). Breaking
    /// it: treating the reason like any other leaves the zone gone and the lists' pins lost.
    @Test func anEncryptedDataResetRebuildsTheZoneAndUploadsEverythingAgain() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "list", title: "Groceries", pin: "1234"))
        try phone.store.save(Note(recordName: "n", title: "Hello"))
        await world.syncAll()
        try world.cloud.resetEncryptedData(ofAccount: "alice")
        let events = phone.recordEvents()
        await phone.sync()
        #expect(await events.events().contains(.encryptedDataReset(Self.zone)))
        let zone = try #require(try Self.aliceZone(world))
        #expect(zone.state == "live" && zone.records.keys.sorted() == ["list", "n"])
        #expect(zone.records["list"]?.encryptedFields["pin"] == .string("1234"))
        // The laptop learns of the reset too, and converges.
        await laptop.sync()
        await phone.sync()
        #expect(try laptop.store.fetch(SharedList.self, recordName: "list")?.pin == "1234")
        #expect(try laptop.store.fetchAll(Note.self).map(\.recordName) == ["n"])
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["list", "n"])
    }

    /// The reset happens between the database's changes (which name the zone as changed) and
    /// the zone's: CloudKit answers the zone fetch with `zoneNotFound` and
    /// `CKErrorUserDidResetEncryptedDataKey` (Apple: CloudKit adds the key "when the error code
    /// is zoneNotFound" and "a user action causes CloudKit to delete a record zone"). The engine
    /// takes the reset's path: the event, the zone again, every record up again. Breaking it:
    /// reading that `zoneNotFound` as a plain deletion, as the pull did: no event, and the user is
    /// never told their data was reset.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aResetMetByTheZoneFetchTakesTheResetsPath(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try phone.store.save(SharedList(recordName: "list", title: "Groceries", pin: "1234"))
        await world.syncAll()
        try laptop.store.save(Note(recordName: "n", title: "Hello"))
        await laptop.sync()
        let reset = Once()
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.before[.fetchZoneChanges] = {
                guard reset.first() else { return }
                try? cloud.resetEncryptedData(ofAccount: "alice")
            }
        }
        let events = phone.recordEvents()
        _ = await phone.engine.sync()
        #expect(await events.events().contains(.encryptedDataReset(Self.zone)))
        await phone.sync()
        let zone = try #require(try Self.aliceZone(world))
        #expect(zone.state == "live" && zone.records["list"]?.encryptedFields["pin"] == .string("1234"))
    }

    /// The re-upload after a reset is queued with the loss, not held by the pass: when the pass
    /// that learned of the reset fails before the records are up (here the first upload is
    /// refused, then the network goes), the next pass puts every record back, even those nobody
    /// edits again. Breaking it: keeping the zones to rebuild in the pass's memory (as before)
    /// leaves "a" and "b" out of the cloud for good.
    @Test func aResetWhoseReuploadIsCutOffIsCompletedByTheNextPass() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save([Note(recordName: "a"), Note(recordName: "b")])
        await phone.sync()
        try world.cloud.resetEncryptedData(ofAccount: "alice")
        world.cloud.inject(ScriptedFault(CloudError(.serviceUnavailable, retryAfter: 1), on: .modify, account: "alice"))
        #expect(await phone.engine.sync() != .completed)
        #expect(try Self.aliceZone(world)?.records.isEmpty != false)
        // Even across a sign-out: what is queued is parked with the account's changes.
        try world.cloud.signIn("alice-phone", account: nil)
        _ = await phone.engine.sync()
        try world.cloud.signIn("alice-phone", account: "alice")
        world.clock.advance(by: 1)
        await phone.sync()
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["a", "b"])
    }

    /// The same when a push finds the zone gone (another client deleted it and no pull saw it):
    /// every record of it is queued at once, so a pass cut off after the zone was created again
    /// loses none of them.
    @Test func aZoneAPushFindsGoneIsRefilledEvenWhenThePassIsCutOff() async throws {  // trap: T2.1
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save([Note(recordName: "a"), Note(recordName: "b")])
        await phone.sync()
        let other = try world.cloud.device("script", account: "alice")
        try await other.deleteZones([Self.zone])
        try phone.store.save(Note(recordName: "c"))
        // The pass pushes "c", finds the zone gone, creates it, and then loses the network.
        let cut = Once()
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.after[.saveZones] = { if cut.first() { cloud.setNetworkAvailable(false, for: "alice-phone") } }
        }
        _ = await phone.engine.sync()
        phone.gateway.hooks.withLock { $0.after = [:] }
        world.cloud.setNetworkAvailable(true, for: "alice-phone")
        world.clock.advance(by: 300)
        await phone.sync()
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["a", "b", "c"])
    }

    /// After the user deleted the data in Settings, nothing goes up by itself, not even what the
    /// app writes afterwards; when the user wants it back, every local record goes up again.
    /// Breaking it: pushing into the purged zone fails every pass, or (the shipped T20.6)
    /// uploads again silently.
    @Test func afterTheUserDeletedTheDataItIsUploadedAgainWhenTheAppAsks() async throws {  // trap: T20.6
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "a"))
        await phone.sync()
        try world.cloud.purgeZone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        let events = phone.recordEvents()
        await phone.sync()
        #expect(await events.events().contains(.userDeletedZone(Self.zone)))
        try phone.store.save(Note(recordName: "b"))
        #expect(await phone.engine.sync() == .completed)
        #expect(try Self.aliceZone(world)?.state == "purged")
        #expect(try await phone.engine.userDeletedZones() == [Self.zone])
        #expect(try !phone.store.hasUnpushedChanges())

        try await phone.engine.uploadAgainAfterUserDeletedZone()
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["a", "b"])
        #expect(try await phone.engine.userDeletedZones().isEmpty)
        // Syncing on as before.
        try phone.store.save(Note(recordName: "c"))
        await phone.sync()
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["a", "b", "c"])
    }

    /// Or the user meant it: this device's copy goes too, and what the app writes next syncs into
    /// a new, empty zone.
    @Test func afterTheUserDeletedTheDataTheLocalCopyCanGoToo() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save([Note(recordName: "a"), Note(recordName: "b")])
        await phone.sync()
        try world.cloud.purgeZone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")
        await phone.sync()
        try await phone.engine.removeLocalDataOfUserDeletedZone()
        #expect(try phone.store.fetchAll(Note.self).isEmpty)
        #expect(try await phone.engine.userDeletedZones().isEmpty)
        try phone.store.save(Note(recordName: "fresh"))
        await phone.sync()
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["fresh"])
    }

    /// "Delete all my data": every record of the user's zone and every public record they created
    /// goes from the cloud, and from every device: this one, the user's laptop, the participant
    /// of a shared list, a catalog reader. A note the laptop created and never uploaded stays and
    /// goes up afterwards (nothing unsynced is lost). Another user's public record stays.
    @Test func deletingAllCloudDataReachesEveryDevice() async throws {
        let world = try SyncWorld()
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        let reader = try world.device("reader", account: "carol")
        try phone.store.save([Note(recordName: "n1", title: "one"), Note(recordName: "n2", title: "two")])
        try phone.store.save(SharedList(recordName: "list", title: "Groceries"))
        try phone.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "list"), text: "Milk", assignee: .unset))
        await phone.sync()
        try await phone.engine.publish(try #require(try phone.store.fetch(Note.self, recordName: "n1")))
        try bob.store.save(PublishedNote(recordName: "bobs-post", title: "Bob's"))
        let share = try await phone.engine.share(try #require(try phone.store.fetch(SharedList.self, recordName: "list")), inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()
        await world.syncAll()
        #expect(try bob.store.fetch(ListItem.self, recordName: "milk") != nil)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "n1") != nil)
        try laptop.store.save(Note(recordName: "laptop-offline", title: "not uploaded yet"))

        let deleted = try await phone.engine.deleteAllCloudData()
        #expect(deleted == 6)  // 2 notes, the list, its item, its share, the publication
        #expect(try Self.aliceZone(world)?.records.isEmpty == true)
        #expect(try world.cloud.snapshot().publicRecords.keys.sorted() == ["bobs-post"])
        #expect(try phone.store.fetchAll(Note.self).isEmpty && phone.store.fetchAll(SharedList.self).isEmpty)
        #expect(try phone.store.fetchAll(PublishedNote.self).map(\.recordName) == ["bobs-post"])

        await world.syncAll()
        await reader.receivePushes()
        #expect(try laptop.store.fetchAll(Note.self).map(\.recordName) == ["laptop-offline"])
        #expect(try laptop.store.fetchAll(ListItem.self).isEmpty)
        #expect(try bob.store.fetchAll(SharedList.self).isEmpty && bob.store.fetchAll(ListItem.self).isEmpty)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "n1") == nil)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "bobs-post") != nil)
        #expect(try Self.aliceZone(world)?.records.keys.sorted() == ["laptop-offline"])
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["laptop-offline"])
    }
}
