import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// A participant leaving a zone shared whole keeps a copy (`leaveShare(_:keepingACopy:)`): the
/// whole zone, or only what they created there (seed 004's "leaving the household keeps each
/// person's own rows"), as new records of their own zone; the owner's zone is untouched.
@Suite("Engine: leaving a zone's share with a copy")
struct EngineZoneLeaveWithCopyTests {
    typealias Home = EngineZoneShareTests.Home

    /// Bob adds "eggs" to Alice's groceries and makes a list of his own, "hardware" with "nails",
    /// in Alice's zone; Alice then adds "bread".
    static func bobContributes(to home: Home) async throws {
        let (alice, bob) = (home.alice, home.bob)
        try bob.store.save(ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
        let groceries = try #require(try bob.store.fetch(SharedList.self, recordName: "groceries"))
        try bob.store.save(SharedList(recordName: "hardware", ownerName: groceries.ownerName, title: "Hardware"))
        try bob.store.save(ListItem(recordName: "nails", ownerName: groceries.ownerName, parent: RecordReference(recordName: "hardware"), text: "Nails", assignee: .unset))
        await bob.sync()
        await alice.sync()
        try alice.store.save(ListItem(recordName: "bread", parent: RecordReference(recordName: "groceries"), text: "Bread", assignee: .unset))
        await alice.sync()
        await bob.sync()
        try #require(try bob.store.fetch(ListItem.self, recordName: "bread") != nil)
    }

    /// The zone's share as Bob's store knows it (the owner's share names her zone as hers).
    static func sharedHome(_ bob: SyncWorld.Device) throws -> ShareRecord {
        let groceries = try #require(try bob.store.fetch(SharedList.self, recordName: "groceries"))
        return try #require(try bob.store.knownShare(of: groceries))
    }

    /// Bob's lists and items, by title, each item under its list's title.
    static func bobsLists(_ bob: SyncWorld.Device) throws -> [String: [String]] {
        let lists = try bob.store.fetchAll(SharedList.self)
        #expect(lists.allSatisfy { $0.ownerName == SyncConstants.currentUserOwnerName }, "every list is Bob's own")
        var titles: [String: [String]] = Dictionary(uniqueKeysWithValues: lists.map { ($0.title, []) })
        for item in try bob.store.fetchAll(ListItem.self) {
            let list = lists.first { $0.recordName == item.parent?.recordName }
            titles[list?.title ?? "(no list)", default: []].append(item.text)
        }
        return titles.mapValues { $0.sorted() }
    }

    /// Keeping his own records, Bob keeps "eggs" (under a copy of Alice's list, without her
    /// items) and his "hardware" list with "nails", pushed to his own zone; Alice's zone keeps
    /// everything, Bob included, and her share no longer has him. Breaking it (the creator not
    /// read, so every record counts as Bob's): Bob keeps "milk" and "bread" too; (the ancestors
    /// left out): "eggs" has no list.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func leavingWithOwnRecordsKeepsWhatTheParticipantCreated(throughCloudKit: Bool) async throws {
        let home = try await Home(throughCloudKit: throughCloudKit)
        let (alice, bob) = (home.alice, home.bob)
        try await Self.bobContributes(to: home)
        let copied = try await bob.engine.leaveShare(Self.sharedHome(bob), keepingACopy: .ownRecords)
        #expect(copied == 4)
        #expect(try Self.bobsLists(bob) == ["Groceries": ["Eggs"], "Hardware": ["Nails"]])
        await bob.sync()
        let bobs = try home.world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
        #expect(bobs.count == 4)
        await alice.sync()
        #expect(try alice.store.fetchAll(ListItem.self).map(\.text).sorted() == ["Bread", "Eggs", "Milk", "Nails"])
        let current = try #require(try await alice.engine.zoneShare())
        #expect(current.participants.first { $0.isSamePerson(as: EngineZoneShareTests.bob) }?.acceptanceStatus ?? .removed == .removed)
    }

    /// Keeping the whole zone, Bob keeps every list and item of it, linked as the originals.
    /// Breaking it (`wholeZone` read as `ownRecords`): "chores", "milk" and "bread" are missing.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func leavingWithTheWholeZoneKeepsEveryRecord(throughCloudKit: Bool) async throws {
        let home = try await Home(throughCloudKit: throughCloudKit)
        try await Self.bobContributes(to: home)
        let copied = try await home.bob.engine.leaveShare(Self.sharedHome(home.bob), keepingACopy: .wholeZone)
        #expect(copied == 7)
        #expect(try Self.bobsLists(home.bob) == ["Chores": [], "Groceries": ["Bread", "Eggs", "Milk"], "Hardware": ["Nails"]])
        #expect(try home.bob.store.fetch(SharedList.self, recordName: "groceries") == nil, "the originals are gone")
    }

    /// A change Bob made to Alice's "milk" and never pushed is lost when he keeps only his own
    /// records, and the app hears it; kept in the copy of the whole zone, it is not announced.
    /// Breaking it (the copy's records announced too): the whole zone's leave reports "milk".
    @Test func aChangeLeftOutOfTheCopyIsAnnouncedAsLost() async throws {
        for keeping in [ZoneShareCopy.ownRecords, .wholeZone] {
            let home = try await Home()
            let bob = home.bob
            var milk = try #require(try bob.store.fetch(ListItem.self, recordName: "milk"))
            milk.text = "Oat milk"
            try bob.store.save(milk)
            let events = bob.recordEvents()
            try await bob.engine.leaveShare(Self.sharedHome(bob), keepingACopy: keeping)
            let lost = await events.events().lazy.compactMap { if case .shareEnded(_, _, let lost) = $0 { lost } else { nil } }.first
            if keeping == .ownRecords {
                #expect(lost == [RecordKey("ListItem", "milk")])
            } else {
                #expect(lost == nil)
                #expect(try Self.bobsLists(bob)["Groceries"] == ["Oat milk"])
            }
        }
    }

    /// A file store cut at each commit of a leave keeping Bob's own records, then opened again and
    /// left again: every run ends with one copy of "eggs" (and of the list above it) in Bob's
    /// zone, and Bob out of the share. Breaking it (the copy not remembered, so a leave resumed
    /// after the copy commits makes another): Bob's zone holds two of "eggs" (the list's copies
    /// are one, by its natural key).
    @Test func aCrashAtEveryWriteOfALeaveWithOwnRecordsEndsWithOneCopy() async throws {
        func run(crashingAfter crashPoint: Int?) async throws -> Int {
            let world = try SyncWorld()
            let url = world.assetFolder.appendingPathComponent("bob-phone.sqlite")
            let models = EngineZoneShareTests.models
            let alice = try world.device("alice-phone", account: "alice", models: models)
            var bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock), models: models)
            try alice.store.save(SharedList(recordName: "groceries", title: "Groceries"))
            try alice.store.save(ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
            await alice.sync()
            let share = try await alice.engine.shareZone(title: "Home", inviting: [ShareInvitation(.userRecordName("_bob"), permission: .readWrite)])
            try await bob.engine.acceptShare(world.cloud.shareMetadata(for: share, ownerAccount: "alice"))
            await bob.sync()
            try bob.store.save(ListItem(recordName: "eggs", ownerName: "_alice", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset))
            await bob.sync()
            let before = bob.store.writeCommits
            if let crashPoint {
                bob.store.crash(afterCommits: crashPoint)
                await #expect(throws: (any Error).self) { try await bob.engine.leaveShare(Self.sharedHome(bob), keepingACopy: .ownRecords) }
                bob = try world.device("bob-phone", account: "bob", store: SyncStore(url: url, clock: world.clock), models: models)
                if try bob.store.fetch(SharedList.self, recordName: "groceries") != nil {
                    try await bob.engine.leaveShare(Self.sharedHome(bob), keepingACopy: .ownRecords)
                }
            } else {
                try await bob.engine.leaveShare(Self.sharedHome(bob), keepingACopy: .ownRecords)
            }
            let writes = bob.store.writeCommits - before
            await bob.sync()
            let context = "crash after \(crashPoint.map(String.init) ?? "no") commits"
            let bobs = try world.cloud.snapshot().zone(SyncConstants.defaultSyncZoneName, ofAccount: "bob")?.records ?? [:]
            #expect(bobs.values.map(\.recordType).sorted() == ["ListItem", "SharedList"], "\(context): Bob's zone has \(bobs.values.map(\.recordType))")
            #expect(try Self.bobsLists(bob) == ["Groceries": ["Eggs"]], "\(context)")
            await alice.sync()
            let participants = try #require(try await alice.engine.zoneShare()?.participants)
            #expect(participants.first { $0.isSamePerson(as: EngineZoneShareTests.bob) }?.acceptanceStatus ?? .removed == .removed, "\(context)")
            return writes
        }
        let writes = try await run(crashingAfter: nil)
        #expect(writes >= 2, "the leave made only \(writes) writes")
        for crashPoint in 0..<writes { _ = try await run(crashingAfter: crashPoint) }
    }
}
