import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``PublicCopies`` on its own: a server query's pages kept, and the type's kept copies beyond
/// the app's retention evicted, oldest first, never one of the page being kept nor one with a
/// change of this device's still to go up.
@Suite("Rule: public copies kept")
struct PublicCopiesTests {
    /// Breaking it: evicting a copy with a change still to go up loses the user's edit of "p2".
    @Test func keptPagesAreEvictedBeyondTheRetentionButNeverAChange() throws {
        let bench = try RuleBench(models: [PublishedNote.self])
        let rule = PublicCopies(context: bench.context)
        let keepOne = ResultRetention(maximumCount: 1, maximumAge: nil)
        func page(_ names: [String]) -> [SyncRecord] { names.map { PublishedNote(recordName: $0, title: $0).makeRecord() } }
        let start = bench.clock.now
        try bench.transaction { try rule.keep(page(["p1"]), as: PublishedNote.self, from: SyncConstants.publicZone, retention: keepOne, now: start, in: $0) }
        try bench.transaction { try rule.keep(page(["p2"]), as: PublishedNote.self, from: SyncConstants.publicZone, retention: keepOne, now: start.addingTimeInterval(1), in: $0) }
        #expect(try bench.store.fetchAll(PublishedNote.self).map(\.recordName) == ["p2"], "p1 evicted")

        var edited = try #require(try bench.store.fetch(PublishedNote.self, recordName: "p2"))
        edited.title = "mine"
        try bench.store.save(edited)
        try bench.transaction { try rule.keep(page(["p3"]), as: PublishedNote.self, from: SyncConstants.publicZone, retention: keepOne, now: start.addingTimeInterval(2), in: $0) }
        #expect(try bench.store.fetchAll(PublishedNote.self).map(\.recordName) == ["p2", "p3"])
        #expect(try bench.store.fetch(PublishedNote.self, recordName: "p2")?.title == "mine")
    }
}
