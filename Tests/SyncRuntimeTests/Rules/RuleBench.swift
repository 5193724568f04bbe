import Foundation
@testable import SyncEngineKit
import SyncLocalCloud
import SyncLocalStore
import SyncCore
import SyncPorts
import SyncTesting

/// A rule on its own, as a phase runs it: an engine's context over an in-memory store, and a
/// transaction the test opens and hands the rule. The cloud is there because the context holds
/// one; a rule never calls it (.ci/run).
struct RuleBench {
    let store: SyncStore
    let context: SyncContext
    let clock = ManualClock()

    init(models: [any SyncModel.Type], configuration: SyncConfiguration = SyncConfiguration(), assetFiles: (any AssetFileStoring)? = nil, store: SyncStore? = nil) throws {
        self.store = try store ?? SyncStore(url: nil)
        let cloud = try LocalCloud.inMemory(clock: clock).device("bench", account: "alice")
        context = SyncContext(
            gateway: cloud, store: self.store, registry: ModelRegistry(models), events: EventHub(), clock: clock, configuration: configuration,
            assetFiles: assetFiles.map { .success($0) } ?? .failure(.noCacheFolder("a rule's bench has no files")))
    }

    /// `body` in one store transaction, as a phase opens it.
    func transaction<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try context.transaction(body)
    }
}
