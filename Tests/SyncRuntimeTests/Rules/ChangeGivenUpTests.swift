import Foundation
@testable import SyncEngineKit
import SyncCore
import Testing

/// ``ChangeGivenUp`` on its own: a change set aside, given up, takes the cloud's state, its
/// version or its absence, and is no longer set aside.
@Suite("Rule: a change given up")
struct ChangeGivenUpTests {
    /// Breaking it: leaving the change set aside keeps it in `failedChanges()`; writing nothing
    /// keeps the edit the app gave up.
    @Test func theModelTakesTheCloudsVersionOrGoes() throws {
        for inCloud in [true, false] {
            let bench = try RuleBench(models: [Note.self])
            let cloudVersion = Note(recordName: "n", title: "Cloud").makeRecord(syncZoneName: bench.context.syncZone.zoneName)
            try bench.store.save(Note(recordName: "n", title: "Mine"))
            try bench.transaction { store in
                try store.setAside(FailedChange(
                    recordType: "Note", recordName: "n", ownerName: SyncConstants.currentUserOwnerName, kind: .save,
                    error: CloudError(.permissionFailure), failedAt: bench.clock.now))
                try ChangeGivenUp(context: bench.context).takeCloudState(inCloud ? cloudVersion : nil, of: cloudVersion.id, type: Note.self, in: store)
            }
            #expect(try bench.store.fetch(Note.self, recordName: "n")?.title == (inCloud ? "Cloud" : nil))
            #expect(try bench.transaction { try $0.failedChanges() }.isEmpty)
            #expect(try bench.transaction { try $0.lostChanges() }.isEmpty, "the app gave it up: nothing to tell")
        }
    }

    /// A store holding the cloud's version of note "n" ("Cloud") and the app's edit of it
    /// ("Mine"), waiting.
    static func benchWithAnEditOverTheCloudsVersion() throws -> RuleBench {
        let bench = try RuleBench(models: [Note.self])
        let known = Note(recordName: "n", title: "Cloud").makeRecord(syncZoneName: bench.context.syncZone.zoneName)
        try bench.transaction { store in
            _ = try store.insertPulled(known, as: Note.self)
            try store.setServerRecord(known)
        }
        try bench.store.save(Note(recordName: "n", title: "Mine"))
        return bench
    }

    /// A waiting edit taken back: the known version is written back and nothing waits; a record
    /// never pushed goes; a record with nothing waiting is left as it is. Breaking it (the model
    /// written back, the history kept): the next push sends the edit the app took back.
    @Test func aWaitingChangeTakenBackLeavesTheKnownVersion() throws {
        let bench = try Self.benchWithAnEditOverTheCloudsVersion()
        try bench.store.save(Note(recordName: "new", title: "Never pushed"))
        let rule = ChangeGivenUp(context: bench.context)
        let (edited, created, again) = try bench.transaction { store in
            (try rule.dropWaiting(Note.self, recordName: "n", in: store), try rule.dropWaiting(Note.self, recordName: "new", in: store),
             try rule.dropWaiting(Note.self, recordName: "n", in: store))
        }
        #expect([edited, created, again] == [.dropped, .dropped, .nothingWaiting])
        #expect(try bench.store.fetch(Note.self, recordName: "n")?.title == "Cloud")
        #expect(try bench.store.fetch(Note.self, recordName: "new") == nil)
        #expect(try bench.transaction { try $0.hasUnpushedChanges() } == false)
    }

    /// A read-only engine's store lets every change go: an edited record takes the cloud's
    /// version back, one the cloud never had goes, each counted once however often it changed,
    /// and nothing waits. Breaking it (only the history moved): the edit stays in the store over
    /// the cloud's version.
    @Test func everyChangeIsLetGoForTheCloudsState() throws {
        let bench = try Self.benchWithAnEditOverTheCloudsVersion()
        try bench.store.save(Note(recordName: "n", title: "Mine, again"))
        try bench.store.save(Note(recordName: "new", title: "Never in the cloud"))
        let letGo = try bench.transaction { try ChangeGivenUp(context: bench.context).letGoOfEveryChange(in: $0) }
        #expect(letGo == 2)
        #expect(try bench.store.fetch(Note.self, recordName: "n")?.title == "Cloud")
        #expect(try bench.store.fetch(Note.self, recordName: "new") == nil)
        #expect(try bench.transaction { try $0.hasUnpushedChanges() } == false)
    }

    /// A save of the record whose answer was never read (kept as sent) may be in the cloud: the
    /// waiting change stays. Breaking it (the sent versions not read): the edit is taken back
    /// while the cloud may hold it.
    @Test func aChangeThatMayBeInTheCloudIsNotTakenBack() throws {
        let bench = try RuleBench(models: [Note.self])
        try bench.store.save(Note(recordName: "n", title: "Mine"))
        let sent = Note(recordName: "n", title: "Mine").makeRecord(syncZoneName: bench.context.syncZone.zoneName)
        let answer = try bench.transaction { store in
            try store.noteSent([sent])
            return try ChangeGivenUp(context: bench.context).dropWaiting(Note.self, recordName: "n", in: store)
        }
        #expect(answer == .inFlight)
        #expect(try bench.store.fetch(Note.self, recordName: "n")?.title == "Mine")
        #expect(try bench.transaction { try $0.hasUnpushedChanges() } == true)
    }
}
