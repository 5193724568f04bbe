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

extension SyncDiagnostics {
    /// What the store says, read in one transaction: the part a store file gives without the
    /// engine that wrote it.
    package static func read(from store: any LocalStorePort, at now: Date, includingContents: Bool) throws -> SyncDiagnostics {
        try store.transaction { store in
            let failed = try store.failedChanges()
            var pending: [String: Int] = [:]
            for key in try pendingRecords(in: store, besides: failed) { pending[key.recordType, default: 0] += 1 }
            var entries: [String: Int] = [:]
            for entry in try store.assetEntries(in: nil) { entries[entry.state.rawValue, default: 0] += 1 }
            return SyncDiagnostics(
                takenAt: now,
                account: try store.state(SyncStateKeys.account),
                zones: try zones(in: store),
                pendingChanges: pending,
                setAside: failed.map {
                    SetAsideChange(
                        recordType: $0.recordType, recordName: $0.recordName, ownerName: $0.ownerName, kind: "\($0.kind)",
                        errorCode: $0.error.cloudKitCode, error: $0.error.message, failedAt: $0.failedAt)
                },
                unreadableRecords: try UnreadableRecords.all(in: store).map {
                    UnreadableRecordNote(
                        recordName: $0.id.recordName, zone: "\($0.id.zoneID)", errorCode: $0.error.cloudKitCode, failedFetches: $0.failedFetches,
                        isSetAside: $0.isSetAside, isUnreadableByThisVersion: $0.isUnreadableByThisVersion)
                },
                parked: try store.parkedChanges(),
                pendingAcceptances: try store.stateKeys(prefix: SyncStateKeys.pendingAcceptancePrefix).count,
                recentConflicts: try store.recentConflicts(limit: 20).map { conflict($0, includingContents: includingContents) },
                catalogs: try catalogs(in: store),
                assetCache: AssetCache(entriesByState: entries, bytesOnDevice: try store.cachedAssetBytes(), limit: nil),
                engine: nil)
        }
    }

    /// The records whose change waits to be pushed: changed here, and not among `setAside` (the
    /// store's set-aside changes, read by the caller in the same transaction), by type and name.
    package static func pendingRecords(in store: any StoreTransaction, besides setAside: [FailedChange]) throws -> [RecordKey] {
        let setAsideKeys = Set(setAside.map { RecordKey($0.recordType, $0.recordName) })
        return try store.recordsWithLocalChanges().records.subtracting(setAsideKeys)
            .sorted { ($0.recordType, $0.recordName) < ($1.recordType, $1.recordName) }
    }

    private static func zones(in store: any StoreTransaction) throws -> [Zone] {
        var zones: [String: Zone] = [:]
        for key in try store.stateKeys(prefix: SyncStateKeys.zoneTokenPrefix) {
            guard let (zone, scope) = SyncStateKeys.zone(inKey: key, after: SyncStateKeys.zoneTokenPrefix) else { continue }
            zones["\(scope.rawValue) \(zone)"] = Zone(scope: scope, zoneName: zone.zoneName, ownerName: zone.ownerName, hasToken: true, lastPulledAt: nil)
        }
        for key in try store.stateKeys(prefix: SyncStateKeys.zonePulledPrefix) {
            guard let (zone, scope) = SyncStateKeys.zone(inKey: key, after: SyncStateKeys.zonePulledPrefix) else { continue }
            let pulledAt = try store.state(key).flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:))
            zones["\(scope.rawValue) \(zone)", default: Zone(scope: scope, zoneName: zone.zoneName, ownerName: zone.ownerName, hasToken: false)].lastPulledAt = pulledAt
        }
        return zones.sorted { $0.key < $1.key }.map(\.value)
    }

    private static func catalogs(in store: any StoreTransaction) throws -> [Catalog] {
        var catalogs: [String: Catalog] = [:]
        for key in try store.stateKeys(prefix: SyncStateKeys.catalogRefreshedPrefix) {
            let type = String(key.dropFirst(SyncStateKeys.catalogRefreshedPrefix.count))
            let refreshed = try store.state(key).flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:))
            catalogs[type] = Catalog(recordType: type, lastRefreshedAt: refreshed, refreshRequested: false)
        }
        for key in try store.stateKeys(prefix: SyncStateKeys.catalogRequestedPrefix) {
            let type = String(key.dropFirst(SyncStateKeys.catalogRequestedPrefix.count))
            catalogs[type, default: Catalog(recordType: type, lastRefreshedAt: nil, refreshRequested: false)].refreshRequested = true
        }
        return catalogs.sorted { $0.key < $1.key }.map(\.value)
    }

    private static func conflict(_ conflict: RecordConflict, includingContents: Bool) -> Conflict {
        let values = includingContents
            ? Dictionary(uniqueKeysWithValues: conflict.fields.map { field in
                (field.field, [field.ancestor, field.local, field.server, field.resolved].map { $0.map { "\($0)" } ?? "none" })
            })
            : nil
        return Conflict(
            recordType: conflict.recordType, recordName: conflict.recordID.recordName, resolvedAt: conflict.resolvedAt,
            fields: conflict.fields.map(\.field), values: values)
    }
}

extension SyncDiagnostics.Zone {
    init(scope: DatabaseScope, zoneName: String, ownerName: String, hasToken: Bool) {
        self.init(scope: scope, zoneName: zoneName, ownerName: ownerName, hasToken: hasToken, lastPulledAt: nil)
    }
}
