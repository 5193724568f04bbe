import Foundation

/// Syncs a local store with the cloud: the one object an app creates. Everything it needs is
/// given at construction (the schema's models, the store, the cloud, the clock, the
/// configuration) and never changes afterwards.
///
/// A pass is: setup (once), account check, pull, push. Passes never overlap. `start()` runs them
/// by themselves: after app writes settle (debounced), on cloud notifications, and again after
/// retryable failures, waiting on the engine's clock. Status comes as structured events.
public actor SyncEngine {
    nonisolated let context: SyncContext
    private var isSetUp = false
    /// Whether transfers the previous run left in flight have been taken up.
    private var assetsRecovered = false
    private var isSyncing = false
    /// Bumped when the account changes: a pull begun under another account is discarded.
    private var accountGeneration = 0
    private var networkAttempts = 0
    private var background: [Task<Void, Never>] = []
    private var scheduledPass: Task<Void, Never>?

    public init(
        store: any LocalStorePort, cloud: any CloudGateway, schema: any SyncSchemaDefinition.Type,
        clock: any SyncClock = SystemClock(), configuration: SyncConfiguration = SyncConfiguration(),
        assetFiles: (any AssetFileStoring)? = nil
    ) {
        self.init(store: store, cloud: cloud, models: schema.models, clock: clock, configuration: configuration, assetFiles: assetFiles)
    }

    /// `assetFiles` replaces the file system cache under `configuration.assetCacheRoot`.
    public init(
        store: any LocalStorePort, cloud: any CloudGateway, models: [any SyncModel.Type],
        clock: any SyncClock = SystemClock(), configuration: SyncConfiguration = SyncConfiguration(),
        assetFiles: (any AssetFileStoring)? = nil
    ) {
        context = SyncContext(
            gateway: cloud, store: store, registry: ModelRegistry(models), events: EventHub(), clock: clock,
            configuration: configuration, assetFiles: Self.assetFiles(assetFiles, configuration: configuration))
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

    /// The engine's events. Subscribe at any time: a late subscriber first gets the latest event.
    public nonisolated func events() -> AsyncStream<SyncEvent> {
        context.events.stream()
    }

    /// How one pass ended.
    public enum PassResult: Sendable, Equatable {
        case completed
        /// Another pass was running: this one did nothing.
        case skipped
        case failed(CloudError, RecoveryAction)
    }

    /// Runs one pass now, and returns how it ended. A retryable failure also schedules the next
    /// pass (when the engine runs in the background).
    @discardableResult
    public func sync() async -> PassResult {
        guard !isSyncing else { return .skipped }
        isSyncing = true
        defer { isSyncing = false }
        do {
            try await runPass()
            networkAttempts = 0
            return .completed
        } catch {
            let action = RecoveryPolicy.action(for: error)
            handle(error, action)
            return .failed(error, action)
        }
    }

    private func runPass() async throws(CloudError) {
        let assets = AssetCacheUseCase(context: context)
        try recoverInterruptedAssetTransfers()
        guard try await checkAccount() else { return }
        if !isSetUp {
            do {
                try await SetupUseCase(context: context).execute()
            } catch {
                // No pull or push before setup succeeds: that would only pile up failing requests.
                context.events.publish(.setupFailed(error))
                throw error
            }
            isSetUp = true
            context.events.publish(.setupCompleted)
            if context.configuration.uploadEverythingOnSetup {
                let outcome = try await PushUseCase(context: context).uploadEverything()
                if let failure = outcome.failures.values.first { throw failure }
            }
        }
        try await completePendingAcceptances()
        let generation = accountGeneration
        let pull = PullUseCase(context: context) { [weak self] in
            guard let self else { return false }
            return await self.accountGeneration == generation
        }
        let push = PushUseCase(context: context)
        for zone in try await pull.execute() {
            try await context.gateway.saveZones([zone])
            let again = try await push.uploadEverything(onlyZone: zone)
            if let failure = again.failures.values.first { throw failure }
        }
        let outcome = try await push.execute()
        if let failure = outcome.failures.values.first {
            throw failure
        }
        // After the push: an asset's record is in the cloud before its contents are uploaded.
        try await assets.transfer()
    }

    /// The account must be usable, and the same as last time. When the account signs out or
    /// another signs in, the previous account's local data is removed before anything else
    /// happens: it is never shown to, or uploaded into, another account.
    private func checkAccount() async throws(CloudError) -> Bool {
        let status = try await context.gateway.accountStatus()
        let known = try context.local { try context.store.state(Self.accountKey) }
        guard status == .available else {
            if status == .noAccount, known != nil {
                try forgetAccount()
            }
            context.events.publish(.accountUnavailable(status))
            return false
        }
        let user = try await context.gateway.userRecordName()
        if let known, known != user {
            try forgetAccount()
        }
        if known != user {
            try context.local { try context.store.setState(Self.accountKey, user) }
        }
        return true
    }

    static let accountKey = "account.user"

    /// Takes up the asset transfers the previous run left in flight, once per engine, before any
    /// transfer of this run.
    func recoverInterruptedAssetTransfers() throws(CloudError) {
        guard !assetsRecovered else { return }
        try AssetCacheUseCase(context: context).recoverInterruptedTransfers()
        assetsRecovered = true
    }

    private func forgetAccount() throws(CloudError) {
        try context.local { try context.store.purgeEverything() }
        if case .success(let files) = context.assetFiles {
            try context.local { try files.removeAll() }
        }
        accountGeneration += 1
        isSetUp = false
        context.events.publish(.accountChanged)
    }

    // MARK: - Recovery

    /// Carries out what the policy decided for a failed pass.
    private func handle(_ error: CloudError, _ action: RecoveryAction) {
        switch action {
        case .retry(let seconds):
            context.events.publish(.retryScheduled(after: seconds, reason: error.code))
            schedulePass(after: seconds)
        case .waitForNetwork:
            // Re-armed every time, with backoff: sync never stops for good.
            let wait = RecoveryPolicy.networkBackoff(attempt: networkAttempts)
            networkAttempts += 1
            context.events.publish(.waitingForNetwork(retryAfter: wait))
            schedulePass(after: wait)
        case .resetToken, .recreateZone, .retryWithBatch, .splitBatch, .mergeAndRetry, .uploadParentFirst:
            schedulePass(after: 0)
        default:
            context.events.publish(.error(error))
        }
    }

    private func schedulePass(after seconds: TimeInterval) {
        guard !background.isEmpty else { return }
        scheduledPass?.cancel()
        let deadline = context.clock.now + seconds
        let clock = context.clock
        scheduledPass = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.sync()
        }
    }

    // MARK: - Running by itself

    /// Syncs now, then whenever the app writes (after the writes settle), a subscription fires,
    /// or a retry is due. Calling it again does nothing.
    public func start() {
        guard background.isEmpty else { return }
        let localChanges = context.store.changes()
        let debounce = context.configuration.debounce
        let clock = context.clock
        background.append(Task { [weak self] in
            for await _ in localChanges {
                do { try await clock.sleep(until: clock.now + debounce) } catch { return }
                await self?.sync()
            }
        })
        let notifications = context.gateway.notifications()
        background.append(Task { [weak self] in
            for await _ in notifications {
                await self?.sync()
            }
        })
        background.append(Task { [weak self] in await self?.sync() })
    }

    public func stop() {
        for task in background { task.cancel() }
        background = []
        scheduledPass?.cancel()
        scheduledPass = nil
    }
}
