import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// A change that waits to be pushed, taken back by the app (`SyncEngine.dropWaitingChange`), as
/// seed 002's engine drops a pending change: the record is the cloud's version again, or gone
/// when the cloud never had it, and nothing is sent; a change on its way cannot be taken back.
/// Each test runs through LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: a waiting change taken back")
struct EngineDropWaitingChangeTests {
    /// An edit, a deletion and a creation wait; each is taken back, offline: the edited note
    /// reads as the cloud has it, the deleted one is back, the new one is gone, and the next pass
    /// sends nothing. Asked again, nothing waits. Breaking it (the history kept): the pass sends
    /// the edit and the deletion anyway.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anEditADeletionAndACreationAreTakenBack(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save([Note(recordName: "edited", title: "As the cloud has it"), Note(recordName: "deleted", title: "Kept")])
        await phone.sync()
        try phone.store.save(Note(recordName: "edited", title: "A slip of the finger"))
        try phone.store.delete(try #require(try phone.store.fetch(Note.self, recordName: "deleted")))
        try phone.store.save(Note(recordName: "new", title: "Never sent"))
        world.cloud.setNetworkAvailable(false, for: "alice-phone")

        for name in ["edited", "deleted", "new"] {
            #expect(try await phone.engine.dropWaitingChange(for: Note.self, recordName: name) == .dropped, "\(name)")
        }
        #expect(try phone.store.fetch(Note.self, recordName: "edited")?.title == "As the cloud has it")
        #expect(try phone.store.fetch(Note.self, recordName: "deleted")?.title == "Kept")
        #expect(try phone.store.fetch(Note.self, recordName: "new") == nil)
        #expect(try await phone.engine.dropWaitingChange(for: Note.self, recordName: "edited") == .nothingWaiting)
        #expect(try !phone.store.hasUnpushedChanges())

        world.cloud.setNetworkAvailable(true, for: "alice-phone")
        let sent = phone.gateway.modifies.count
        #expect(await phone.sync() == .completed)
        #expect(phone.gateway.modifies.count == sent, "nothing waits")
        let records = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records
        #expect(records?.keys.sorted() == ["deleted", "edited"])
        #expect(records?["edited"]?.fields["title"] == .string("As the cloud has it"))
    }

    /// While the push that carries two edits runs (a list's and a diary's, in two zones, so two
    /// requests), neither can be taken back: the one whose request is out is known as sent, the
    /// other was read by the push and waits for its request. Both calls say so, and both edits
    /// land. Breaking it (no check of a running push): the edit of the second request is taken
    /// back here and lands in the cloud all the same, and the two disagree.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aChangeOnItsWayCannotBeTakenBack(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice", models: EngineZonesTests.models)
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save(Diary(recordName: "monday", text: "First"))
        await phone.sync()
        try phone.store.save(SharedList(recordName: "groceries", title: "On its way"))
        try phone.store.save(Diary(recordName: "monday", text: "On its way"))
        let (engine, answers, once) = (phone.engine, Locked<[WaitingChangeDrop?]>([]), Once())
        phone.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard once.first() else { return }
                let list = try? await engine.dropWaitingChange(for: SharedList.self, recordName: "groceries")
                let diary = try? await engine.dropWaitingChange(for: Diary.self, recordName: "monday")
                answers.withLock { $0 = [list, diary] }
            }
        }
        #expect(await phone.sync() == .completed)
        #expect(answers.withLock { $0 } == [.inFlight, .inFlight])
        #expect(try phone.store.fetch(SharedList.self, recordName: "groceries")?.title == "On its way")
        #expect(try phone.store.fetch(Diary.self, recordName: "monday")?.text == "On its way")
        let snapshot = try world.cloud.snapshot()
        #expect(snapshot.zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["groceries"]?.fields["title"] == .string("On its way"))
        #expect(snapshot.zone(Diary.zoneName!, ofAccount: "alice")?.records["monday"]?.fields["text"] == .string("On its way"))
        #expect(try await phone.engine.dropWaitingChange(for: Diary.self, recordName: "monday") == .nothingWaiting)
    }

    /// A push whose reply was lost after the cloud applied it: the edit is in the cloud, and this
    /// device cannot know. Taking it back is refused until a version of the record says (the next
    /// pass reads it back). Breaking it (a save known as sent not counted): the edit is taken back
    /// here, and the cloud keeps it.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aChangeWhoseReplyWasLostCannotBeTakenBack(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        try phone.store.save(Note(recordName: "n", title: "First"))
        await phone.sync()
        try phone.store.save(Note(recordName: "n", title: "Landed, unheard"))
        world.cloud.inject(ScriptedFault(CloudError(.serverResponseLost, "the reply was lost"), on: .modify))
        _ = await phone.engine.sync()
        #expect(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.records["n"]?.fields["title"] == .string("Landed, unheard"))
        #expect(try await phone.engine.dropWaitingChange(for: Note.self, recordName: "n") == .inFlight)
        #expect(await phone.sync() == .completed)
        #expect(try await phone.engine.dropWaitingChange(for: Note.self, recordName: "n") == .nothingWaiting)
        #expect(try phone.store.fetch(Note.self, recordName: "n")?.title == "Landed, unheard")
    }
}
