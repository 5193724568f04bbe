import Foundation
import SyncCore
import SyncPorts

/// What every use case works with.
struct SyncContext: Sendable {
    /// The cloud, as the use cases call it: its failures as `SyncError.cloud`.
    let cloud: CloudRequests
    let store: any LocalStorePort
    let registry: ModelRegistry
    let events: EventHub
    let clock: any SyncClock
    let configuration: SyncConfiguration
    let log: EngineLog
    /// The running pass's bound.
    let passLimits = PassLimits()
    /// The asset cache's files, or why there are none (no durable folder could be found).
    let assetFiles: Result<any AssetFileStoring, AssetError>
    /// The zone moves this device has learned (``ZoneMoves``), which the routing rule follows.
    let zoneMoves = KnownZoneMoves()

    init(
        gateway: any CloudGateway, store: any LocalStorePort, registry: ModelRegistry, events: EventHub, clock: any SyncClock,
        configuration: SyncConfiguration, assetFiles: Result<any AssetFileStoring, AssetError>
    ) {
        self.log = EngineLog(handler: configuration.logHandler)
        self.cloud = CloudRequests(gateway: gateway, log: log, limits: passLimits, spending: RequestSpending(configuration.requestBudget), readOnly: configuration.readOnly, clock: clock)
        self.store = store
        self.registry = registry
        self.events = events
        self.clock = clock
        self.configuration = configuration
        self.assetFiles = assetFiles
    }

    var syncZone: ZoneID { ZoneID(zoneName: configuration.syncZoneName) }

    /// Where records go: the sync zone and the zone moves learned so far.
    var routes: ZoneRoutes { ZoneRoutes(syncZoneName: configuration.syncZoneName, moves: zoneMoves.current) }

    /// The zone a record of `type` owned by `ownerName` lives in: the one routing rule, after
    /// the zone moves learned.
    func zone(of type: any SyncModel.Type, ownerName: String) -> ZoneID {
        routes.zone(scopes: type.syncScopes, zoneName: type.zoneName, ownerName: ownerName)
    }

    /// The user's own zones: the sync zone, and each zone a model names (`SyncModel.zoneName`),
    /// in name order after the sync zone; a zone moved away is replaced by the zone it moved into.
    var ownZones: [ZoneID] {
        let first = routes.resolve(syncZone)
        let named = Set(registry.zonedTypes.map(zoneName(of:))).subtracting([first.zoneName])
        return [first] + named.sorted().map { ZoneID(zoneName: $0) }
    }

    /// Whether this device mirrors `zone` of a database: every shared zone, and each of the user's
    /// private zones the configuration names (`SyncConfiguration.mirroredZones`; nil: all). A
    /// zone named that moved away is mirrored where it moved: its records are there.
    func mirrors(_ zone: ZoneID, in scope: DatabaseScope) -> Bool {
        guard scope == .private, let names = configuration.mirroredZones else { return true }
        let routes = routes
        return names.contains { $0 == zone.zoneName || routes.resolve(ZoneID(zoneName: $0, ownerName: zone.ownerName)) == zone }
    }

    /// The user's own zones this device mirrors.
    var mirroredOwnZones: [ZoneID] {
        ownZones.filter { mirrors($0, in: .private) }
    }

    /// The models whose private or shared records live in `zone` (by its name: the same for
    /// every owner).
    func zonedTypes(in zone: ZoneID) -> [any SyncModel.Type] {
        registry.zonedTypes.filter { zoneName(of: $0) == zone.zoneName }
    }

    /// The models whose records may be shared in `zone`.
    func sharedTypes(in zone: ZoneID) -> [any SyncModel.Type] {
        registry.sharedTypes.filter { zoneName(of: $0) == zone.zoneName }
    }

    /// The zone the user's own records of `type` live in (its `scope` says which database): the
    /// public database's for a `[public]` model, else the user's zone of the model.
    func ownZone(of type: any SyncModel.Type) -> ZoneID {
        zone(of: type, ownerName: SyncConstants.currentUserOwnerName)
    }

    /// The name of the zone `type`'s private and shared records live in, for any owner.
    private func zoneName(of type: any SyncModel.Type) -> String {
        ownZone(of: type).zoneName
    }

    /// Runs `body` in one transaction of the local store.
    func transaction<T>(_ body: (any StoreTransaction) throws -> T) throws(SyncError) -> T {
        try SyncError.reportingStoreFailures { try store.transaction(body) }
    }

    /// Writes as the app (publishing, a participant deleting a shared root).
    func appWrite<T>(_ body: (any ModelWriter) throws -> T) throws(SyncError) -> T {
        try SyncError.reportingStoreFailures { try store.write(author: .app, body) }
    }
}
