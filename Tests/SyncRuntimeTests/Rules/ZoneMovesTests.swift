import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``ZoneMoves`` on its own: how a move is announced (its markers), learned (the first move of a
/// zone stands, kept in the store and routed by at once), and what a copy left in the zone moved
/// out of still is (the ancestor of the record's first version in the target, and never the
/// record once the moved copy is known).
@Suite("Rule: a zone's records moved into another")
struct ZoneMovesTests {
    static let personal = ZoneID(zoneName: "Personal")
    static let household = ZoneID(zoneName: "Household")

    static func version(_ diary: Diary, in zone: ZoneID, tag: String, modifiedAt: Date) -> SyncRecord {
        var record = diary.makeRecord()
        record.id = RecordID(recordName: diary.recordName, zoneID: zone)
        record.changeTag = tag
        record.fields[RecordFieldNames.clientModifiedAt] = .date(modifiedAt)
        return record
    }

    /// Both markers announce the move; the first move learned of a zone stands, in the store and
    /// in the routing; a marker naming a zone CloudKit would refuse announces nothing.
    /// Breaking it (a later marker learned over the first): the zone routes to "Elsewhere".
    @Test func theFirstMoveLearnedOfAZoneStands() throws {
        let bench = try RuleBench(models: [Diary.self])
        let rule = ZoneMoves(context: bench.context)
        let (claim, arrival) = ZoneMoves.markers(moving: Self.personal, into: "Household")
        #expect(claim.id.zoneID == Self.personal && arrival.id.zoneID == Self.household)
        #expect(ZoneMoves.move(in: claim)?.target == "Household" && ZoneMoves.move(in: arrival)?.zone == Self.personal)
        var bad = claim
        bad.fields[RecordFieldNames.zoneMovedInto] = .string("_defaultZone")
        #expect(ZoneMoves.move(in: bad) == nil)

        try bench.transaction { try rule.learn([arrival], scope: .private, in: $0) }
        let (_, elsewhere) = ZoneMoves.markers(moving: Self.personal, into: "Elsewhere")
        try bench.transaction { try rule.learn([elsewhere], scope: .private, in: $0) }
        #expect(bench.context.zone(of: Diary.self, ownerName: SyncConstants.currentUserOwnerName) == Self.household)
        #expect(try bench.transaction { try ZoneMoves.kept(in: $0) } == [Self.personal: "Household"])
    }

    /// The first version of a moved record in the target, met by a device whose unchanged copy is
    /// the one left in the old zone, merges against that copy: the other device's edit wins,
    /// however old its clock. Breaking it (no ancestor for a record never seen in the target): the
    /// merge sees both sides changed the text, and this device's older text wins by its newer
    /// clock.
    @Test func aCopyLeftBehindIsTheAncestorOfTheFirstVersionInTheTarget() throws {
        let bench = try RuleBench(models: [Diary.self])
        let old = Date(timeIntervalSince1970: 1_000)
        let left = Self.version(Diary(recordName: "d", text: "Old"), in: Self.personal, tag: "1", modifiedAt: old)
        _ = try bench.transaction { try CloudVersionArrival(context: bench.context).apply(left, as: Diary.self, in: $0) }
        try bench.transaction { try ZoneMoves(context: bench.context).learn(Self.personal, movedInto: "Household", scope: .private, in: $0) }
        // Queued to move, unchanged: saved again as it is, later than the other device's edit.
        try bench.store.save(Diary(recordName: "d", text: "Old"))
        let moved = Self.version(Diary(recordName: "d", text: "Edited on the laptop"), in: Self.household, tag: "7", modifiedAt: old.addingTimeInterval(1))
        try bench.transaction { _ = try CloudVersionArrival(context: bench.context).apply(moved, as: Diary.self, in: $0, isLocalChange: true) }
        #expect(try bench.store.fetch(Diary.self, recordName: "d")?.text == "Edited on the laptop")
    }

    /// A copy left in a zone that moved is only a copy once its record's moved copy is known:
    /// before that, it is the record. Breaking it (every record of a moved zone called left
    /// behind): a record an old app version saved into the old zone is never applied.
    @Test func aCopyIsLeftBehindOnlyOnceTheMovedCopyIsKnown() throws {
        let bench = try RuleBench(models: [Diary.self])
        let rule = ZoneMoves(context: bench.context)
        let date = Date(timeIntervalSince1970: 1_000)
        let left = Self.version(Diary(recordName: "d", text: "Old"), in: Self.personal, tag: "1", modifiedAt: date)
        #expect(try !bench.transaction { try rule.isLeftBehind(left, in: $0) }, "no move learned")
        try bench.transaction { try rule.learn(Self.personal, movedInto: "Household", scope: .private, in: $0) }
        #expect(try !bench.transaction { try rule.isLeftBehind(left, in: $0) }, "the moved copy is not known")
        let moved = Self.version(Diary(recordName: "d", text: "Old"), in: Self.household, tag: "2", modifiedAt: date)
        try bench.transaction { try $0.setServerRecord(moved) }
        #expect(try bench.transaction { try rule.isLeftBehind(left, in: $0) })
        #expect(try bench.transaction { try rule.copyLeftBehind(of: moved.id, in: $0) } == nil, "the copy was never kept here")
    }

    /// A copy's deletion in a zone that moved waits for a look in the target only while the moved
    /// copy is not known; the model stays, and the record is noted. Breaking it (deferring every
    /// deletion in a moved zone): a copy the move deleted, whose moved copy is known, is looked
    /// up again for nothing.
    @Test func aDeletedCopyIsLookedUpInTheTargetOnlyWhileItsMovedCopyIsUnknown() throws {
        let bench = try RuleBench(models: [Diary.self])
        let rule = ZoneMoves(context: bench.context)
        let date = Date(timeIntervalSince1970: 1_000)
        let left = Self.version(Diary(recordName: "d", text: "Old"), in: Self.personal, tag: "1", modifiedAt: date)
        _ = try bench.transaction { try CloudVersionArrival(context: bench.context).apply(left, as: Diary.self, in: $0) }
        #expect(try !bench.transaction { try rule.deferDeletion(of: left.id, type: Diary.self, in: $0) }, "no move learned")
        try bench.transaction { try rule.learn(Self.personal, movedInto: "Household", scope: .private, in: $0) }
        #expect(try bench.transaction { try rule.deferDeletion(of: left.id, type: Diary.self, in: $0) })
        let moved = RecordID(recordName: "d", zoneID: Self.household)
        #expect(try bench.transaction { try $0.state(SyncStateKeys.movedCopyToCheck(moved)) } == "Diary")
        #expect(try bench.transaction { try $0.serverRecord(left.id) } == nil && bench.store.fetch(Diary.self, recordName: "d") != nil)
        try bench.transaction { try $0.setServerRecord(Self.version(Diary(recordName: "d", text: "Old"), in: Self.household, tag: "2", modifiedAt: date)) }
        #expect(try !bench.transaction { try rule.deferDeletion(of: left.id, type: Diary.self, in: $0) }, "the moved copy is known")
        #expect(SyncStateKeys.movedCopy(inKey: SyncStateKeys.movedCopyToCheck(moved)) == moved)
    }

    /// A record pulled from a zone that moved, with no moved copy known, is queued to move from
    /// here; not one a device sealed (that device moves it), and not one of a zone that did not
    /// move. A seal is told from any save: its upload ID
    /// ends in a word no hexadecimal ID has. Breaking it (a sealed copy queued too): two devices
    /// would move and remove one copy, and the second would take the first's deletion for the
    /// user's.
    @Test func aRecordSavedIntoAMovedZoneIsQueuedUnlessADeviceSealedIt() throws {
        let bench = try RuleBench(models: [Diary.self])
        let rule = ZoneMoves(context: bench.context)
        let date = Date(timeIntervalSince1970: 1_000)
        func pulled(_ name: String, sealedBy device: String? = nil) throws -> SyncRecord {
            var record = Self.version(Diary(recordName: name, text: "Late"), in: Self.personal, tag: "1", modifiedAt: date)
            if let device { record.stampUpload(ZoneMoves.sealID(device: device), over: record) }
            _ = try bench.transaction { try CloudVersionArrival(context: bench.context).apply(record, as: Diary.self, in: $0) }
            try bench.transaction { try rule.moveIfSavedIntoMovedZone(record, type: Diary.self, scope: .private, in: $0) }
            return record
        }
        func queued(_ name: String) throws -> Bool {
            try bench.transaction { try $0.hasLocalChange(recordType: Diary.recordType, recordName: name) }
        }
        _ = try pulled("before")
        #expect(try !queued("before"), "no move learned")
        try bench.transaction { try rule.learn(Self.personal, movedInto: "Household", scope: .private, in: $0) }
        _ = try pulled("late")
        #expect(try queued("late"))
        let sealed = try pulled("sealed", sealedBy: "0A1B2C3D")
        #expect(try !queued("sealed"))
        #expect(ZoneMoves.sealer(of: sealed) == "0A1B2C3D")
        var saved = sealed
        saved.stampUpload(SyncRecord.newUploadID(device: "0A1B2C3D"), over: sealed)
        #expect(ZoneMoves.sealer(of: saved) == nil, "a later save is no seal")
    }
}
