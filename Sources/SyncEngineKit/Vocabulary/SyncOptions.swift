import Foundation
import SyncCore

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
    /// The zones a pull reads (the user's own: `ZoneID(zoneName:)`; a share's: its owner's); nil:
    /// every zone. A zone left out keeps its changes for a later pass: the database's place in
    /// its feed is not moved past them.
    public var zones: Set<ZoneID>?
    /// The public models whose catalogs a pull refreshes, by record type; nil: every one due.
    public var catalogTypes: Set<String>?

    /// A pass; by default a whole one, without a deadline.
    public init(
        pull: Bool = true, push: Bool = true, transferAssets: Bool = true, deadline: Date? = nil, zones: Set<ZoneID>? = nil,
        catalogTypes: Set<String>? = nil
    ) {
        self.pull = pull
        self.push = push
        self.transferAssets = transferAssets
        self.deadline = deadline
        self.zones = zones
        self.catalogTypes = catalogTypes
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
            deadline: [deadline, other.deadline].compactMap { $0 }.min(), zones: Self.union(zones, other.zones),
            catalogTypes: Self.union(catalogTypes, other.catalogTypes))
    }

    /// Both selections; nil (everything) wins.
    private static func union<Element>(_ left: Set<Element>?, _ right: Set<Element>?) -> Set<Element>? {
        guard let left, let right else { return nil }
        return left.union(right)
    }
}
