import Foundation
import SyncCore

/// What `SyncStore(healing:)` did with a store it could not open as it was: kept by the store
/// until the app acknowledges it (`acknowledgeRecoveries()`), so a process killed before it told
/// the user still has it at its next launch.
public struct StoreRecovery: Sendable, Hashable, CustomStringConvertible {
    /// How the store came back.
    public enum Outcome: String, Sendable, Hashable {
        /// SQLite found the file damaged: it was moved aside (`damagedFile`), and a new store was
        /// made in its place, to be filled from the cloud by the next sync pass, with the changes
        /// of the app the damaged file still held unpushed carried into it.
        case rebuilt
        /// The store could not be opened or made at all: this session runs in memory, and what it
        /// holds is gone when the process ends (its changes reach the cloud as usual, if a pass
        /// runs). The file, if any, was left as it was.
        case inMemory
    }

    /// Whether the store was rebuilt or runs in memory.
    public var outcome: Outcome
    /// What was wrong, as SQLite or the file system said it.
    public var problem: String
    /// Where the damaged file was moved, kept for support (its log and index beside it, with the
    /// same name and `-wal`, `-shm`); nil in memory.
    public var damagedFile: URL?
    /// The app's changes read out of the damaged file and queued again: the next pass pushes
    /// them, merged with what the cloud holds by then.
    public var recovered: [RecordKey]
    /// What could not be read out of the damaged file, each saying what and why; empty when
    /// every change waiting in it was recovered.
    public var notRecovered: [String]
    /// When it happened (the store's clock).
    public var date: Date

    /// A report (the store writes its own; tests and previews make one).
    public init(outcome: Outcome, problem: String, damagedFile: URL?, recovered: [RecordKey], notRecovered: [String], date: Date) {
        self.outcome = outcome
        self.problem = problem
        self.damagedFile = damagedFile
        self.recovered = recovered
        self.notRecovered = notRecovered
        self.date = date
    }

    public var description: String {
        switch outcome {
        case .inMemory:
            return "the store runs in memory for this session: \(problem)"
        case .rebuilt:
            let kept = damagedFile.map { " (the damaged file is kept at \($0.path))" } ?? ""
            let lost = notRecovered.isEmpty ? "" : "; not recovered: " + notRecovered.joined(separator: "; ")
            return "the store was rebuilt: \(problem)\(kept); \(recovered.count) unpushed changes recovered\(lost)"
        }
    }
}
