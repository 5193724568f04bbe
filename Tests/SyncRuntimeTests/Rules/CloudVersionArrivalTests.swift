import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``CloudVersionArrival`` on its own, in the transaction that records the version: with no
/// change of the app's, the model takes the server's version; with one, the model is the
/// three-way merge of the known version, the model and the server's, and the server version
/// becomes the known one either way.
@Suite("Rule: a cloud version arriving")
struct CloudVersionArrivalTests {
    static func version(_ note: Note, tag: String) -> SyncRecord {
        var record = note.makeRecord()
        record.changeTag = tag
        return record
    }

    /// Breaking it: taking the server's version whole over a change of the app's loses the
    /// pinned flag the app set (the merge keeps both sides' fields).
    @Test func aVersionIsTakenOrMergedWithTheAppsChange() throws {
        let bench = try RuleBench(models: [Note.self])
        let rule = CloudVersionArrival(context: bench.context)
        let first = Self.version(Note(recordName: "n", title: "Milk"), tag: "1")
        let applied = try bench.transaction { try rule.apply(first, as: Note.self, in: $0) }
        #expect(!applied.merged)
        #expect(try bench.store.fetch(Note.self, recordName: "n")?.title == "Milk")
        #expect(try bench.transaction { try CloudVersionArrival.holds(first, type: Note.self, in: $0) }, "known at its tag")

        // The app pins the note; the cloud's next version renames it.
        var pinned = try #require(try bench.store.fetch(Note.self, recordName: "n"))
        pinned.pinned = true
        try bench.store.save(pinned)
        let renamed = Self.version(Note(recordName: "n", title: "Oat milk"), tag: "2")
        let merged = try bench.transaction { try rule.apply(renamed, as: Note.self, in: $0) }
        #expect(merged.merged)
        let note = try #require(try bench.store.fetch(Note.self, recordName: "n"))
        #expect(note.title == "Oat milk" && note.pinned)
        #expect(try bench.transaction { try $0.serverChangeTag(renamed.id) } == .some("2"), "the known version moves on")
        #expect(try bench.transaction { try $0.recordsWithLocalChanges().records } == [RecordKey("Note", "n")], "the change still goes up")
    }
}
