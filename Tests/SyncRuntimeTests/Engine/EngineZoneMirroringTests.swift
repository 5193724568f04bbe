import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Devices that mirror only some of the user's zones (`SyncConfiguration.mirroredZones`): the
/// watch holds the diary's zone, and reads the lists of the sync zone on demand. Each test runs
/// through LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: devices that mirror some zones")
struct EngineZoneMirroringTests {
    static let models = EngineZonesTests.models
    static let diaryOnly = SyncConfiguration(mirroredZones: ["Personal"])

    /// Alice's phone, mirroring everything, holds the groceries (an urgent and a normal item) and
    /// a diary entry, all synced.
    static func phone(in world: SyncWorld) async throws -> SyncWorld.Device {
        let phone = try world.device("alice-phone", account: "alice", models: models)
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save([
            ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset),
            ListItem(recordName: "medicine", parent: RecordReference(recordName: "groceries"), text: "Medicine", priority: .urgent, assignee: .unset),
        ])
        try phone.store.save(Diary(recordName: "monday", text: "Slept well"))
        await phone.sync()
        return phone
    }

    /// The watch mirrors the diary's zone only: it pulls the diary, never the lists, and reads
    /// them on demand, by a query over an indexed field and by name, keeping what it is asked to
    /// keep. Breaking it (the pull reading every zone it is told of): the watch holds the lists
    /// after its pass; (kept results of a private model never written): the urgent item is not
    /// in the watch's store after the query.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aDeviceMirroringOneZoneReadsTheOtherOnDemand(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        _ = try await Self.phone(in: world)
        let watch = try world.device("alice-watch", account: "alice", configuration: Self.diaryOnly, models: Self.models)
        await watch.sync()
        #expect(try watch.store.fetch(Diary.self, recordName: "monday")?.text == "Slept well")
        #expect(try watch.store.fetchAll(SharedList.self).isEmpty && watch.store.fetchAll(ListItem.self).isEmpty)
        #expect(try watch.engine.diagnostics().zones.filter(\.hasUnfetchedChanges).isEmpty, "a zone not mirrored is not waiting")

        let urgent = try await watch.engine.query(ServerQuery<ListItem>().filter(\.priority == .urgent), keeping: ResultRetention())
        #expect(urgent.models.map(\.recordName) == ["medicine"])
        #expect(try watch.store.fetchAll(ListItem.self).map(\.recordName) == ["medicine"], "the page is kept")
        let groceries = try await watch.engine.record(SharedList.self, named: "groceries")
        #expect(groceries?.title == "Groceries")
        #expect(try watch.store.fetch(SharedList.self, recordName: "groceries") == nil, "read without keeping")
        #expect(try await watch.engine.record(SharedList.self, named: "nowhere") == nil)
    }

    /// A zone dropped is forgotten on the device and never deleted in the cloud; a record of it
    /// with a change still to go up stays (with its list) and is pushed; a zone chosen again is
    /// pulled from its start. Breaking it (a record with a change forgotten with the rest): "Oat
    /// milk" never reaches the phone; (a chosen zone not marked unfetched): the watch never gets
    /// the lists back, the feed naming no change.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aZoneDroppedIsForgottenHereAndOneChosenIsPulledFromItsStart(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try await Self.phone(in: world)
        let url = world.assetFolder.appendingPathComponent("alice-watch.sqlite")
        var watch = try world.device("alice-watch", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        await watch.sync()
        #expect(try watch.store.fetchAll(ListItem.self).count == 2)
        var milk = try #require(try watch.store.fetch(ListItem.self, recordName: "milk"))
        milk.text = "Oat milk"
        try watch.store.save(milk)

        watch = try world.device("alice-watch", account: "alice", configuration: Self.diaryOnly, store: SyncStore(url: url, clock: world.clock), models: Self.models)
        await watch.sync()
        #expect(try watch.store.fetchAll(ListItem.self).map(\.recordName) == ["milk"], "only the changed item stays")
        #expect(try watch.store.fetchAll(SharedList.self).map(\.recordName) == ["groceries"], "with the list above it")
        #expect(try watch.store.fetch(Diary.self, recordName: "monday") != nil)
        await phone.sync()
        #expect(try phone.store.fetch(ListItem.self, recordName: "milk")?.text == "Oat milk", "the change went up")
        #expect(try phone.store.fetchAll(ListItem.self).count == 2, "nothing was deleted in the cloud")
        // The watch's feed moves past every change of the lists' zone: choosing it again is what
        // brings the lists back, not a change.
        await watch.sync()

        watch = try world.device("alice-watch", account: "alice", store: SyncStore(url: url, clock: world.clock), models: Self.models)
        await watch.sync()
        #expect(try watch.store.fetchAll(ListItem.self).map(\.recordName).sorted() == ["medicine", "milk"])
    }

    /// A record the watch saves into a zone it does not mirror is pushed like any other and kept
    /// here, pass after pass. Breaking it (the mirrored zones not remembered, so each pass drops
    /// the zone again): the watch loses "bread" at its next pass.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aRecordSavedIntoAZoneNotMirroredIsPushed(throughCloudKit: Bool) async throws {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try await Self.phone(in: world)
        let watch = try world.device("alice-watch", account: "alice", configuration: Self.diaryOnly, models: Self.models)
        await watch.sync()
        try watch.store.save(ListItem(recordName: "bread", parent: RecordReference(recordName: "groceries"), text: "Bread", assignee: .unset))
        await watch.sync()
        await watch.sync()
        await phone.sync()
        #expect(try phone.store.fetch(ListItem.self, recordName: "bread")?.parent?.recordName == "groceries")
        #expect(try watch.store.fetch(ListItem.self, recordName: "bread") != nil)
    }
}
