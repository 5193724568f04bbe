import Foundation
import SyncLocalCloud
import SyncRuntime
import Testing

@Suite("Engine: sharing as CloudKit answers it")
struct EngineShareAnswerTests {
    /// Alice's list is open to anyone with its link. While her engine lets the link's people write
    /// (it read the share, then saves it), Carol joins by the link. The save never removes Carol:
    /// the share is saved only over the version the change read, the one with Carol meets
    /// `serverRecordChanged`, and the change reads it again. Breaking it: the gateway building
    /// the save from the share as CloudKit holds it now and dropping whoever the engine's copy
    /// lacks, as it did, and Carol is removed while the save succeeds (T21.18).
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aShareSavedAfterSomeoneJoinedByLinkKeepsThem(throughCloudKit: Bool) async throws {  // trap: T21.18
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice")
        let carol = try world.device("carol-phone", account: "carol")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [], publicPermission: .readOnly)
        let url = try #require(share.url)
        let joined = Once()
        let carolEngine = carol.engine
        alice.gateway.hooks.withLock {
            $0.before[.modify] = {
                guard joined.first() else { return }
                try? await carolEngine.acceptShare(at: url)
            }
        }
        let saved = try await alice.engine.setPublicPermission(.readWrite, on: root)
        #expect(saved.participants.contains { $0.userRecordName == "_carol" && $0.role == .publicUser })
        #expect(saved.publicPermission == .readWrite)
        let stored = try #require(try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "alice")?.shares[share.id.recordName])
        #expect(stored.participants.contains { $0.userRecordName == "_carol" && $0.acceptanceStatus == .accepted })
        await carol.sync()
        #expect(try carol.store.fetch(SharedList.self, recordName: "groceries") != nil)
    }

    /// Apple, `CKShare.Metadata.participantStatus` and `participantRole`: the metadata says what
    /// the user is to the share. The owner opening their own link accepts nothing (their records
    /// are theirs already); Bob's laptop opening the link he accepted on his phone does not
    /// accept again, and reads the list. Breaking it: calling `accept` whatever the metadata
    /// says: the owner's call fails, and every open of the link is one more acceptance.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aShareAcceptedAlreadyIsNotAcceptedAgain(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let alice = try world.device("alice-phone", account: "alice")
        let bobPhone = try world.device("bob-phone", account: "bob")
        let bobLaptop = try world.device("bob-laptop", account: "bob")
        try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await alice.sync()
        let root = try #require(try alice.store.fetch(SharedList.self, recordName: "groceries"))
        let share = try await alice.engine.share(root, inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
        let url = try #require(share.url)
        try await alice.engine.acceptShare(at: url)
        await alice.sync()
        #expect(try world.cloud.counters()["requests.acceptShare"] ?? 0 == 0)
        try await bobPhone.engine.acceptShare(at: url)
        await bobPhone.sync()
        #expect(try world.cloud.counters()["requests.acceptShare"] == 1)
        try await bobLaptop.engine.acceptShare(at: url)
        await bobLaptop.sync()
        #expect(try world.cloud.counters()["requests.acceptShare"] == 1)
        #expect(try bobLaptop.store.fetch(SharedList.self, recordName: "groceries") != nil)
    }
}
