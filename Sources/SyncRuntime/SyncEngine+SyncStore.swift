import Foundation
import SyncCore
import SyncEngineKit
import SyncLocalStore
import SyncPorts

// The engine's public initialisers: the engine over the SQLite store and, unless told otherwise,
// the file system's asset cache. They live here, where the engine and the store meet, so that the
// engine module itself sees the store only through its ports.
extension SyncEngine {
    /// An engine for the generated schema's models (`SyncSchema.self`): the common case.
    ///
    /// - Parameters:
    ///   - store: the local store the app reads and writes (`SyncStore`).
    ///   - cloud: a LocalCloud device, or the CloudKit gateway on Apple platforms.
    ///   - clock: the time every retry waits on and every save is stamped with (tests inject one).
    ///   - configuration: the zone name, conflict policies, paging, debounce, asset cache; fixed.
    ///   - assetFiles: replaces the file system cache under `configuration.assetCacheRoot`.
    ///   - reachability: whether the network is there, so a running engine passes as soon as it
    ///     comes back (the system's path monitor on Apple platforms; none elsewhere).
    public init(
        store: SyncStore, cloud: any CloudGateway, schema: any SyncSchemaDefinition.Type,
        clock: any SyncClock = SystemClock(), configuration: SyncConfiguration = SyncConfiguration(),
        assetFiles: (any AssetFileStoring)? = nil, reachability: (any NetworkReachability)? = PlatformReachability.default
    ) {
        self.init(
            store: store, cloud: cloud, models: schema.models, clock: clock, configuration: configuration, assetFiles: assetFiles,
            reachability: reachability)
    }

    /// An engine for a list of models (a part of a schema, or hand-written models); otherwise as
    /// `init(store:cloud:schema:clock:configuration:assetFiles:)`.
    public init(
        store: SyncStore, cloud: any CloudGateway, models: [any SyncModel.Type],
        clock: any SyncClock = SystemClock(), configuration: SyncConfiguration = SyncConfiguration(),
        assetFiles: (any AssetFileStoring)? = nil, reachability: (any NetworkReachability)? = PlatformReachability.default
    ) {
        self.init(
            store: store as any LocalStorePort, cloud: cloud, models: models, clock: clock, configuration: configuration,
            assetFiles: Self.assetFiles(assetFiles, configuration: configuration), reachability: reachability)
    }

    private static func assetFiles(_ given: (any AssetFileStoring)?, configuration: SyncConfiguration) -> Result<any AssetFileStoring, AssetError> {
        if let given { return .success(given) }
        if let root = configuration.assetCacheRoot { return .success(AssetFileStore(root: root)) }
        do {
            return .success(AssetFileStore(root: try AssetCacheLocation.defaultRoot()))
        } catch {
            return .failure(.noCacheFolder(error.description))
        }
    }
}
