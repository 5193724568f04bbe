import Foundation
import Testing
@_spi(SyncgenGenerated) import SyncCore

/// `merge: counter` in the three-way merge (`RecordMerge`): the server's value plus this device's
/// change since the version both started from, whatever the model's policy.
@Suite("Merge: counters")
struct CounterMergeTests {
    static let id = RecordID(recordName: "eggs", zoneID: ZoneID(zoneName: "SyncgenZone"))
    static let rules = MergeRules(policy: .lastWriterWins, fields: ["count": .counter], defaults: ["count": .int64(0)])

    static func shelf(_ count: SyncFieldValue?, at seconds: TimeInterval = 0) -> SyncRecord {
        var record = SyncRecord(recordType: "Shelf", id: id, fields: ["label": .string("Eggs")])
        record.fields["count"] = count
        record.fields[RecordFieldNames.clientModifiedAt] = .date(Date(timeIntervalSince1970: seconds))
        return record
    }

    static func merged(_ base: SyncFieldValue?, _ mine: SyncFieldValue?, _ theirs: SyncFieldValue?, ancestor: Bool = true) -> RecordMerge.Merged {
        RecordMerge.merge(ancestor: ancestor ? shelf(base) : nil, local: shelf(mine, at: 2), server: shelf(theirs, at: 1), rules: rules)
    }

    /// Two devices that each took an egg from twelve end at ten: equal changes are both counted,
    /// and nothing is kept as a conflict. Breaking it (the sides compared before the counter):
    /// 11, the value both wrote.
    @Test func equalChangesOnBothSidesAreBothCounted() {
        let merge = Self.merged(.int64(12), .int64(11), .int64(11))
        #expect(merge.record.fields["count"] == .int64(10))
        #expect(merge.conflicts.isEmpty)
        #expect(Self.merged(.int64(12), .int64(12), .int64(7)).record.fields["count"] == .int64(7), "only the server changed")
        #expect(Self.merged(.int64(12), .int64(15), .int64(12)).record.fields["count"] == .int64(15), "only this device changed")
    }

    /// Without a version both started from (two copies made apart, merged by their natural key),
    /// each side's value is its change from zero: they add up. A side without a value counts as
    /// the field's default.
    @Test func withoutAnAncestorBothValuesAddUp() {
        #expect(Self.merged(nil, .int64(3), .int64(4), ancestor: false).record.fields["count"] == .int64(7))
        #expect(Self.merged(nil, .int64(5), .int64(2)).record.fields["count"] == .int64(7), "an older version's record had no count: zero")
    }

    /// An int counter never wraps: a sum past Int64's range keeps the server's value, and the
    /// conflict is kept for review. Breaking it (`&+`): a huge negative count.
    @Test func anIntThatWouldOverflowKeepsTheServersValueAndTheConflict() {
        let merge = Self.merged(.int64(0), .int64(.max), .int64(1))
        #expect(merge.record.fields["count"] == .int64(1))
        #expect(merge.conflicts.map(\.field) == ["count"])
    }

    /// A double counter adds in floating point: the merged value is the server's plus this
    /// device's change, exact to the last digit only as floating point is.
    @Test func aDoubleCounterAddsItsChange() {
        let merge = Self.merged(.double(1.5), .double(2.0), .double(0.25))
        #expect(merge.record.fields["count"] == .double(0.75))
    }
}
