import Foundation

/// What one pass does (`SyncEngine.sync(_:)`): by default everything, as long as it takes.
public struct SyncOptions: Sendable, Hashable {
    /// Fetch the cloud's changes (zones, shares, public catalogs).
    public var pull: Bool
    /// Send this device's changes (and settle natural-key duplicates, which sends too).
    public var push: Bool
    /// Upload and download asset files.
    public var transferAssets: Bool
    /// When the pass must be done by, by the engine's clock: it starts no request after it, and
    /// ends `.stopped` with what it had done committed (a background task's window:
    /// `BGAppRefreshTask`, `BGProcessingTask`, `beginBackgroundTask`). Nil: no bound.
    public var deadline: Date?

    /// A pass; by default a whole one, without a deadline.
    public init(pull: Bool = true, push: Bool = true, transferAssets: Bool = true, deadline: Date? = nil) {
        self.pull = pull
        self.push = push
        self.transferAssets = transferAssets
        self.deadline = deadline
    }

    /// A whole pass.
    public static let all = SyncOptions()
    /// Only the cloud's changes: nothing is sent, no file moves.
    public static let fetchOnly = SyncOptions(push: false, transferAssets: false)
    /// Only this device's changes and their files: nothing is fetched (the app moving to the
    /// background, with a deadline).
    public static let sendOnly = SyncOptions(pull: false)

    /// The same pass, bounded by `deadline`.
    public func until(_ deadline: Date) -> SyncOptions {
        var bounded = self
        bounded.deadline = deadline
        return bounded
    }

    /// One pass for several callers: everything any asks for, bounded by the earliest deadline
    /// (a caller with a background window is never kept past it).
    func merged(with other: SyncOptions) -> SyncOptions {
        SyncOptions(
            pull: pull || other.pull, push: push || other.push, transferAssets: transferAssets || other.transferAssets,
            deadline: [deadline, other.deadline].compactMap { $0 }.min())
    }
}
