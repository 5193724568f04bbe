import Foundation
import SyncRuntime
import SyncLocalCloud

// The sharing example of docs/Runtime.md ("Sharing"), whole: Alice shares a checklist with Bob,
// Bob accepts, both edit, Bob leaves. The metadata Bob accepts comes from the share link: on
// Apple platforms the system hands the app a `CKShare.Metadata`, which the CloudKit gateway
// turns into a `ShareMetadata`; with LocalCloud, `shareMetadata(for:ownerAccount:)` gives it.

/// Alice's side: a list and an item under it, shared with Bob as a read-write participant.
func aliceShares(store: SyncStore, engine: SyncEngine) async throws -> ShareRecord {
    let groceries = Checklist(title: "Groceries")
    try store.save(groceries)
    try store.save(ChecklistItem(parent: RecordReference(groceries), text: "Milk"))
    await engine.sync()

    let bob = ShareParticipant(userRecordName: LocalCloud.userRecordName(forAccount: "bob"), permission: .readWrite)
    let share: ShareRecord
    do {
        share = try await engine.share(groceries, title: "Groceries", with: [bob])
    } catch {
        // `alreadyShared`: the list, a record above it or one under it is in another share;
        // `tooManyParticipants`: more than 100.
        print("cannot share: \(error.cloudError?.code.description ?? error.description)")
        throw error
    }
    print("shared with", share.participants.map(\.userRecordName), "owner:", share.owner?.userRecordName ?? "?")
    return share
}

/// Bob's side: accepts from the link's metadata, edits the shared list, leaves it.
func bobAccepts(_ metadata: ShareMetadata, store: SyncStore, engine: SyncEngine) async throws {
    print("\(metadata.ownerName) shares '\(metadata.title)' with you")
    try await engine.acceptShare(metadata)
    for list in try store.fetchAll(Checklist.self) where list.ownerName != SyncConstants.currentUserOwnerName {
        try store.save(ChecklistItem(parent: RecordReference(list), text: "Eggs"))
        await engine.sync()
        try await engine.leaveShare(list)
    }
}

/// Alice, later: invites someone else, then stops sharing.
func aliceStops(_ groceries: Checklist, engine: SyncEngine) async throws {
    let carol = ShareParticipant(userRecordName: LocalCloud.userRecordName(forAccount: "carol"), permission: .readOnly)
    _ = try await engine.invite([carol], to: groceries)
    try await engine.stopSharing(groceries)
}

/// The whole story over one LocalCloud, two accounts.
func sharingExample(cloudFile: URL, folder: URL) async throws {
    let cloud = try LocalCloud.file(at: cloudFile)
    let aliceStore = try SyncStore(url: folder.appendingPathComponent("alice.sqlite"))
    let bobStore = try SyncStore(url: folder.appendingPathComponent("bob.sqlite"))
    let alice = SyncEngine(store: aliceStore, cloud: try cloud.device("alice-phone", account: "alice"), schema: SyncSchema.self)
    let bob = SyncEngine(store: bobStore, cloud: try cloud.device("bob-phone", account: "bob"), schema: SyncSchema.self)

    let share = try await aliceShares(store: aliceStore, engine: alice)
    try await bobAccepts(cloud.shareMetadata(for: share, ownerAccount: "alice"), store: bobStore, engine: bob)
    if let groceries = try aliceStore.fetchAll(Checklist.self).first {
        try await aliceStops(groceries, engine: alice)
    }
}
