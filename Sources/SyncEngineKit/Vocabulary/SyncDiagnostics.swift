import Foundation
import SyncCore
import SyncPorts

/// Where sync stands on this device, in one `Codable` value a support screen can show and an app
/// can attach to a bug report (`SyncEngine.diagnostics()`), or the inspector reads from a store
/// file (`syncgen-inspect`): what waits to go up, what was set aside and why, each zone's last
/// pull, parked work, recent conflicts, catalogs, the asset cache, and, from a running engine,
/// its status, recent trouble and configuration.
///
/// It holds records' types and names, never what a user wrote: a conflict names the fields it
/// settled, and their values only when asked (`includingContents`).
public struct SyncDiagnostics: Sendable, Hashable, Codable {
    /// When the snapshot was taken.
    public var takenAt: Date
    /// The user record name the store's data belongs to; nil when none signed in.
    public var account: String?
    /// Each zone the device follows, with when a page of it was last applied.
    public var zones: [Zone]
    /// Records whose change waits to be pushed, by record type (set-aside ones not counted).
    public var pendingChanges: [String: Int]
    /// Changes the cloud refused for good, with its error.
    public var setAside: [SetAsideChange]
    /// Records the cloud listed but could not deliver.
    public var unreadableRecords: [UnreadableRecordNote]
    /// Unpushed changes of accounts that signed out, waiting for them.
    public var parked: [ParkedChanges]
    /// Share acceptances waiting for a pass to complete them.
    public var pendingAcceptances: Int
    /// The newest conflicts sync settled, newest first.
    public var recentConflicts: [Conflict]
    /// Each catalog (public model) refreshed or asked for.
    public var catalogs: [Catalog]
    /// The asset cache's files.
    public var assetCache: AssetCache
    /// The running engine: nil when read from a store file.
    public var engine: Engine?

    /// A zone the device follows.
    public struct Zone: Sendable, Hashable, Codable {
        /// The database the zone is read from.
        public var scope: DatabaseScope
        /// The zone's name.
        public var zoneName: String
        /// Its owner: `__defaultOwner__` for the user's own, a user record name for a share's.
        public var ownerName: String
        /// Whether the device holds a change token for it (none: the next pull reads it whole).
        public var hasToken: Bool
        /// When a page of it was last applied; nil before the first since this was recorded.
        public var lastPulledAt: Date?
        /// The server said it changed, and this device has not fetched those changes to their
        /// end yet (a pass left it out, or stopped before its last page): CloudKit's
        /// `zoneIDsWithUnfetchedServerChanges`.
        public var hasUnfetchedChanges = false
        /// The zone its records moved into (`SyncEngine.moveZone(_:into:)`), once this device
        /// learned the move; nil for a zone that did not move.
        public var movedInto: String?
    }

    /// A change set aside.
    public struct SetAsideChange: Sendable, Hashable, Codable {
        /// The record's type.
        public var recordType: String
        /// The record's name.
        public var recordName: String
        /// The owner of the zone the change was for.
        public var ownerName: String
        /// "save" or "deletion".
        public var kind: String
        /// The cloud's error, as CloudKit numbers it.
        public var errorCode: Int
        /// What the cloud said.
        public var error: String
        /// When the change was set aside.
        public var failedAt: Date
    }

    /// A record the cloud could not deliver.
    public struct UnreadableRecordNote: Sendable, Hashable, Codable {
        /// The record's name.
        public var recordName: String
        /// Its zone.
        public var zone: String
        /// The cloud's error, as CloudKit numbers it.
        public var errorCode: Int
        /// How many fetches of it by name failed.
        public var failedFetches: Int
        /// Whether it is set aside (asked for again only when the app says so).
        public var isSetAside: Bool
        /// Whether it was set aside at once, with no fetch: it holds what this app version
        /// cannot read.
        public var isUnreadableByThisVersion: Bool
    }

    /// A conflict sync settled: the fields, and their values when contents were asked for.
    public struct Conflict: Sendable, Hashable, Codable {
        /// The record's type.
        public var recordType: String
        /// The record's name.
        public var recordName: String
        /// When sync settled it.
        public var resolvedAt: Date
        /// The fields it settled.
        public var fields: [String]
        /// Each field's values (ancestor, local, server, resolved), only `includingContents`.
        public var values: [String: [String]]?
    }

    /// A catalog.
    public struct Catalog: Sendable, Hashable, Codable {
        /// The public model's record type.
        public var recordType: String
        /// When a refresh of it last ran to its end.
        public var lastRefreshedAt: Date?
        /// Whether a refresh is asked for and not done yet.
        public var refreshRequested: Bool
    }

    /// The asset cache.
    public struct AssetCache: Sendable, Hashable, Codable {
        /// How many files are in each state (`AssetCacheState`).
        public var entriesByState: [String: Int]
        /// The bytes of the files on this device.
        public var bytesOnDevice: Int64
        /// The budget eviction keeps the cache under; nil when read from a file.
        public var limit: Int64?
    }

    /// The running engine.
    public struct Engine: Sendable, Hashable, Codable {
        /// `EngineStatus`, as it reads.
        public var status: String
        /// When a pass last completed.
        public var lastCompletedPass: Date?
        /// Whether the engine waits for the network.
        public var isOffline: Bool
        /// The newest errors, retries and waits, newest last.
        public var recentTrouble: [Trouble]
        /// The configuration, as it reads.
        public var configuration: [String: String]
    }

    /// An error, retry or wait the engine met.
    public struct Trouble: Sendable, Hashable, Codable {
        /// When, by the engine's clock.
        public var at: Date
        /// The event, as it reads.
        public var what: String
    }
}
