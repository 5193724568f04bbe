import Foundation
import SyncRuntime
import SyncLocalCloud

// The sharing example of docs/Runtime.md ("Sharing"), whole: Alice invites Bob by email to a
// checklist, Bob accepts from the share's link, both edit, Bob leaves. Participants and share
// metadata are never made up in code (CloudKit has no initialiser for either): the cloud looks
// people up, and the link leads to the metadata.

/// Alice's side: a list and an item under it, shared with Bob as a read-write participant.
func aliceShares(store: SyncStore, engine: SyncEngine) async throws -> ShareRecord {
    let groceries = Checklist(title: "Groceries")
    try store.save(groceries)
    try store.save(ChecklistItem(parent: RecordReference(groceries), text: "Milk"))
    await engine.sync()

    let bob = ShareInvitation(.emailAddress("bob@example.com"), permission: .readWrite)
    let share: ShareRecord
    do {
        share = try await engine.share(groceries, title: "Groceries", inviting: [bob])
    } catch {
        // `unknownItem`: someone the cloud cannot find; `alreadyShared`: the list, a record above
        // it or one under it is in another share; `tooManyParticipants`: more than 100.
        print("cannot share: \(error.cloudError?.code.description ?? error.description)")
        throw error
    }
    print("shared with", share.participants.compactMap(\.userRecordName), "owner:", share.owner?.userRecordName ?? "?")
    print("send Bob the link:", share.url?.absoluteString ?? "none yet")
    return share
}

/// Bob's side: accepts from the link, edits the shared list, leaves it keeping a copy. A list
/// shared with him read-only refuses his write at the save.
func bobAccepts(_ link: URL, store: SyncStore, engine: SyncEngine) async throws {
    try await engine.acceptShare(at: link)
    for list in try store.fetchAll(Checklist.self) where list.ownerName != SyncConstants.currentUserOwnerName {
        print("I may", try store.knownShare(of: list)?.currentUserParticipant?.permission ?? .none)
        do {
            try store.save(ChecklistItem(parent: RecordReference(list), text: "Eggs"))
        } catch let refusal as ReadOnlyShareRefusal {
            print("\(refusal.shareTitle) is \(refusal.permission) for me: \(refusal)")
        }
        await engine.sync()
        if let mine = try await engine.leaveShare(list, keepingACopy: true) {
            print("kept \(mine.title) as my own list \(mine.recordName)")
        }
    }
}

/// The people of a share, on a screen that follows them as they accept or leave.
@MainActor
func peopleOfTheShare(_ groceries: Checklist, store: SyncStore) async throws {
    let people = LiveShare(store, root: groceries)
    print(people.share?.participants.map(\.acceptanceStatus) ?? [], people.error == nil)
    for item in try store.fetch(Query<ChecklistItem>().filter(.isChild(of: groceries.recordName))) {
        let adder = people.share?.participant(named: try store.authorship(of: item).createdBy)
        print(item.text, "added by", adder?.nameComponents?.givenName ?? adder?.lookup?.description ?? "someone")
    }
    for try await share in store.observeShare(of: groceries) {
        print(share?.participants.count ?? 0, "people")
        break
    }
}

/// A household app shares the whole zone instead: every list, and every list made later, with
/// no call per list. The share itself is what the owner manages, and what a participant leaves.
func shareTheHome(engine: SyncEngine, bobsEngine: SyncEngine, bobsStore: SyncStore) async throws {
    let bob = ShareInvitation(.emailAddress("bob@example.com"), permission: .readWrite)
    let home = try await engine.shareZone(title: "Home", inviting: [bob])
    if let invited = home.participants.first(where: { $0.lookup == .emailAddress("bob@example.com") }) {
        _ = try await engine.setPermission(.readOnly, for: invited, on: home)
    }
    print("the zone's share:", try await engine.zoneShare()?.url?.absoluteString ?? "none")
    if let list = try bobsStore.fetchAll(Checklist.self).first(where: { $0.ownerName != SyncConstants.currentUserOwnerName }),
        let theirs = try bobsStore.knownShare(of: list), theirs.rootRecordName == nil
    {
        try await bobsEngine.leaveShare(theirs)
    }
    try await engine.stopSharing(home)
}

/// A person's records move into the household's zone when they start sharing it whole (Runtime.md,
/// "Moving a zone's records into another"); the next passes carry the move out.
func moveIntoTheHousehold(engine: SyncEngine) async throws -> ShareRecord {
    try await engine.moveZone(nil, into: "Household")
    for await event in engine.events() {
        if case .zoneMoved(let from, let into) = event {
            print("every record of \(from.zoneName) is in \(into.zoneName)")
            break
        }
    }
    return try await engine.shareZone(title: "Home", zone: "Household")
}

/// Alice, later: invites someone else, manages who may do what, then stops sharing.
func aliceStops(_ groceries: Checklist, engine: SyncEngine) async throws {
    let carol = ShareInvitation(.userRecordName(LocalCloud.userRecordName(forAccount: "carol")), permission: .readOnly)
    _ = try await engine.invite([carol], to: groceries)
    if let share = try await engine.share(of: groceries) {
        for person in share.participants where person.role != .owner {
            print(person.userRecordName ?? "invited", person.permission, person.acceptanceStatus)
        }
        if let bob = share.participants.first(where: { $0.lookup == .emailAddress("bob@example.com") }) {
            _ = try await engine.setPermission(.readOnly, for: bob, on: groceries)
            _ = try await engine.removeParticipant(bob, from: groceries)
        }
    }
    try await engine.stopSharing(groceries)
}

/// A list anyone with its link may read, until the link is turned off.
func openByLink(_ list: Checklist, engine: SyncEngine) async throws -> URL? {
    let share = try await engine.share(list, inviting: [], publicPermission: .readOnly)
    _ = try await engine.setPublicPermission(.none, on: list)
    return share.url
}

/// The whole story over one LocalCloud, two accounts.
func sharingExample(cloudFile: URL, folder: URL) async throws {
    let cloud = try LocalCloud.file(at: cloudFile)
    try cloud.addAccount("bob", emailAddress: "bob@example.com")
    try cloud.addAccount("carol")
    let aliceStore = try SyncStore(url: folder.appendingPathComponent("alice.sqlite"))
    let bobStore = try SyncStore(url: folder.appendingPathComponent("bob.sqlite"))
    let alice = SyncEngine(store: aliceStore, cloud: try cloud.device("alice-phone", account: "alice"), schema: SyncSchema.self)
    let bob = SyncEngine(store: bobStore, cloud: try cloud.device("bob-phone", account: "bob"), schema: SyncSchema.self)

    let share = try await aliceShares(store: aliceStore, engine: alice)
    if let link = share.url {
        try await bobAccepts(link, store: bobStore, engine: bob)
    }
    if let groceries = try aliceStore.fetchAll(Checklist.self).first {
        try await aliceStops(groceries, engine: alice)
    }
}
