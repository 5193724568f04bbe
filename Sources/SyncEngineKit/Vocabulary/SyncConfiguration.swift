import Foundation
import SyncCore

/// How an engine syncs: fixed when it is built, never changed behind its back.
public struct SyncConfiguration: Sendable {
    /// The custom zone private and shared records live in.
    public var syncZoneName: String
    /// How fields both sides changed are settled, per record type; others use the default.
    public var conflictPolicies: [String: ConflictPolicy]
    /// How fields both sides changed are settled for record types `conflictPolicies` does not name.
    public var defaultConflictPolicy: ConflictPolicy
    /// Records per page of zone changes (nil: the cloud's default).
    public var zoneChangesPageSize: Int?
    /// Largest modify request the engine sends (CloudKit's limit by default).
    public var maxRequestBytes: Int
    /// How long app writes settle before a sync starts.
    public var debounce: TimeInterval
    /// Subscription IDs start with this.
    public var subscriptionPrefix: String
    /// After setup, upload every local model the cloud has no version of, whatever the history
    /// says (each into its own database, in waves of parent depth): for a store filled before
    /// syncing was turned on. At run time: `SyncEngine.uploadEverything()`.
    public var uploadEverythingOnSetup: Bool
    /// The folder asset files are cached in. nil: a durable folder of the system's
    /// (`AssetCacheLocation.defaultRoot`), never a temporary one.
    public var assetCacheRoot: URL?
    /// The cache's size budget in bytes: beyond it, the least recently read files that are in the
    /// cloud and not pinned are evicted (they can be downloaded again). By default the
    /// platform's (`DevicePlatform.defaultAssetCacheLimit`: 64 MB on a watch, 2 GB on a Mac).
    public var assetCacheLimit: Int64
    /// How old a public catalog may grow before a pass queries it again by itself (an hour by
    /// default); nil: only when its query subscription fires or the app calls
    /// `SyncEngine.refreshCatalogs()`. A catalog never synced is queried by the first pass.
    public var catalogMaximumAge: TimeInterval?
    /// The public catalogs this device copies whole, by record type; nil: every one. A catalog
    /// left out is never pulled, watched or refreshed here: the device reads it only by server
    /// queries (`SyncEngine.query`), holding the pages it asks for and keeping those the app asks
    /// to keep. Whether a catalog is too large to mirror depends on the device (a watch may query
    /// what a Mac mirrors), so it is configuration, not schema.
    public var mirroredCatalogs: Set<String>?
    /// Public records the device keeps by their names (`FollowedRecord`: a remote configuration),
    /// read by name when due, whether or not their type's catalog is mirrored. None by default.
    public var followedRecords: [FollowedRecord]
    /// The zones of the user's private database this device mirrors, by name (the sync zone's
    /// and those the schema's `zone:` names); nil: every one. A zone left out is never pulled
    /// here: the device reads its records on demand (`SyncEngine.query`, `SyncEngine.record`),
    /// keeping what the app asks to keep, and still pushes what it saves there. A zone dropped
    /// from the set is forgotten on this device (never deleted in the cloud); one added is pulled
    /// from its start. Zones others share with the user are always mirrored.
    public var mirroredZones: Set<String>?
    /// How many settled conflicts the store keeps, and for how long (`RecordConflict`).
    public var conflictRetention: ConflictRetention
    /// The device conditions under which a pass holds asset uploads and downloads back (record
    /// changes still go), read through the reachability: every one by default (Low Power Mode,
    /// Low Data Mode, a network paid for by use, heat); empty, transfers never wait. The app's own
    /// `SyncEngine.transferAssets()` does not wait.
    public var assetTransfersWaitFor: Set<DeviceCondition>
    /// A reader of another app's public data: the engine reads its container's public database
    /// (catalogs, followed records, server queries, files asked for) and writes nothing there,
    /// no zone, subscription, record or file; the app's own writes to its store are never sent.
    /// False by default.
    public var readOnly: Bool
    /// A limit on the requests that write each database (`RequestBudget`); none by default
    /// (CloudKit's own rate limit still holds).
    public var requestBudget: RequestBudget?
    /// Where the engine's log goes: `os.Logger` on Apple platforms by default
    /// (`SyncLog.platformDefault`), nowhere elsewhere unless the app installs a handler
    /// (`StandardErrorLogHandler`, or its own). Never record contents; names marked private.
    public var logHandler: (any SyncLogHandler)?

    /// A configuration; every value has a default, so an app names only what it changes.
    public init(
        syncZoneName: String = SyncConstants.defaultSyncZoneName, conflictPolicies: [String: ConflictPolicy] = [:],
        defaultConflictPolicy: ConflictPolicy = .lastWriterWins, zoneChangesPageSize: Int? = nil,
        maxRequestBytes: Int = CloudKitLimits.maxRequestBytes, debounce: TimeInterval = 0.5, subscriptionPrefix: String = "syncgen",
        uploadEverythingOnSetup: Bool = false, assetCacheRoot: URL? = nil, assetCacheLimit: Int64 = DevicePlatform.current.defaultAssetCacheLimit,
        catalogMaximumAge: TimeInterval? = 3600, mirroredCatalogs: Set<String>? = nil, followedRecords: [FollowedRecord] = [], mirroredZones: Set<String>? = nil, conflictRetention: ConflictRetention = ConflictRetention(),
        assetTransfersWaitFor: Set<DeviceCondition> = Set(DeviceCondition.allCases), requestBudget: RequestBudget? = nil, readOnly: Bool = false, logHandler: (any SyncLogHandler)? = SyncLog.platformDefault
    ) {
        self.syncZoneName = syncZoneName
        self.conflictPolicies = conflictPolicies
        self.defaultConflictPolicy = defaultConflictPolicy
        self.zoneChangesPageSize = zoneChangesPageSize
        self.maxRequestBytes = maxRequestBytes
        self.debounce = debounce
        self.subscriptionPrefix = subscriptionPrefix
        self.uploadEverythingOnSetup = uploadEverythingOnSetup
        self.assetCacheRoot = assetCacheRoot
        self.assetCacheLimit = assetCacheLimit
        self.catalogMaximumAge = catalogMaximumAge
        self.mirroredCatalogs = mirroredCatalogs
        self.followedRecords = followedRecords
        self.mirroredZones = mirroredZones
        self.conflictRetention = conflictRetention
        self.assetTransfersWaitFor = assetTransfersWaitFor
        self.requestBudget = requestBudget
        self.readOnly = readOnly
        self.logHandler = logHandler
    }

    /// The conditions of `now` that hold asset transfers back (`assetTransfersWaitFor`).
    func conditionsHoldingAssetTransfers(_ now: DeviceConditions) -> Set<DeviceCondition> {
        assetTransfersWaitFor.intersection(now.conditions)
    }

    /// The policy of a model's fields that state none: the configuration's for its record type,
    /// else the model's own (the schema's `merge:`), else the configuration's default.
    func conflictPolicy(for type: any SyncModel.Type) -> ConflictPolicy {
        conflictPolicies[type.recordType] ?? type.conflictPolicy ?? defaultConflictPolicy
    }

    /// The configuration as a diagnostics snapshot shows it.
    var diagnosticsDescription: [String: String] {
        [
            "syncZoneName": syncZoneName,
            "defaultConflictPolicy": "\(defaultConflictPolicy)",
            "conflictPolicies": conflictPolicies.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "),
            "zoneChangesPageSize": zoneChangesPageSize.map(String.init) ?? "the cloud's",
            "maxRequestBytes": "\(maxRequestBytes)",
            "debounce": "\(debounce)",
            "assetCacheLimit": "\(assetCacheLimit)",
            "catalogMaximumAge": catalogMaximumAge.map { "\($0)" } ?? "none",
            "mirroredCatalogs": mirroredCatalogs.map { $0.sorted().joined(separator: ", ") } ?? "all",
            "followedRecords": followedRecords.map { "\($0.recordType) \($0.recordName)" }.joined(separator: ", "),
            "mirroredZones": mirroredZones.map { $0.sorted().joined(separator: ", ") } ?? "all",
            "conflictRetention": "\(conflictRetention.maximumCount) conflicts, \(conflictRetention.maximumAge.map { "\($0) s" } ?? "no age limit")",
            "requestBudget": requestBudget.map { "\($0.requests) requests that write a database in \($0.interval) s" } ?? "none",
            "readOnly": "\(readOnly)",
            "logHandler": logHandler.map { "\(type(of: $0))" } ?? "none",
        ]
    }
}
