import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncPorts
import Testing

/// ``ZoneRebuild`` and ``ZoneServerState`` on their own: a private zone the cloud lost has what
/// the server knew of it forgotten and every local record of it queued to go up again, as
/// ordinary changes, in the caller's transaction; a zone that goes has its server state
/// forgotten, another zone's kept.
@Suite("Rule: a zone rebuilt, a zone forgotten")
struct ZoneRebuildTests {
    static let zone = ZoneID(zoneName: "SyncgenZone")
    static let other = ZoneID(zoneName: "SyncgenZone", ownerName: "_bob")

    /// Pulled notes (synced: no change waits) are all queued again, and the zone's token and
    /// server versions go. Breaking it: queuing only the records with a server version leaves
    /// "never-sent", which the cloud never had, behind when the zone comes back.
    @Test func everyRecordOfALostZoneGoesUpAgain() throws {
        let bench = try RuleBench(models: [Note.self])
        try bench.transaction { store in
            for name in ["a", "b"] {
                let record = Note(recordName: name, title: name).makeRecord(syncZoneName: Self.zone.zoneName)
                _ = try store.insertPulled(record, as: Note.self)
                try store.setServerRecord(record)
            }
            _ = try store.insertPulled(Note(recordName: "never-sent", title: "x").makeRecord(syncZoneName: Self.zone.zoneName), as: Note.self)
            try store.setState(SyncStateKeys.zoneToken(Self.zone, .private), "token")
        }
        #expect(try bench.transaction { try $0.recordsWithLocalChanges().records }.isEmpty, "synced")
        try bench.transaction { try ZoneRebuild.queueEverything(of: Self.zone, types: bench.context.zonedTypes(in: Self.zone), in: $0) }
        let (waiting, versions, token) = try bench.transaction { store in
            (try store.recordsWithLocalChanges().records, try store.serverRecordIDs(inZone: Self.zone), try store.state(SyncStateKeys.zoneToken(Self.zone, .private)))
        }
        #expect(waiting == [RecordKey("Note", "a"), RecordKey("Note", "b"), RecordKey("Note", "never-sent")])
        #expect(versions.isEmpty && token == nil)
    }

    /// A zone whose records moved, lost in the cloud before its move ended: the copies not moved
    /// yet go up again (to the zone it moved into, by the routing), though no model lives in the
    /// zone any more. Breaking it (queuing by the zone's models only): "not-moved" keeps no copy
    /// in the cloud, and nothing ever sends it again.
    @Test func theRecordsAMovedZoneStillHeldGoUpAgain() throws {
        let bench = try RuleBench(models: [Diary.self])
        let personal = ZoneID(zoneName: "Personal")
        try bench.transaction { store in
            var record = Diary(recordName: "not-moved", text: "x").makeRecord()
            record.id = RecordID(recordName: "not-moved", zoneID: personal)
            _ = try store.insertPulled(record, as: Diary.self)
            try store.setServerRecord(record)
            try ZoneMoves(context: bench.context).learn(personal, movedInto: "Household", scope: .private, in: store)
        }
        #expect(bench.context.zonedTypes(in: personal).isEmpty, "no model lives in the zone that moved")
        try bench.transaction { try ZoneRebuild.queueEverything(of: personal, types: bench.context.zonedTypes(in: personal), in: $0) }
        #expect(try bench.transaction { try $0.recordsWithLocalChanges().records } == [RecordKey("Diary", "not-moved")])
    }

    /// Breaking it: forgetting the server versions of every zone loses Bob's.
    @Test func aZoneThatGoesTakesItsServerStateAlone() throws {
        let bench = try RuleBench(models: [Note.self])
        try bench.transaction { store in
            for zone in [Self.zone, Self.other] {
                try store.setServerRecord(Note(recordName: "n-\(zone.ownerName)", ownerName: zone.ownerName, title: "x").makeRecord(syncZoneName: zone.zoneName))
                try store.setState(SyncStateKeys.zoneToken(zone, .shared), "token")
                try UnreadableRecords.note(RecordID(recordName: "u", zoneID: zone), CloudError(.internalError, "x"), at: bench.clock.now, in: store)
            }
            try ZoneServerState.forget(Self.other, scope: .shared, in: store)
        }
        let (mine, bobs, myToken, bobsToken, unreadable) = try bench.transaction { store in
            (try store.serverRecordIDs(inZone: Self.zone), try store.serverRecordIDs(inZone: Self.other),
             try store.state(SyncStateKeys.zoneToken(Self.zone, .shared)), try store.state(SyncStateKeys.zoneToken(Self.other, .shared)),
             try UnreadableRecords.all(in: store).map(\.id.zoneID))
        }
        #expect(mine.count == 1 && bobs.isEmpty)
        #expect(myToken == "token" && bobsToken == nil)
        #expect(unreadable == [Self.zone])
    }
}
