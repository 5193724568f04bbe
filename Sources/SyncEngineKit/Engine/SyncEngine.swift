import Foundation
import SyncCore
import SyncPorts

/// Syncs a local store with the cloud: the one object an app creates. Everything it needs is
/// given at construction (the schema's models, the store, the cloud, the clock, the
/// configuration) and never changes afterwards.
///
/// A pass is: account check, setup (once per account), pull, push, asset transfers. Passes never
/// overlap: a pass asked for while one runs follows it, and any number of such requests make
/// exactly one more pass. `start()` runs passes by itself: after app writes settle (debounced),
/// on cloud notifications, and again after failures a retry can fix, waiting on the engine's
/// clock. Status comes as structured events.
public actor SyncEngine {
    nonisolated let context: SyncContext
    nonisolated let statusHub = StatusHub()
    private nonisolated let trouble = TroubleLog()
    /// Whether the network is there: a running engine passes as soon as it comes back.
    nonisolated let reachability: (any NetworkReachability)?
    /// The account setup last succeeded for: a new account is set up again.
    private var setUpFor: String?
    /// Whether the previous run's interrupted transfers have been taken up.
    private var recovered = false
    /// Passes failed in a row: how long the next retry waits.
    var failuresInARow = 0
    var background: [Task<Void, Never>] = []
    var scheduledPass: Task<Void, Never>?

    /// Whether a pass is running (or about to).
    private var passInFlight = false
    /// Whether a push runs (a pass's, or one the app asked for): a change it read may be on its
    /// way, and cannot be taken back (`dropWaitingChange`).
    var isPushing = false
    /// What the next pass is asked to do: the driver runs one more while it is set.
    private var requestedOptions: SyncOptions?
    /// Callers of `sync()` waiting for the next pass to end.
    private var waiting: [CheckedContinuation<PassResult, Never>] = []
    /// How many callers wait for the next pass: what a test waits on before it lets a pass go.
    var callersWaitingForTheNextPass: Int { waiting.count }

    /// An engine over any store and asset files that implement the ports; an app builds one
    /// with `SyncStore` (SyncRuntime's initialisers), this package's tests with anything.
    package init(
        store: any LocalStorePort, cloud: any CloudGateway, models: [any SyncModel.Type], clock: any SyncClock,
        configuration: SyncConfiguration, assetFiles: Result<any AssetFileStoring, AssetError>, reachability: (any NetworkReachability)? = nil
    ) {
        self.reachability = reachability
        context = SyncContext(
            gateway: cloud, store: store, registry: ModelRegistry(models, mirroredCatalogs: configuration.mirroredCatalogs, followedRecords: configuration.followedRecords), events: EventHub(), clock: clock,
            configuration: configuration, assetFiles: assetFiles)
        context.events.observe { [statusHub] event in statusHub.update { $0.applying(event) } }
        context.events.observe { [log = context.log] event in log.event(event) }
        context.events.observe { [trouble, clock] event in trouble.note(event, at: clock.now) }
        if let moves = try? store.transaction({ try ZoneMoves.kept(in: $0) }) { context.zoneMoves.replace(with: moves) }
        let unread = configuration.readOnly ? models.filter { !$0.syncScopes.contains(.public) }.map { $0.recordType } : []
        if !unread.isEmpty {
            context.log(.error, .pass, "a read-only engine reads public models only: \(unread.joined(separator: ", ")) never sync")
        }
        for record in context.registry.unknownFollowedRecords {
            // The app's configuration names it, not a user: its name is no one's.
            context.log(.error, .pass, "followed record \(record.recordType) \(record.recordName) is of a model this engine does not sync: nothing reads it")
        }
        let user = try? store.transaction { try $0.state(SyncStateKeys.account) }
        statusHub.update { status in
            var status = status
            status.userRecordName = user ?? nil
            return status
        }
    }

    /// Where sync stands on this device, in one value for a support screen or a bug report
    /// (`SyncDiagnostics`): what the store holds, read offline, with the engine's status, recent
    /// trouble and configuration. Never what a user wrote, unless `includingContents` (a
    /// conflict's values).
    public nonisolated func diagnostics(includingContents: Bool = false) throws(SyncError) -> SyncDiagnostics {
        var diagnostics = try SyncError.reportingStoreFailures {
            try SyncDiagnostics.read(from: context.store, at: context.clock.now, includingContents: includingContents)
        }
        diagnostics.assetCache.limit = context.configuration.assetCacheLimit
        let status = statusHub.status
        diagnostics.engine = SyncDiagnostics.Engine(
            status: "\(status)", lastCompletedPass: status.lastCompletedPass, isOffline: status.isOffline, recentTrouble: trouble.recent,
            configuration: context.configuration.diagnosticsDescription)
        return diagnostics
    }

    /// The configuration the engine was built with. It cannot change: a configuration changed
    /// after start would be silently ignored.
    public nonisolated var configuration: SyncConfiguration { context.configuration }

    /// The engine's events. Subscribe at any time: a late subscriber first gets the latest event.
    public nonisolated func events() -> AsyncStream<SyncEvent> {
        context.events.stream()
    }

    /// What the engine is doing now, and how its last pass went.
    public nonisolated var status: EngineStatus { statusHub.status }

    /// The user record name of the account the store belongs to, or nil when none is signed in:
    /// at once, from the store, and after each account change a pass finds
    /// (`EngineStatus.userRecordName`, which `statusUpdates()` and `LiveEngineStatus` follow).
    public nonisolated var currentUserRecordName: String? { statusHub.status.userRecordName }

    /// The engine's status at once, then after each change of it: a pass starting, its phases,
    /// its end, the network going away. A reader slower than the changes gets the newest.
    public nonisolated func statusUpdates() -> AsyncStream<EngineStatus> {
        statusHub.stream()
    }

    // MARK: - Passes

    /// Runs a pass and returns how it ended. While a pass runs, the call waits for the one that
    /// follows it (every caller meanwhile shares that one). A failure a retry can fix also
    /// schedules the next pass, when the engine runs in the background.
    @discardableResult
    public func sync() async -> PassResult {
        await sync(.all)
    }

    /// Runs a pass that does what `options` says (`.fetchOnly`, `.sendOnly`, a deadline for a
    /// background window) and returns how it ended. Callers waiting for the same pass share it:
    /// it does everything any of them asked for, bounded by the earliest deadline.
    @discardableResult
    public func sync(_ options: SyncOptions) async -> PassResult {
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            requestPass(options)
        }
    }

    /// Ends the running pass before its next request, with what it did committed: for a
    /// background task's expiration handler. The pass ends `.stopped`; nothing happens when
    /// none runs.
    public func endPassSoon() {
        guard passInFlight else { return }
        context.passLimits.requestStop()
    }

    /// Asks for a pass: one starts now, or exactly one more follows the pass that runs now.
    func requestPass(_ options: SyncOptions = .all) {
        requestedOptions = requestedOptions.map { $0.merged(with: options) } ?? options
        guard !passInFlight else { return }
        passInFlight = true
        Task { await self.drivePasses() }
    }

    private func drivePasses() async {
        while let options = requestedOptions {
            requestedOptions = nil
            let callers = waiting
            waiting = []
            let result = await onePass(options)
            for caller in callers { caller.resume(returning: result) }
        }
        passInFlight = false
    }

    private func onePass(_ options: SyncOptions) async -> PassResult {
        let pendingAtStart = pendingChanges()
        let started = ContinuousClock.now
        context.log(.info, .pass, "pass started: \(SyncEvent.count(pendingAtStart, "change")) to push")
        statusHub.update { $0.passStarted(pendingChanges: pendingAtStart) }
        context.passLimits.begin(deadline: options.deadline)
        defer { context.passLimits.begin(deadline: nil) }
        do {
            try await runPass(options)
            failuresInARow = 0
            let pending = passEnded(error: nil)
            context.log(.info, .pass, "pass completed in \(EngineLog.duration(since: started)): \(SyncEvent.count(pending, "change")) left to push")
            return .completed
        } catch where context.passLimits.stopped {
            // Stopped between two requests: everything before is committed, the rest waits.
            let pending = pendingChanges()
            statusHub.update { $0.passStopped(pendingChanges: pending) }
            context.log(.info, .pass, "pass stopped at its deadline after \(EngineLog.duration(since: started)): \(SyncEvent.count(pending, "change")) left to push")
            return .stopped(pendingChanges: pending)
        } catch {
            let action = RecoveryPolicy.action(for: error)
            context.log(action == .report ? .error : .info, .pass, "pass failed after \(EngineLog.duration(since: started)) (\(action)): \(error.logMessage)")
            handle(error, action)
            _ = passEnded(error: error)
            return .failed(error, action)
        }
    }

    /// The status as a pass ends (`error` nil when it went through); returns the changes left.
    private func passEnded(error: SyncError?) -> Int {
        let (now, pending) = (context.clock.now, pendingChanges())
        statusHub.update { $0.passEnded(error: error, at: now, pendingChanges: pending) }
        return pending
    }

    /// Records with a change of this device waiting or set aside; the last count when the store
    /// cannot be read (the pass reports that failure itself).
    private func pendingChanges() -> Int {
        (try? context.store.transaction { try $0.recordsWithLocalChanges().records.count }) ?? statusHub.status.pendingChanges
    }

    private func runPass(_ options: SyncOptions) async throws(SyncError) {
        try recoverOnce()
        if context.configuration.readOnly { return try await runReadingPass(options) }
        let account: PassAccount
        switch try await AccountPhase(context: context).check() {
        case .signedIn(let user, let switched):
            // Entries parked while a model held one asset come back naming no field.
            if switched { try AssetPhase(context: context).nameFieldsOfEarlierEntries() }
            account = PassAccount(user: user, cloud: context.cloud)
        case .unavailable(let status):
            // Public catalogs need no account.
            if options.pull { _ = try await PullPhase(context: context, account: PassAccount(user: nil, cloud: context.cloud), options: options).execute() }
            if status == .temporarilyUnavailable {
                throw .cloud(CloudError(.accountTemporarilyUnavailable, "the iCloud account is temporarily unavailable"))
            }
            return
        }
        if setUpFor != account.user {
            try await setUp(account)
        }
        try await completePendingAcceptances()
        let push = PushPhase(context: context, account: account)
        var zoneFailure: SyncError?
        if options.pull {
            let pulled = try await PullPhase(context: context, account: account, options: options).execute()
            zoneFailure = pulled.zoneFailure
            for zone in pulled.zonesToRebuild {
                // Its records are queued already; a zone the push still finds missing is created then.
                try await account.verify()
                try await context.cloud.saveZones([zone])
            }
        }
        if options.push {
            isPushing = true
            defer { isPushing = false }
            // Before the push, so the merges go up in this pass, after the copies they retired.
            let retirement = RetirementPhase(context: context)
            try retirement.mergeDuplicates()
            try await retirement.retireMergedCopies(as: account)
            try await ZoneMovePhase(context: context).prepareForPush()
            try Self.throwFirstFailure(of: try await push.execute())
            try await ZoneMovePhase(context: context).removeCopiesLeft()
        }
        // After the push: an asset's record is in the cloud before its contents are uploaded.
        if options.transferAssets {
            try SharePhase(context: context).copyFilesOfInterruptedLeaves()
            try await AssetPhase(context: context).transfer(as: account, heldBy: conditionsHoldingAssetTransfers)
        }
        // A zone that could not be read stopped no other zone, nor the push: reported last.
        if let zoneFailure { throw zoneFailure }
    }

    private func setUp(_ account: PassAccount) async throws(SyncError) {
        do {
            try await SetupPhase(context: context).execute()
        } catch {
            // No pull or push before setup succeeds: that would only pile up failing requests.
            context.events.publish(.setupFailed(error))
            throw error
        }
        setUpFor = account.user
        context.events.publish(.setupCompleted)
        if context.configuration.uploadEverythingOnSetup {
            // Queued: this pass's push sends them, and a later one what it did not.
            _ = try context.transaction { store in try FullUpload.queue(types: context.registry.zonedTypes, in: store) }
        }
    }

    private static func throwFirstFailure(of outcome: PushPhase.Outcome) throws(SyncError) {
        if let failure = outcome.failures.sorted(by: { $0.key.description < $1.key.description }).first?.value { throw .cloud(failure) }
    }

    /// Takes up what the previous run left in flight (asset transfers, files a restore had not
    /// moved back), once per engine, before any transfer of this run.
    func recoverOnce() throws(SyncError) {
        guard !recovered else { return }
        try AccountPhase(context: context).recoverParkedFiles()
        try AssetPhase(context: context).recoverInterruptedTransfers()
        recovered = true
    }

    /// The account a call made outside a pass acts for: the one the store's data belongs to (nil
    /// before any account synced here), checked against the device's before each request.
    func storeAccount() throws(SyncError) -> PassAccount {
        PassAccount(user: try context.transaction { try $0.state(SyncStateKeys.account) }, cloud: context.cloud)
    }

    /// `storeAccount()`, for calls that need one.
    func signedInAccount() throws(SyncError) -> PassAccount {
        let account = try storeAccount()
        guard account.isSignedIn else { throw .cloud(CloudError(.notAuthenticated, "no account has synced on this device yet")) }
        return account
    }
}
