import Foundation
import SyncRuntime
import SyncLocalCloud

/// One device in the example: its own store (a file), asset cache (a folder) and engine, talking
/// to the shared LocalCloud.
struct Device {
    let name: String
    let account: String
    let store: SyncStore
    let engine: SyncEngine

    /// `log`: the engine's log lines, on standard error at that level and above (nil: none).
    /// `mirroredCatalogs`: the public catalogs the device copies whole (nil: every one).
    init(
        name: String, account: String, cloud: LocalCloud, folder: URL, clock: any SyncClock, mirroredCatalogs: Set<String>? = nil,
        log: SyncLogLevel? = Self.logLevel()
    ) throws {
        self.name = name
        self.account = account
        // A damaged store heals (moved aside, rebuilt from the cloud), said on standard error.
        store = SyncStore(
            healing: folder.appendingPathComponent("devices/\(name).sqlite"), clock: clock,
            logHandler: StandardErrorLogHandler(minimumLevel: .error, revealingNames: true))
        engine = SyncEngine(
            store: store, cloud: try cloud.device(name, account: account), schema: SyncSchema.self, clock: clock,
            configuration: SyncConfiguration(
                assetCacheRoot: folder.appendingPathComponent("devices/\(name)-assets"), mirroredCatalogs: mirroredCatalogs,
                logHandler: log.map { StandardErrorLogHandler(minimumLevel: $0, revealingNames: true) }))
    }

    /// The level `SYNCGEN_LOG` names (`debug`, `info`, `notice`, `error`), else `fallback`.
    static func logLevel(fallback: SyncLogLevel? = nil) -> SyncLogLevel? {
        guard let name = ProcessInfo.processInfo.environment["SYNCGEN_LOG"] else { return fallback }
        return SyncLogLevel.allCases.first { $0.description == name }
    }

    /// One sync pass; a failure is reported and returned, never hidden.
    @discardableResult
    func sync() async -> Bool {
        let result = await engine.sync()
        if case .failed(let error, let action) = result {
            print("   ! \(name): sync failed: \(error) (\(action))")
            return false
        }
        return true
    }

    var notes: [Note] { (try? store.fetchAll(Note.self, sortedBy: { $0.title < $1.title })) ?? [] }
    var items: [ListItem] { (try? store.fetchAll(ListItem.self, sortedBy: { $0.text < $1.text })) ?? [] }
}
