import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``LostChanges`` on its own: an event that drops a change is kept in the caller's transaction
/// (so a process killed before the app's handler ran still names it after a restart), and every
/// event is published. Breaking it: publishing without keeping leaves `lostChanges()` empty.
@Suite("Rule: lost changes")
struct LostChangesTests {
    @Test func aDroppedChangeIsKeptAndEveryEventPublished() throws {
        let bench = try RuleBench(models: [Note.self])
        let heard = Locked<[SyncEvent]>([])
        bench.context.events.observe { event in heard.withLock { $0.append(event) } }
        let loss = SyncEvent.changeLostToDeletion(RecordKey("Note", "n"))
        let merged = SyncEvent.duplicatesMerged(RecordKey("Note", "a"), merged: ["b"])
        try bench.transaction { store in
            try LostChanges(context: bench.context).announce(loss, in: store)
            try LostChanges(context: bench.context).announce(merged, in: store)
        }
        let kept = try bench.transaction { try $0.lostChanges() }
        #expect(kept.map(\.event) == [loss] && kept.first?.droppedAt == bench.clock.now)
        #expect(heard.withLock { $0 } == [loss, merged])
    }
}
