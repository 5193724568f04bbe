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
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: Note.self, recordName: "created")
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
        #expect(try await phone.engine.assetFileURL(for: Note.self, recordName: "created") == nil)

        // Alice is back: her changes come back and go up, her file included.
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(await events.events().contains(.parkedChangesRestored(count: 3)))
        #expect(try await phone.engine.parkedChanges().isEmpty)
        let zone = try Self.aliceZone(world)
        #expect(zone.keys.sorted() == ["created", "edited"])
        #expect(zone["edited"]?.fields["title"] == .string("new"))
        #expect(zone["created"]?.assetContents != nil)
        #expect(try phone.store.fetchAll(Note.self).map(\.recordName) == ["created", "edited"])
        #expect(try Self.bobZone(world).keys.sorted() == ["bobs"])
        let file = try #require(try await phone.engine.assetFileURL(for: Note.self, recordName: "created"))
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
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: Note.self, recordName: "n")
        phone.gateway.hooks.withLock {
            $0.modifyResult = { request, result in
                guard let upload = request.recordsToSave.first(where: { $0.assetContents != nil }) else { return result }
                var failed = result
                failed.savedRecords[upload.id] = .failure(CloudError(.serviceUnavailable, "busy"))
                return failed
            }
        }
        await phone.sync()
        #expect(try Self.aliceZone(world)["n"] != nil)
        #expect(try await phone.engine.assetEntry(for: Note.self, recordName: "n")?.state == .local)
        phone.gateway.hooks.withLock { $0.modifyResult = nil }
        try world.cloud.signIn("phone", account: nil)
        await phone.sync()
        #expect(try await phone.engine.parkedChanges() == [ParkedChanges(userRecordName: "_alice", count: 1)])
        try world.cloud.signIn("phone", account: "alice")
        await phone.sync()
        #expect(try Self.aliceZone(world)["n"]?.assetContents != nil)
        #expect(try await phone.engine.assetEntry(for: Note.self, recordName: "n")?.state == .cached)
    }

    /// The app can let parked changes go: nothing comes back when the account returns, and the
    /// files they held are gone.
    @Test func parkedChangesCanBeDiscarded() async throws {  // trap: T21.4
        let world = try SyncWorld()
        let phone = try world.device("phone", account: "alice")
        await phone.sync()
        try phone.store.save(Note(recordName: "draft"))
        try await phone.engine.attachAsset(Self.cover, suffix: "png", to: Note.self, recordName: "draft")
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
        guard case .failed(let error, _) = await phone.engine.sync() else {
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
