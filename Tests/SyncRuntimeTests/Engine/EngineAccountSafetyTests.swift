import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// One account's data never reaches another, and signing out never destroys work: what an
/// account had not pushed waits for it, and a pass that outlives its account writes nothing more.
@Suite("Engine: accounts signing out, in and over")
struct EngineAccountSafetyTests {
    static let cover = Data((0..<700).map { UInt8(truncatingIfNeeded: $0 * 7) })

    static func aliceZone(_ world: SyncWorld) throws -> [String: SyncRecord] {
        try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records ?? [:]
    }

    static func bobZone(_ world: SyncWorld) throws -> [String: SyncRecord] {
        try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
    }

    /// Alice edits, creates (with a file) and deletes offline, then signs out; Bob uses the
    /// phone; Alice signs in again. Her changes wait for her, unseen by Bob and never uploaded
    /// for him, and go up when she is back. Breaking it: purging the store on sign-out without
    /// parking (the shipped T21.4) loses all four changes.
    @Test func signingOutParksUnpushedWorkAndSigningBackInRestoresIt() async throws {  // trap: T21.4, T20.4
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save([Note(recordName: "edited", title: "old"), Note(recordName: "deleted", title: "doomed")])
        await phone.sync()
        world.cloud.setNetworkAvailable(false, for: "phone")
        var edited = try #require(try phone.store.fetch(Note.self, recordName: "edited"))
        edited.title = "new"
        try phone.store.save(edited)
        try phone.store.delete(Note.self, recordName: "deleted")
        try phone.store.save(Note(recordName: "created", title: "offline"))
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: \Note.cover, recordName: "created")
        world.cloud.setNetworkAvailable(true, for: "phone")

        try world.cloud.signIn("phone", account: nil)
        let events = phone.recordEvents()
        await phone.sync()
        #expect(await events.events().contains(.changesParked(ParkedChanges(userRecordName: "_alice", count: 3))))
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 3)])
        #expect(try phone.store.fetchAll(Note.self).isEmpty)
        #expect(try Self.aliceZone(world)["edited"]?.fields["title"] == .string("old"))

        // Bob on the same phone: none of it is his to see or to upload.
        try world.cloud.signIn("phone", account: "bob")
        try phone.store.save(Note(recordName: "bobs", title: "his"))
        await phone.sync()
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["bobs"])
        #expect(try Self.bobZone(world).keys.sorted() == ["bobs"])
        #expect(try await phone.engine.assetFileURL(for: \Note.cover, recordName: "created") == nil)

        // Alice is back: her changes come back and go up, her file included.
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(await events.events().contains(.parkedChangesRestored(count: 3)))
        #expect(try await phone.engine.parkedChanges().isEmpty)
        let zone = try Self.aliceZone(world)
        #expect(zone.keys.sorted() == ["created", "edited"])
        #expect(zone["edited"]?.fields["title"] == .string("new"))
        #expect(zone["created"]?.assetContents(.first) != nil)
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["created", "edited"])
        #expect(try Self.bobZone(world).keys.sorted() == ["bobs"])
        let file = try #require(try await phone.engine.assetFileURL(for: \Note.cover, recordName: "created"))
        #expect(try Data(contentsOf: file) == Self.cover)
    }

    /// The record went up but its file did not yet (the upload failed): the file is still work
    /// the account owes the cloud, so a sign-out parks it with its record, and it goes up once
    /// the account is back. Breaking it: parking only records with a change in the history loses
    /// the photo.
    @Test func aFileNotUploadedYetSurvivesASignOutAfterItsRecordWentUp() async throws {  // trap: T21.4
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "with a photo"))
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: \Note.cover, recordName: "n")
        phone.gateway.hooks.withLock {
            $0.modifyResult = { request, result in
                guard let upload = request.recordsToSave.first(where: { $0.assetContents(.first) != nil }) else { return result }
                var failed = result
                failed.savedRecords[upload.id] = .failure(CloudError(.serviceUnavailable, "busy"))
                return failed
            }
        }
        await phone.sync()
        #expect(try Self.aliceZone(world)["n"] != nil)
        #expect(try await phone.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .local)
        phone.gateway.hooks.withLock { $0.modifyResult = nil }
        try world.cloud.signIn("phone", account: nil)
        await phone.sync()
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 1)])
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(try Self.aliceZone(world)["n"]?.assetContents(.first) != nil)
        #expect(try await phone.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .cached)
    }

    /// A record with a picture the cloud has, edited and then parked by a sign-out: its file goes
    /// with the purge, but the record comes back naming the picture, so the device must still know
    /// of it. Its pull skips the version the restore brings back (same change tag), so the parked
    /// entry is all that tells it. Found by the randomized convergence test through the CloudKit
    /// gateway (seed 256). Breaking it: parking only entries still to upload: the restored note
    /// names a picture the device cannot download ("has no asset").
    @Test func aParkedEditKeepsThePictureTheCloudHas() async throws {  // trap: T21.4
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "with a photo"))
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: \Note.cover, recordName: "n")
        await phone.sync()
        #expect(try await phone.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .cached)
        var note = try #require(try phone.store.fetch(Note.self, recordName: "n"))
        note.title = "edited offline"
        try phone.store.save(note)
        try world.cloud.signIn("phone", account: nil)
        await phone.sync()
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 1)])
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(try Self.aliceZone(world)["n"]?.fields["title"] == .string("edited offline"))
        #expect(try await phone.engine.assetEntry(for: \Note.cover, recordName: "n")?.state == .remote)
        try await phone.engine.requestAssetDownload(for: \Note.cover, recordName: "n")
        await phone.sync()
        let file = try #require(try await phone.engine.assetFileURL(for: \Note.cover, recordName: "n"))
        #expect(try Data(contentsOf: file) == Self.cover)
    }

    /// The app can let parked changes go: nothing comes back when the account returns, and the
    /// files they held are gone.
    @Test func parkedChangesCanBeDiscarded() async throws {  // trap: T21.4
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        await phone.sync()
        try phone.store.save(Note(recordName: "draft"))
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: \Note.cover, recordName: "draft")
        try world.cloud.signIn("phone", account: nil)
        await phone.sync()
        let parkedFolder = world.assetFolder.appendingPathComponent("phone/.parked")
        #expect(FileManager.default.fileExists(atPath: parkedFolder.path))
        try await phone.engine.discardParkedChanges(of: "_alice")
        #expect(try await phone.engine.parkedChanges().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: parkedFolder.appendingPathComponent("_alice").path))
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(try phone.store.fetchAll(Note.self).isEmpty)
        #expect(try Self.aliceZone(world).isEmpty)
    }

    /// Bob, with Alice's list shared with him, moves "bread" from his own list into hers; the
    /// save lands, the deletion of the copy left in his zone does not (the network drops).
    /// Returns the world and both devices.
    static func aMoveWhoseLeftCopyIsStillInTheCloud() async throws -> (world: SyncWorld, alice: SyncWorld.Device, bob: SyncWorld.Device) {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        let bob = try world.device("bob-phone", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try bob.store.save(SharedList(recordName: "mine", title: "Mine"))
        try bob.store.save(ListItem(recordName: "bread", parent: RecordReference(recordName: "mine"), text: "Bread", assignee: .unset))
        await alice.sync()
        await bob.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
        await bob.sync()

        var bread = try #require(try bob.store.fetch(ListItem.self, recordName: "bread"))
        bread.parent = RecordReference(recordName: "groceries")
        try bob.store.save(bread)
        let cloud = world.cloud
        let saved = Once()
        bob.gateway.hooks.withLock {
            $0.after[.modify] = { if saved.first() { cloud.setNetworkAvailable(false, for: "bob-phone") } }
        }
        #expect(await bob.engine.sync() != .completed)
        bob.gateway.hooks.withLock { $0.after = [:] }
        world.cloud.setNetworkAvailable(true, for: "bob-phone")
        #expect(try aliceZone(world)["bread"] != nil, "the move's save did not land")
        #expect(try bobZone(world)["bread"] != nil, "the copy the move left is gone already")
        return (world, alice, bob)
    }

    /// After that move Bob deletes "bread", signs out and back in: parking keeps one change per
    /// record, the later deletion. Both copies still go from the cloud. Breaking it: a deletion
    /// deleting only the copy its tombstone names (as before) leaves "bread" in Bob's zone for
    /// good, and his devices never see it.
    @Test func aDeletionFoldedByParkingStillTakesTheCopyAMoveLeft() async throws {  // trap: T21.13, T21.4
        let (world, _, bob) = try await Self.aMoveWhoseLeftCopyIsStillInTheCloud()
        try bob.store.delete(ListItem.self, recordName: "bread")
        try world.cloud.signIn("bob-phone", account: nil)
        await bob.sync()
        #expect(try await bob.engine.parkedChanges() == [ParkedChanges(userRecordName: "_bob", count: 1)])
        try world.cloud.signIn("bob-phone", account: "bob")
        await bob.sync()
        #expect(try Self.aliceZone(world)["bread"] == nil)
        #expect(try Self.bobZone(world)["bread"] == nil, "the copy the move left is still in Bob's zone")
        #expect(try !bob.store.hasUnpushedChanges())
    }

    /// After that move Bob signs out (parking folds the deletion of the left copy into the
    /// record's save), Alice deletes "bread", and Bob signs in again: her deletion wins over his
    /// parked save, and the copy in his zone goes too. Breaking it: the pull deleting the model
    /// without the copies a move of it left leaves "bread" in Bob's zone under his list, on no
    /// device.
    @Test func aDeletionHeardFromTheCloudTakesTheCopyAMoveLeft() async throws {  // trap: T21.13, T21.4
        let (world, alice, bob) = try await Self.aMoveWhoseLeftCopyIsStillInTheCloud()
        try world.cloud.signIn("bob-phone", account: nil)
        await bob.sync()
        #expect(try await bob.engine.parkedChanges() == [ParkedChanges(userRecordName: "_bob", count: 1)])
        await alice.sync()
        try alice.store.delete(ListItem.self, recordName: "bread")
        await alice.sync()
        try world.cloud.signIn("bob-phone", account: "bob")
        await bob.sync()
        #expect(try bob.store.fetch(ListItem.self, recordName: "bread") == nil)
        #expect(try Self.aliceZone(world)["bread"] == nil)
        #expect(try Self.bobZone(world)["bread"] == nil, "the copy the move left is still in Bob's zone")
        #expect(try !bob.store.hasUnpushedChanges())
    }

    /// The phone switches to Bob while its pull waits for Alice's zone: the page that comes back
    /// is Bob's, and none of it is written to Alice's store; Alice's unpushed note is not
    /// uploaded into Bob's zone. The next pass switches cleanly. Breaking it: not checking the
    /// account before writing a page (the shipped T21.5, T16.3) writes Bob's notes into Alice's
    /// store and then uploads Alice's note into Bob's zone.
    @Test func aPullOverlappingAnAccountSwitchWritesNothingForEitherAccount() async throws {  // trap: T21.5, T16.3
        let world = try SyncWorld()
        let laptop = try world.device("alice-laptop", account: "alice")
        try laptop.store.save(Note(recordName: "alices", title: "hers"))
        await laptop.sync()
        let bobsLaptop = try world.device("bob-laptop", account: "bob")
        try bobsLaptop.store.save(Note(recordName: "bobs", title: "his"))
        await bobsLaptop.sync()

        let phone = try world.device("phone", account: "alice")
        try phone.store.save(Note(recordName: "alice-unpushed"))
        let switched = Once()
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.before[.fetchZoneChanges] = {
                guard switched.first() else { return }
                try? cloud.signIn("phone", account: "bob")
            }
        }
        let first = await phone.engine.sync()
        #expect(first == .failed(PassAccount.changed, .stopForAccount))
        #expect(try phone.store.fetch(Note.self, recordName: "bobs") == nil)
        #expect(try Self.bobZone(world)["alice-unpushed"] == nil)

        await phone.sync()
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["bobs"])
        #expect(try Self.bobZone(world).keys.sorted() == ["bobs"])
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 1)])
    }

    /// The switch comes after the zones were read, while the public catalog is: the pass stops
    /// before its push, so Alice's note never goes up into Bob's zone. Breaking it: no account
    /// check before the push's requests uploads it there.
    @Test func aSwitchBeforeThePushUploadsNothingForTheNewAccount() async throws {  // trap: T21.5
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        await phone.sync()
        try phone.store.save(Note(recordName: "alice-unpushed"))
        let cloud = world.cloud
        phone.gateway.hooks.withLock {
            $0.before[.query] = { try? cloud.signIn("phone", account: "bob") }
        }
        // The catalog was read by the first pass: this one reads it because the app asks.
        guard case .failed(let error, _) = await phone.engine.refreshCatalogs() else {
            Issue.record("the pass should stop at the switch")
            return
        }
        #expect(error == PassAccount.changed)
        #expect(try Self.bobZone(world).isEmpty)
        #expect(try Self.aliceZone(world).isEmpty)
        #expect(try phone.store.hasUnpushedChanges())
    }

    /// CloudKit's public database can be read without an account (Apple,
    /// `CKContainer.publicCloudDatabase`: "This database is available regardless of whether the
    /// user's device has an iCloud account."). Breaking it: stopping the pass at the account
    /// check leaves the reader's catalog empty.
    @Test func aSignedOutDeviceStillReadsThePublicCatalog() async throws {
        let world = try SyncWorld()
        let alice = try world.device("alice-phone", account: "alice")
        try alice.store.save(PublishedNote(recordName: "p", title: "Hello"))
        await alice.sync()
        let reader = try world.device("reader", account: nil)
        let events = reader.recordEvents()
        #expect(await reader.engine.sync() == .completed)
        #expect(try reader.store.fetch(PublishedNote.self, recordName: "p")?.title == "Hello")
        #expect(await events.events().first == .accountUnavailable(.noAccount))
    }

    /// A temporarily unavailable account is not a signed-out one: the data stays, and the engine
    /// tries again by itself, waiting longer each time. Breaking it: returning from the pass
    /// without a failure schedules nothing, and the note waits for some other trigger.
    @Test func aTemporarilyUnavailableAccountIsRetriedWithBackoff() async throws {
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        await phone.sync()
        try phone.store.save(Note(recordName: "waiting"))
        try world.cloud.setAccountStatus("alice", .temporarilyUnavailable)
        let events = phone.recordEvents()
        await phone.engine.start()
        #expect(await eventually { events.retries() == 1 && world.clock.sleeperCount == 1 })
        world.clock.advance(by: RecoveryPolicy.defaultRetryAfter)
        #expect(await eventually { events.retries() == 2 && world.clock.sleeperCount == 1 })
        #expect(try phone.store.fetch(Note.self, recordName: "waiting") != nil)
        try world.cloud.setAccountStatus("alice", .available)
        world.clock.advance(by: RecoveryPolicy.defaultRetryAfter)
        #expect(try await eventually { try Self.aliceZone(world)["waiting"] != nil })
        let waits = events.collectedNow().compactMap { event -> TimeInterval? in
            if case .retryScheduled(let wait, let reason) = event, reason.cloudError?.code == .accountTemporarilyUnavailable { wait } else { nil }
        }
        #expect(waits == [RecoveryPolicy.defaultRetryAfter, RecoveryPolicy.defaultRetryAfter])
        await phone.engine.stop()
    }
}
