import Foundation
import Testing
import SyncRuntime
@testable import SyncLocalCloud

/// Who made a record and who last changed it (`store.authorship(of:)`, `.createdBy`,
/// `.lastModifiedBy`), as the cloud reports them, through LocalCloud's port and the CloudKit
/// gateway alike: kept with the server version, never a field of the model.
@Suite("Engine: who made and changed a record")
struct EngineAuthorshipTests {
    typealias Household = EngineSharingTests.Household

    /// Bob adds "eggs" to Alice's list and Alice edits it: each device names the other by user
    /// record, itself as the signed-in user, and a query finds "the items Bob added", in SQL and
    /// in Swift alike. Breaking it (the server's creator not kept with the version): Alice's
    /// store says she made "eggs", and the query finds nothing.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func eachDeviceNamesWhoMadeAndChangedARecord(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        let eggs = ListItem(recordName: "eggs", ownerName: "_alice", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset)
        try bob.store.save(eggs)
        // Not in the cloud yet: Bob's own, undated.
        #expect(try bob.store.authorship(of: eggs) == .notYetInTheCloud)
        await bob.sync()
        household.world.clock.advance(by: 60)
        await alice.sync()

        let atAlice = try #require(try alice.store.fetch(ListItem.self, recordName: "eggs"))
        let made = try alice.store.authorship(of: atAlice)
        #expect(made.createdBy == "_bob" && made.modifiedBy == "_bob" && made.createdAt != nil && made.createdAt == made.modifiedAt)
        let milk = try #require(try alice.store.fetch(ListItem.self, recordName: "milk"))
        #expect(try alice.store.authorship(of: milk).isCreatedByCurrentUser)
        #expect(try alice.store.fetch(Query<ListItem>().filter(.createdBy("_bob"))) == [atAlice])
        #expect(try alice.store.fetch(Query<ListItem>().filter(.createdBy(SyncConstants.currentUserOwnerName))).map(\.recordName) == ["milk"])
        // A list's elements have no SQL form: the same query runs in Swift, with the same answer.
        #expect(try alice.store.fetch(Query<ListItem>().filter(.createdBy("_bob") && !.contains(\.tags, "x"))) == [atAlice])

        var edited = atAlice
        edited.text = "Brown eggs"
        try alice.store.save(edited)
        await alice.sync()
        await bob.sync()
        let atBob = try #require(try bob.store.fetch(ListItem.self, recordName: "eggs"))
        let changed = try bob.store.authorship(of: atBob)
        #expect(changed.isCreatedByCurrentUser && changed.modifiedBy == "_alice")
        #expect(try #require(changed.modifiedAt) > #require(changed.createdAt))
        #expect(try bob.store.fetch(Query<ListItem>().filter(.lastModifiedBy("_alice"))).map(\.recordName) == ["eggs", "milk"])
        #expect(try bob.store.count(Query<ListItem>().filter(.createdBy(SyncConstants.currentUserOwnerName))) == 1)
    }

    /// "Added by Bob": the item's creator, named by the share Alice's store keeps. Breaking it
    /// (the gateway leaving the identity's name out): Alice's share names nobody.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func anItemIsAddedByAPersonTheShareNames(throughCloudKit: Bool) async throws {
        let household = try await Household(throughCloudKit: throughCloudKit)
        let (alice, bob) = (household.alice, household.bob)
        var name = PersonNameComponents()
        name.givenName = "Bob"
        try household.world.cloud.addAccount("bob", name: name)
        try bob.store.save(ListItem(recordName: "eggs", ownerName: "_alice", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        await bob.sync()
        await alice.sync()
        let eggs = try #require(try alice.store.fetch(ListItem.self, recordName: "eggs"))
        let share = try #require(try alice.store.knownShare(of: EngineShareManagementTests.groceries(alice)))
        let adder = try #require(share.participant(named: alice.store.authorship(of: eggs).createdBy))
        #expect(adder.nameComponents?.givenName == "Bob")
    }
}
