import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// Subscriptions the app defines (`subscribe(_:to:where:on:once:alert:)`): a query subscription
/// over a model's indexed fields, in the zone its records live in, with the alert the user's
/// devices show; listed and deleted by name, beside the engine's own, which the app cannot touch.
/// Each test runs through LocalCloud's port and through the CloudKit gateway over the stand-in.
@Suite("Engine: subscriptions the app defines")
struct EngineAppSubscriptionTests {
    static let urgent = SubscriptionAlert(title: "Groceries", body: "An urgent item was added", sound: "ding.caf", badge: true)

    /// Alice's phone and laptop, a list on both.
    static func devices(throughCloudKit: Bool) async throws -> (world: SyncWorld, phone: SyncWorld.Device, laptop: SyncWorld.Device) {
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        try laptop.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        await laptop.sync()
        await phone.sync()
        _ = world.cloud.takePushes(for: "alice-phone")
        return (world, phone, laptop)
    }

    static func item(_ name: String, _ priority: ListItem.Priority) -> ListItem {
        ListItem(recordName: name, parent: RecordReference(recordName: "groceries"), text: name, priority: priority, assignee: .unset)
    }

    /// The app's pushes a device received (the engine's own left out).
    static func appPushes(_ world: SyncWorld, _ device: String) -> [CloudNotification] {
        world.cloud.takePushes(for: device).filter { !$0.subscriptionID.hasPrefix("syncgen-") }
    }

    /// The phone subscribes to urgent items; the laptop adds an urgent one and a normal one: the
    /// phone is pushed once, with the alert, and the push is the app's to show, not a pass's.
    /// Changing the item to normal fires nothing (it no longer meets the predicate); deleting an
    /// urgent one fires nothing either (the subscription fires on creation and update only).
    /// Breaking it (the predicate not sent, or not evaluated): the normal item fires it too;
    /// (the alert dropped by the gateway): the push through CloudKit carries none.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aSubscriptionFiresForTheRecordsItsPredicateKeeps(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.devices(throughCloudKit: throughCloudKit)
        try await phone.engine.subscribe("urgent-items", to: ListItem.self, where: \.priority == .urgent, on: [.creation, .update], alert: Self.urgent)
        try laptop.store.save([Self.item("milk", .normal), Self.item("medicine", .urgent)])
        await laptop.sync()
        let pushes = Self.appPushes(world, "alice-phone")
        #expect(pushes == [CloudNotification(subscriptionID: "urgent-items", scope: .private, alert: Self.urgent)])
        let payload = world.cloud.remotePayload(for: try #require(pushes.first))
        #expect(await phone.engine.handleRemoteNotification(payload) == .notForSync)

        var medicine = try #require(try laptop.store.fetch(ListItem.self, recordName: "medicine"))
        medicine.priority = .normal
        try laptop.store.save(medicine)
        await laptop.sync()
        #expect(Self.appPushes(world, "alice-phone").isEmpty)
        try laptop.store.save(Self.item("bandages", .urgent))
        await laptop.sync()
        #expect(Self.appPushes(world, "alice-phone").count == 1)
        try laptop.store.delete(try #require(try laptop.store.fetch(ListItem.self, recordName: "bandages")))
        await laptop.sync()
        #expect(Self.appPushes(world, "alice-phone").isEmpty)
    }

    /// The app lists its own subscriptions, never the engine's, deletes one by name (a name no
    /// longer there changes nothing), and can neither take nor delete a name of the engine's.
    /// A subscription made `once` deletes itself when it fires. Breaking it (the list not
    /// filtered): the engine's database subscriptions are listed; (the name rule left out):
    /// `unsubscribe("syncgen-private")` deletes the subscription that wakes the engine.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func theAppListsAndDeletesItsOwnAndNeverTheEngines(throughCloudKit: Bool) async throws {
        let (world, phone, laptop) = try await Self.devices(throughCloudKit: throughCloudKit)
        try await phone.engine.subscribe("urgent-items", to: ListItem.self, where: \.priority == .urgent, alert: Self.urgent)
        try await phone.engine.subscribe("first-list", to: SharedList.self, on: [.creation], once: true)
        let listed = try await laptop.engine.appSubscriptions()
        let zone = ZoneID(zoneName: SyncConstants.defaultSyncZoneName)
        #expect(listed == [
            SavedSubscription(id: "first-list", scope: .private, recordType: "SharedList", zone: zone),
            SavedSubscription(id: "urgent-items", scope: .private, recordType: "ListItem", zone: zone),
        ])
        for name in ["syncgen-private", "syncgen-urgent", ""] {
            let refused = await #expect(throws: SyncError.self) { try await phone.engine.subscribe(name, to: ListItem.self) }
            #expect(refused?.cloudError?.code == .invalidArguments, "\(name)")
        }
        await #expect(throws: SyncError.self) { try await phone.engine.unsubscribe("syncgen-private") }

        try laptop.store.save(SharedList(recordName: "chores", title: "Chores"))
        await laptop.sync()
        #expect(Self.appPushes(world, "alice-phone").map(\.subscriptionID) == ["first-list"])
        #expect(try await phone.engine.appSubscriptions().map(\.id) == ["urgent-items"], "a subscription made once is gone once it fired")

        try await phone.engine.unsubscribe("urgent-items")
        try await phone.engine.unsubscribe("urgent-items")
        #expect(try await phone.engine.appSubscriptions().isEmpty)
        try laptop.store.save(Self.item("medicine", .urgent))
        await laptop.sync()
        #expect(Self.appPushes(world, "alice-phone").isEmpty)
        let engines = try await phone.gateway.subscriptions(in: .private).map(\.id)
        #expect(engines == ["syncgen-private"], "the engine's own stays")
    }

    /// A private model's server query asks the user's zone its records live in, where the
    /// device holds every record already: the page answers, and nothing more is kept. Breaking
    /// it (the query sent to the public database): the page is empty.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func aPrivateModelsServerQueryReadsTheUsersZone(throughCloudKit: Bool) async throws {
        let (_, phone, laptop) = try await Self.devices(throughCloudKit: throughCloudKit)
        try laptop.store.save([Self.item("milk", .normal), Self.item("medicine", .urgent)])
        await laptop.sync()
        let page = try await phone.engine.query(ServerQuery<ListItem>().filter(\.priority == .urgent), keeping: ResultRetention())
        #expect(page.models.map(\.recordName) == ["medicine"])
        #expect(try phone.store.fetchAll(ListItem.self).isEmpty, "the query keeps nothing the pass did not bring")
    }
}
