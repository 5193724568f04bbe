import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncLocalStore
import Testing

/// ``ZoneMirroring`` on its own: the zones a device mirrors settled against what it mirrored
/// before, in the caller's transaction.
@Suite("Rule: the zones a device mirrors")
struct ZoneMirroringTests {
    /// A store that mirrored every zone holds the groceries (pulled) and a pulled item and one
    /// the app changed; told to mirror only "Personal", it forgets the sync zone: the pulled item
    /// and its server version go, the changed item and the list above it stay, and the zone is
    /// no longer followed. Told to mirror everything again, the zone is marked unfetched. Breaking
    /// it (a parent above a kept child forgotten): the changed item loses its list.
    @Test func aZoneDroppedIsForgottenButForWhatWaitsToGoUp() throws {
        let models: [any SyncModel.Type] = [SharedList.self, ListItem.self, Diary.self]
        let store = try SyncStore(url: nil)
        func bench(_ configuration: SyncConfiguration) throws -> RuleBench { try RuleBench(models: models, configuration: configuration, store: store) }
        let everything = try bench(SyncConfiguration())
        let zone = everything.context.syncZone
        let list = SharedList(recordName: "groceries", title: "Groceries")
        let milk = ListItem(recordName: "milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset)
        let eggs = ListItem(recordName: "eggs", parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: .unset)
        try everything.transaction { store in
            for record in [list.makeRecord(syncZoneName: zone.zoneName), milk.makeRecord(syncZoneName: zone.zoneName), eggs.makeRecord(syncZoneName: zone.zoneName)] {
                _ = try store.insertPulled(record, as: record.recordType == "ListItem" ? ListItem.self : SharedList.self)
                try store.setServerRecord(record)
            }
            try store.setState(SyncStateKeys.zoneToken(zone, .private), "token")
        }
        #expect(try everything.transaction { try ZoneMirroring(context: everything.context).settle(in: $0) } == ZoneMirroring.Change())
        var changed = eggs
        changed.text = "Brown eggs"
        try store.save(changed)

        let diaryOnly = try bench(SyncConfiguration(mirroredZones: ["Personal"]))
        let dropped = try diaryOnly.transaction { try ZoneMirroring(context: diaryOnly.context).settle(in: $0) }
        #expect(dropped == ZoneMirroring.Change(dropped: [zone]))
        #expect(try store.fetchAll(ListItem.self).map(\.recordName) == ["eggs"])
        #expect(try store.fetchAll(SharedList.self).map(\.recordName) == ["groceries"])
        let (milkVersion, token) = try diaryOnly.transaction { store in
            (try store.serverRecord(RecordID(recordName: "milk", zoneID: zone)), try store.state(SyncStateKeys.zoneToken(zone, .private)))
        }
        #expect(milkVersion == nil && token == nil)

        let again = try bench(SyncConfiguration())
        let chosen = try again.transaction { try ZoneMirroring(context: again.context).settle(in: $0) }
        #expect(chosen == ZoneMirroring.Change(chosen: [zone]))
        #expect(try again.transaction { try $0.state(SyncStateKeys.zoneUnfetched(zone, .private)) } == "1")
    }
}
