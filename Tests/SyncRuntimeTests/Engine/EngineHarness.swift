import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud
import SyncTesting
#if !canImport(CloudKit)
import CloudKitGateway
import CloudKitStandIn
#endif

/// One LocalCloud and any number of devices, each with its own store and engine, on one clock.
/// Through CloudKit, every device talks to LocalCloud through the CloudKit gateway over the
/// CloudKit stand-in, as an app on Apple platforms talks to iCloud.
final class SyncWorld {
    /// The ways a device can reach the cloud, for tests that run both: LocalCloud's own port
    /// (false) and, where the stand-in exists (not on Apple platforms, where the gateway talks to
    /// CloudKit itself), the CloudKit gateway over it (true).
    static let cloudKitPaths: [Bool] = {
        #if canImport(CloudKit)
        [false]
        #else
        [false, true]
        #endif
    }()

    let clock = ManualClock()
    let cloud: LocalCloud
    let throughCloudKit: Bool
    #if !canImport(CloudKit)
    /// The code the stand-in throws an atomic save's failure with (through CloudKit only), for
    /// the devices made from now on.
    var atomicFailure: StandInAtomicFailure = .failingItemsCode
    #endif
    /// Each device's asset cache is a folder in here (named after the device); removed with the world.
    let assetFolder = FileManager.default.temporaryDirectory.appendingPathComponent("syncgen-assets-\(UUID().uuidString)")
    private(set) var devices: [String: Device] = [:]

    final class Device {
        let name: String
        let store: SyncStore
        let engine: SyncEngine
        let gateway: RecordingGateway
        private let cloud: LocalCloud

        init(name: String, store: SyncStore, engine: SyncEngine, gateway: RecordingGateway, cloud: LocalCloud) {
            self.name = name
            self.store = store
            self.engine = engine
            self.gateway = gateway
            self.cloud = cloud
        }

        /// Hands the pushes the device received since the last call to its engine, as an app's
        /// delegate does (each runs a pass). Returns how many there were.
        @discardableResult
        func receivePushes() async -> Int {
            let pushes = cloud.takePushes(for: name)
            for push in pushes { _ = await engine.handleRemoteNotification(cloud.remotePayload(for: push)) }
            return pushes.count
        }

        /// Events from now on, collected as they come.
        func recordEvents() -> EventRecorder { EventRecorder(engine) }

        /// One pass; fails the test if the pass failed.
        @discardableResult
        func sync(sourceLocation: SourceLocation = #_sourceLocation) async -> SyncEngine.PassResult {
            let result = await engine.sync()
            #expect(result == .completed, "\(name): \(result)", sourceLocation: sourceLocation)
            return result
        }
    }

    /// `throughCloudKit` defaults to `SYNCGEN_THROUGH_CLOUDKIT=1` (CI runs the engine's suites a
    /// second time so); it is never true where the stand-in does not exist.
    init(throughCloudKit: Bool = ProcessInfo.processInfo.environment["SYNCGEN_THROUGH_CLOUDKIT"] == "1", configure: (inout LocalCloud.Configuration) -> Void = { _ in }) throws {
        self.throughCloudKit = throughCloudKit && Self.cloudKitPaths.contains(true)
        // The schema deployed, as an app's container holds it: a query it has no index for fails.
        var configuration = LocalCloud.Configuration(downloadsFolder: assetFolder.appendingPathComponent("LocalCloud downloads"), deployedIndexes: SyncSchema.deployedIndexes)
        configure(&configuration)
        cloud = try LocalCloud.inMemory(clock: clock, configuration: configuration)
    }

    deinit {
        try? FileManager.default.removeItem(at: assetFolder)
    }

    /// A device: its own store and engine, its asset cache in `assetFolder/<name>` unless the
    /// configuration names a root.
    @discardableResult
    func device(
        _ name: String, account: String?, configuration: SyncConfiguration = SyncConfiguration(),
        store: SyncStore? = nil, assetFiles: (any AssetFileStoring)? = nil, models: [any SyncModel.Type] = SyncSchema.models,
        reachability: (any NetworkReachability)? = nil
    ) throws -> Device {
        let cloudDevice = try cloud.device(name, account: account)
        // Each device its own notification center, as each device of the real world has one.
        let center = NotificationCenter()
        var cloudGateway: any CloudGateway = cloudDevice
        #if !canImport(CloudKit)
        if throughCloudKit {
            cloudGateway = CloudKitGateway(container: CKContainer(device: cloudDevice, notificationCenter: center, atomicFailure: atomicFailure), notificationCenter: center)
        }
        #endif
        let gateway = RecordingGateway(cloudGateway)
        let store = try store ?? SyncStore(url: nil, clock: clock)
        var configuration = configuration
        if ProcessInfo.processInfo.environment["SYNCGEN_TEST_LOG"] == "1" { configuration.logHandler = DeviceLogHandler(device: name) }
        if configuration.assetCacheRoot == nil {
            configuration.assetCacheRoot = assetFolder.appendingPathComponent(name)
        }
        let engine = SyncEngine(
            store: store, cloud: gateway, models: models, clock: clock, configuration: configuration, assetFiles: assetFiles, reachability: reachability)
        let device = Device(name: name, store: store, engine: engine, gateway: gateway, cloud: cloud)
        devices[name] = device
        return device
    }

    /// Forgets a device, as when its app quits: the world no longer holds its engine and store.
    func remove(_ name: String) {
        devices[name] = nil
    }

    /// Syncs every device twice over, in name order: enough for any change to reach everyone.
    func syncAll() async {
        for _ in 0..<2 {
            for name in devices.keys.sorted() { _ = await devices[name]!.engine.sync() }
        }
    }
}

/// Collects an engine's events as they are published, for assertions after the fact.
final class EventRecorder: Sendable {
    private let collected = Locked<[SyncEvent]>([])

    init(_ engine: SyncEngine) {
        engine.context.events.observe { [collected] event in collected.withLock { $0.append(event) } }
    }

    func events() async -> [SyncEvent] {
        collected.withLock { $0 }
    }

    /// The events so far, for conditions that cannot wait.
    func collectedNow() -> [SyncEvent] {
        collected.withLock { $0 }
    }
}

/// Waits (yielding, never sleeping) until `condition` holds, as long as background tasks need. It
/// gives up only after ten minutes, a bound no busy machine reaches in a passing run: it ends a
/// test that already failed, so a broken build fails rather than hangs. (A count of yields, as
/// before issue 57, is a guess a loaded machine can beat.)
func eventually(_ condition: () throws -> Bool) async rethrows -> Bool {
    let giveUp = DispatchTime.now() + .seconds(600)
    while DispatchTime.now() < giveUp {
        if try condition() { return true }
        await Task.yield()
    }
    return try condition()
}

/// Whether `condition` stays false while everything ready runs 200,000 rounds over: for what
/// must not happen. A loaded machine can only make it pass when it should fail, never the other
/// way.
func staysFalse(_ condition: () throws -> Bool) async rethrows -> Bool {
    for _ in 0..<200_000 {
        if try condition() { return false }
        await Task.yield()
    }
    return try !condition()
}

/// Holds back whoever waits on it until the test opens it: a request paused in mid-flight.
final class Gate: Sendable {
    private struct State {
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var arrivals = 0
    }

    private let state = Locked(State())

    /// How many have come to the gate.
    var arrivals: Int { state.withLock { $0.arrivals } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.arrivals += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// True the first time it is asked, false ever after: a hook that steps in once.
final class Once: Sendable {
    private let used = Locked(false)

    func first() -> Bool {
        used.withLock { used in
            defer { used = true }
            return !used
        }
    }
}

/// Every line of a device's engine on standard error, names revealed, under the device's name:
/// `SYNCGEN_TEST_LOG=1 CONVERGENCE_SEED=227 swift test --filter ConvergenceTests` tells what
/// each device asked and heard on the way to a failing seed.
struct DeviceLogHandler: SyncLogHandler {
    let device: String

    func log(_ entry: SyncLogEntry) {
        FileHandle.standardError.write(Data("\(device) [\(entry.level)] \(entry.category.rawValue): \(entry.message.revealed)\n".utf8))
    }
}
