import Foundation
@testable import SyncEngineKit
import SyncCore
import SyncPorts
import Testing

/// ``UnreadableRecords`` on its own, over an in-memory transaction: what the store keeps of the
/// records pages could not deliver, across "relaunches" (each step its own transaction).
@Suite("Rule: unreadable records")
struct UnreadableRecordsTests {
    static let zone = ZoneID(zoneName: "SyncgenZone")
    static let id = RecordID(recordName: "r", zoneID: zone)

    /// A record noted keeps its first failure's time when noted again; failed fetches count up
    /// until it is set aside; the app's retry asks for it again from zero; a version that arrives
    /// (or the zone going) forgets it. Breaking it: `note` dating the record from the latest page
    /// fails the first expectation on the time.
    @Test func aRecordIsKeptCountedSetAsideAndForgotten() throws {
        let bench = try RuleBench(models: [])
        let start = bench.clock.now
        let error = CloudError(.internalError, "not delivered")
        try bench.transaction { try UnreadableRecords.note(Self.id, error, at: start, in: $0) }
        try bench.transaction { try UnreadableRecords.note(Self.id, error, at: start.addingTimeInterval(60), in: $0) }
        var kept = try #require(try bench.transaction { try UnreadableRecords.all(in: $0) }.first)
        #expect(kept.firstFailedAt == start && kept.failedFetches == 0 && !kept.isSetAside)
        for _ in 0..<UnreadableRecord.fetchesBeforeSetAside {
            kept = try bench.transaction { try UnreadableRecords.fetchFailed(kept, error, in: $0) }
        }
        #expect(try bench.transaction { try UnreadableRecords.all(in: $0) }.first?.isSetAside == true)
        try bench.transaction { try UnreadableRecords.retrySetAside(in: $0) }
        let retried = try #require(try bench.transaction { try UnreadableRecords.all(in: $0) }.first)
        #expect(retried.failedFetches == 0 && !retried.isSetAside)
        try bench.transaction { try UnreadableRecords.forget(Self.id, in: $0) }
        #expect(try bench.transaction { try UnreadableRecords.all(in: $0) }.isEmpty)

        let other = RecordID(recordName: "s", zoneID: ZoneID(zoneName: "Other"))
        try bench.transaction { store in
            _ = try UnreadableRecords.setAside(Self.id, error, at: start, in: store)
            try UnreadableRecords.note(other, error, at: start, in: store)
            try UnreadableRecords.forget(zone: Self.zone, in: store)
        }
        #expect(try bench.transaction { try UnreadableRecords.all(in: $0) }.map(\.id) == [other], "the zone's records go with it")
    }

    /// A record this app's model cannot read (text in an int field) is named with the field;
    /// one it can read is no problem.
    @Test func aRecordThisModelCannotReadIsNamed() {
        var record = Note(recordName: "n", title: "Hello").makeRecord()
        #expect(UnreadableRecords.problem(reading: record, as: Note.self) == nil)
        record.fields["pinned"] = .string("yes")
        let problem = UnreadableRecords.problem(reading: record, as: Note.self)
        #expect(problem?.message.contains("pinned") == true)
    }
}
