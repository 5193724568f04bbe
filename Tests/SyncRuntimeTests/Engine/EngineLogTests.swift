import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// The engine's log (`SyncConfiguration.logHandler`): a pass and its outcome at info, each
/// request with its counts at debug, a conflict and a change set aside at notice, and never a
/// word a user wrote, at any level; record names only as private values.
@Suite("Engine: the log")
struct EngineLogTests {
    /// Keeps every line.
    final class RecordingLog: SyncLogHandler, Sendable {
        private let lines = Locked<[SyncLogEntry]>([])
        var entries: [SyncLogEntry] { lines.withLock { $0 } }
        func log(_ entry: SyncLogEntry) { lines.withLock { $0.append(entry) } }
    }

    static let secret = "Top secret"

    /// A note edited on two devices at once (a conflict), and one too large for any record (set
    /// aside), with words only their user should read. Breaking it (a conflict's values in its
    /// line): the secret title shows in the log; (a record's name as plain text): the redacted
    /// lines name "private-note".
    @Test func linesSayWhatHappenedAndNothingAUserWrote() async throws {
        let world = try SyncWorld()
        let log = RecordingLog()
        let phone = try world.device("alice-phone", account: "alice", configuration: SyncConfiguration(logHandler: log))
        let laptop = try world.device("alice-laptop", account: "alice")
        try await world.conflictAndSetAside(phone: phone, laptop: laptop, name: "private-note", words: Self.secret)

        let entries = log.entries
        let lines = { (level: SyncLogLevel, category: SyncLogCategory) in entries.filter { $0.level == level && $0.category == category }.map(\.message.description) }
        #expect(lines(.info, .pass).contains { $0.hasPrefix("pass started: ") })
        #expect(lines(.info, .pass).contains { $0.hasPrefix("pass completed in ") })
        #expect(lines(.debug, .request).contains { $0.hasPrefix("modify in private: 1 save, 0 deletions, 0 shares: ") })
        #expect(lines(.debug, .request).contains { $0.hasPrefix("changes of <private> in private: ") })
        #expect(lines(.notice, .merges).contains { $0.hasPrefix("conflict on Note <private>, settled field by field: title") })
        #expect(lines(.notice, .changes).contains { $0.hasPrefix("set aside: the save of Note <private> (zone of <private>): the cloud: limitExceeded (27): ") })
        for entry in entries {
            #expect(!entry.message.revealed.contains(Self.secret), "\(entry)")
            #expect(!entry.message.description.contains("private-note") && !entry.message.description.contains("huge"), "\(entry)")
        }
        #expect(entries.contains { $0.message.names.contains { $0.contains("private-note") } })
    }

    /// The default handler: `os.Logger` on Apple platforms, none elsewhere (an app or a tool
    /// installs one).
    @Test func theDefaultHandlerIsThePlatforms() {
        #if canImport(os)
        #expect(SyncConfiguration().logHandler is OSLogHandler)
        #else
        #expect(SyncConfiguration().logHandler == nil)
        #endif
    }

    /// A line shows its names as `<private>`, and reveals them only when asked.
    @Test func namesArePrivateUnlessRevealed() {
        let line: SyncLogMessage = "set aside: Note \(name: "private-note"), \(3) tries"
        #expect(line.description == "set aside: Note <private>, 3 tries")
        #expect(line.revealed == "set aside: Note private-note, 3 tries")
        #expect(line.names == ["private-note"])
    }
}

/// Every log point the events make: each has its level and category, and its redacted line names
/// no record, zone, person or share, nor says what the cloud said. Breaking it (a name
/// interpolated as plain text in an event's line): that line shows it.
@Suite("Engine: every event's log line")
struct EventLogLineTests {
    /// The names the events of `ReadableValuesTests` carry.
    static let names = ["milk", "groceries", "_alice", "_bob", "share-groceries", "Groceries", "read-only share", "offline", "SyncgenZone"]

    @Test func everyEventIsPlacedAndKeepsItsNamesPrivate() {
        var placed = Set<String>()
        for event in ReadableValuesTests.events {
            let (level, category) = EngineLog.placement(of: event)
            placed.insert("\(level) \(category.rawValue)")
            let line = event.logMessage.description
            for name in Self.names {
                #expect(!line.contains(name), "\(event): \(line)")
            }
        }
        #expect(EngineLog.placement(of: .changeSetAside(ReadableValuesTests.change)) == (.notice, .changes))
        #expect(EngineLog.placement(of: .conflictResolved(ReadableValuesTests.id)) == (.notice, .merges))
        #expect(EngineLog.placement(of: .accountChanged(.signedIn("_bob"))) == (.notice, .account))
        #expect(EngineLog.placement(of: .retryScheduled(after: 1, reason: ReadableValuesTests.failure)) == (.notice, .pass))
        #expect(EngineLog.placement(of: .pullProgress(scope: .private, zone: ReadableValuesTests.zone, records: 1, deletions: 0)) == (.debug, .changes))
        #expect(EngineLog.placement(of: .error(ReadableValuesTests.failure)) == (.error, .pass))
        #expect(placed.count >= 8)
    }
}
