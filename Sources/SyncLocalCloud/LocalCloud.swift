import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// A CloudKit-faithful cloud on this machine: private, shared and public databases for any number
/// of accounts, with CloudKit's rules, limits and errors (docs/LocalCloud.md lists them). The
/// engine, the tests and the example sync through it; no iCloud account is needed.
///
/// In memory for tests, or in one SQLite file that several processes open at once, each acting
/// as devices of some users. Both modes run the same code over the same tables. Time comes from
/// an injected clock; nothing sleeps. Faults are injected deterministically.
public final class LocalCloud: Sendable {
    /// Page sizes and the downloads folder: what CloudKit decides for itself.
    public struct Configuration: Sendable {
        /// Records per page of zone changes when the client sets no limit.
        public var zoneChangesPageSize = 200
        /// Zones per page of database changes.
        public var databaseChangesPageSize = 100
        /// Records per query page when the query sets no limit.
        public var queryPageSize = 100
        /// Where fetched assets are written for devices to read.
        public var downloadsFolder: URL
        /// The indexes of the deployed schema, by record type and field: `QUERYABLE`, `SORTABLE`,
        /// `SEARCHABLE`, as the `.ckdb` export declares them. Set, a query's condition on a field
        /// without `QUERYABLE`, or a sort by one without `SORTABLE`, fails with
        /// `invalidArguments`, as CloudKit answers a query its schema has no index for; a text
        /// search reads the fields marked `SEARCHABLE`. A generated schema says its own
        /// (`SyncSchema.deployedIndexes`). Nil: no schema deployed, every field answered (and a
        /// text search reads every text field).
        public var deployedIndexes: [String: [String: Set<String>]]?
        /// How coarse a distance condition is, in meters: a record up to this far beyond the
        /// radius may match too. Apple, `CKQuery`, "Predicate Rules for Query Objects":
        /// "Location indexes have a resolution of no less than 10 km", so iCloud may answer
        /// records farther out than a small radius; LocalCloud answers all of them by default
        /// (the harsher reading), and the engine trims each page to the exact radius. 0: exact.
        public var locationResolution: Double = 10_000

        /// A configuration; downloads go to a new temporary folder unless one is given.
        public init(downloadsFolder: URL? = nil, deployedIndexes: [String: [String: Set<String>]]? = nil) {
            self.downloadsFolder = downloadsFolder
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("LocalCloud-\(UUID().uuidString)")
            self.deployedIndexes = deployedIndexes
        }
    }

    struct DeviceState {
        var account: String?
        var networkAvailable = true
        var streams: [UUID: AsyncStream<CloudNotification>.Continuation] = [:]
        var accountStreams: [UUID: AsyncStream<Void>.Continuation] = [:]
        /// Called at once when the account changes (what the system's notification center does).
        var accountObservers: [UUID: @Sendable () -> Void] = [:]
        /// The pushes Apple's push service would have handed the app, oldest first, at most
        /// `pushesKept` (`takePushes`).
        var pushes: [CloudNotification] = []
    }

    /// How many pushes a device keeps for `takePushes`; older ones are dropped (Apple's push
    /// service may coalesce pushes too: the engine never counts on each arriving).
    static let pushesKept = 100

    /// The most records one page of zone changes or of a query holds, whatever the client asks:
    /// CloudKit chooses a page's size itself (Apple, `CKQueryOperation.maximumResults`: "CloudKit
    /// dynamically determines the actual number"), and its server takes a `resultsLimit` "from 1
    /// to 200, inclusive" (CKTool JS, `CKDBRecordChangesRequestBody.resultsLimit`). A limit past it
    /// (`Int.max` included) is answered with pages of this size and a cursor or `moreComing`.
    static let largestPage = 200

    /// The page size a request gets: what it asks (or the configuration's default), at least one
    /// record (a page of none would never end) and at most `largestPage`.
    static func pageSize(asked: Int?, default defaultSize: Int) -> Int {
        min(max(1, asked ?? defaultSize), largestPage)
    }

    struct State {
        let server: LocalCloudServer
        var devices: [String: DeviceState] = [:]
        var faults = FaultPlan()
    }

    let configuration: Configuration
    let state: Locked<State>

    private init(location: SQLiteDatabase.Location, clock: any SyncClock, configuration: Configuration) throws {
        self.configuration = configuration
        let store = try LocalCloudStore(location)
        state = Locked(State(server: LocalCloudServer(store: store, clock: clock, downloads: configuration.downloadsFolder)))
    }

    /// A cloud that lives as long as this object, in memory.
    public static func inMemory(clock: any SyncClock = SystemClock(), configuration: Configuration = Configuration()) throws -> LocalCloud {
        try LocalCloud(location: .memory, clock: clock, configuration: configuration)
    }

    /// A cloud in one SQLite file, created if missing, shared with every process that opens it.
    public static func file(at url: URL, clock: any SyncClock = SystemClock(), configuration: Configuration = Configuration()) throws -> LocalCloud {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try LocalCloud(location: .file(url), clock: clock, configuration: configuration)
    }

    // MARK: - Accounts and devices

    /// The user record name others see for an account.
    public static func userRecordName(forAccount account: String) -> String {
        LocalCloudServer.userRecordName(forAccount: account)
    }

    /// Creates an account (nothing happens if it exists), available, found by others who share
    /// with it by its email address or phone number when given. With a `name`, the account lets
    /// itself be found by name: the shares it owns or has accepted name it to their readers
    /// (`ShareParticipant.nameComponents`).
    public func addAccount(_ account: String, emailAddress: String? = nil, phoneNumber: String? = nil, name: PersonNameComponents? = nil) throws {
        try withServer { server in
            try server.ensureAccount(account)
            try server.setContacts(ofAccount: account, emailAddress: emailAddress, phoneNumber: phoneNumber)
            if let name { try server.setName(ofAccount: account, name) }
        }
    }

    /// Sets what `accountStatus()` answers for an account (signed out, restricted, ...).
    public func setAccountStatus(_ account: String, _ status: AccountStatus) throws {
        try withServer { try $0.setAccountStatus(account, status) }
        announceAccountChange { $0.account == account }
    }

    /// A device of this process, signed in to `account` (nil: signed out), which is created if
    /// it does not exist yet. Asking for a device again gives the same device, signed in anew.
    public func device(_ name: String, account: String?) throws -> LocalCloudDevice {
        try signIn(name, account: account)
        return LocalCloudDevice(cloud: self, name: name)
    }

    /// Signs a device in to another account (created if needed), or out (nil).
    public func signIn(_ device: String, account: String?) throws {
        if let account { try addAccount(account) }
        try withServer { try $0.registerDevice(device, user: account.map(Self.userRecordName(forAccount:))) }
        let changed = state.withLock { state in
            let before = state.devices[device]?.account
            state.devices[device, default: DeviceState()].account = account
            return before != account
        }
        if changed { announceAccountChange(onDevice: device) }
    }

    /// Tells the devices `affected` picks that their account changed, as the system posts
    /// `CKAccountChanged` on each device.
    private func announceAccountChange(onDevice device: String? = nil, _ affected: (DeviceState) -> Bool = { _ in true }) {
        let (streams, observers) = state.withLock { state in
            let devices = state.devices.filter { name, deviceState in (device == nil || name == device) && affected(deviceState) }
            return (devices.flatMap(\.value.accountStreams.values), devices.flatMap(\.value.accountObservers.values))
        }
        for observer in observers { observer() }
        for stream in streams { stream.yield() }
    }

    /// A push as Apple's push service would hand it to the app for one of LocalCloud's
    /// notifications: what an app's delegate passes to `SyncEngine.handleRemoteNotification`. The
    /// shape follows CloudKit's (a `ck` dictionary beside `aps`); only LocalCloud reads it.
    /// An alert is APNs' (`aps.alert`, `aps.sound`, `aps.badge`).
    public func remotePayload(for notification: CloudNotification) -> [AnyHashable: Any] {
        let aps = (notification.alert?.apnsEntries ?? [:]).merging(["content-available": 1]) { first, _ in first }
        return ["aps": aps, "ck": ["sid": notification.subscriptionID, "dbs": notification.scope.rawValue]]
    }

    /// The pushes a device received since the last call, oldest first: what an app's delegate
    /// would have been handed (each goes to `SyncEngine.handleRemoteNotification` through
    /// `remotePayload(for:)`). Received whether or not an engine listens to `notifications()`.
    public func takePushes(for device: String) -> [CloudNotification] {
        state.withLock { state in
            defer { state.devices[device]?.pushes = [] }
            return state.devices[device]?.pushes ?? []
        }
    }

    /// Cuts a device off the network (or reconnects it).
    public func setNetworkAvailable(_ available: Bool, for device: String) {
        state.withLock { $0.devices[device, default: DeviceState()].networkAvailable = available }
    }

    /// What a participant opening the owner's share link learns, without a request: for tests
    /// that hand metadata over directly. An app opens the link (`SyncEngine.acceptShare(at:)`).
    public func shareMetadata(for share: ShareRecord, ownerAccount: String) -> ShareMetadata {
        let owner = Self.userRecordName(forAccount: ownerAccount)
        return ShareMetadata(
            shareID: RecordID(recordName: share.id.recordName, zoneID: ZoneID(zoneName: share.id.zoneID.zoneName, ownerName: owner)),
            ownerName: owner, rootRecordName: share.rootRecordName, title: share.title,
            url: LocalCloudShareLink.url(ofShare: share.id.recordName, in: StoredZone(owner: owner, name: share.id.zoneID.zoneName)))
    }

    // MARK: - What happens outside the app

    /// The user deletes the app's iCloud data from Settings: the zone is purged, fetches report
    /// `userDeletedZone`.
    public func purgeZone(_ zoneName: String, ofAccount account: String) throws {
        try withServer { server in
            try server.removeZone(StoredZone(owner: Self.userRecordName(forAccount: account), name: zoneName), reason: .purged)
        }
    }

    /// The user resets their encrypted data (account recovery): every custom zone of their
    /// private database is gone with the reason `encryptedDataReset`, as Apple documents for
    /// `CKDatabase.DatabaseChange.Deletion.Reason.encryptedDataReset`. Writing into such a zone
    /// gets `zoneNotFound` until it is created again.
    public func resetEncryptedData(ofAccount account: String) throws {
        try withServer { server in
            let owner = Self.userRecordName(forAccount: account)
            for row in try server.database.query("SELECT name FROM zones WHERE owner = ? AND state = 0 AND name != ?", [.text(owner), .text(SyncConstants.publicZoneName)]) {
                try server.removeZone(StoredZone(owner: owner, name: row.text(0)), reason: .encryptedDataReset)
            }
        }
    }

    /// How much of an account's iCloud storage the app's records may fill (nil: no limit). Saves
    /// into the account's zones, by its owner or by participants, that would go past it fail with
    /// `quotaExceeded`.
    public func setQuota(_ bytes: Int?, forAccount account: String) throws {
        try withServer { try $0.setQuota(bytes, of: Self.userRecordName(forAccount: account)) }
    }

    /// The storage an account's records take, as LocalCloud measures a record (`RecordSize`).
    public func storageUsed(byAccount account: String) throws -> Int {
        try withServer { try $0.storageUsed(by: Self.userRecordName(forAccount: account)) }
    }

    /// How much the public database may hold (nil: no limit): the app's storage, which every
    /// user's public saves fill.
    public func setPublicDatabaseQuota(_ bytes: Int?) throws {
        try withServer { try $0.setQuota(bytes, of: LocalCloudStore.publicOwner) }
    }

    /// The server forgets a user's database history (private or shared): every database change
    /// token issued so far expires, and a fetch from scratch names no zone that went before now.
    public func expireDatabaseChangeTokens(_ scope: DatabaseScope, ofAccount account: String) throws {
        try withServer { server in
            let seq = try server.store.nextSequence()
            try server.database.query(
                "INSERT OR REPLACE INTO database_history (user, scope, forgotten) VALUES (?, ?, ?)",
                [.text(Self.userRecordName(forAccount: account)), .text(scope.rawValue), .integer(seq)])
        }
    }

    /// The server forgets a zone's history: every change token issued for it so far expires.
    public func expireChangeTokens(zone zoneName: String, ofAccount account: String) throws {
        try withServer { server in
            let seq = try server.store.nextSequence()
            try server.database.query("UPDATE zones SET min_token_seq = ? WHERE owner = ? AND name = ?", [.integer(seq), .text(Self.userRecordName(forAccount: account)), .text(zoneName)])
        }
    }

    /// The server stops taking every query cursor it issued so far, as CloudKit may stop taking
    /// one kept long: continuing a query from one fails with `invalidArguments`.
    public func expireQueryCursors() throws {
        try withServer { try $0.expireQueryCursors() }
    }

    // MARK: - Faults

    /// Makes requests fail as `fault` says, before any random fault.
    public func inject(_ fault: ScriptedFault) {
        state.withLock { $0.faults.scripted.append(fault) }
    }

    /// Makes requests fail at random (nil stops it).
    public func injectRandomFaults(_ faults: RandomFaults?) {
        state.withLock { $0.faults.random = faults }
    }

    /// Makes a record unreadable for its next `times` reads: a page of zone changes or a query
    /// that holds it carries its `error` in its place, beside every other record (Apple,
    /// `recordZoneChanges(inZoneWith:since:desiredKeys:resultsLimit:)` and
    /// `records(matching:inZoneWith:desiredKeys:resultsLimit:)` return a `Result` per record),
    /// and a fetch by name fails for it alone. What a record CloudKit cannot serve, or one a
    /// client cannot decode, looks like to the engine.
    public func makeUnreadable(_ recordName: String, times: Int = .max, error: CloudError = CloudError(.internalError, "the record cannot be read")) {
        state.withLock { $0.server.unreadable[recordName] = UnreadableRecordFault(remaining: times, error: error) }
    }

    /// Throttles an account's requests (nil lifts it): past the limit, a request fails with
    /// `requestRateLimited` and a `retryAfter` that is the time left until the limit lets it
    /// through, on this cloud's clock.
    public func limitRequestRate(_ limit: RequestRateLimit?, forAccount account: String) {
        state.withLock { $0.faults.rateLimits[account] = limit.map { RateWindow(limit: $0) } }
    }

    // MARK: - Running requests

    /// Runs `body` on the server in one transaction, as `device`'s request of `kind`: the network,
    /// the account and injected faults come first; notifications go out after the commit.
    /// `checksAccount` false: the request needs no usable account (asking for the account status,
    /// reading the public database).
    func perform<T>(_ kind: CloudRequestKind, device: String, checksAccount: Bool = true, _ body: (LocalCloudServer, Caller) throws -> T) throws(CloudError) -> T {
        var deliveries: [(AsyncStream<CloudNotification>.Continuation, CloudNotification)] = []
        defer { for (stream, notification) in deliveries { stream.yield(notification) } }
        return try state.withLock { (state: inout State) throws(CloudError) -> T in
            let deviceState = state.devices[device, default: DeviceState()]
            guard deviceState.networkAvailable else { throw CloudError(.networkUnavailable, "the device is offline") }
            let server = state.server
            let caller = Caller(device: device, account: deviceState.account)
            let lost = try Self.sqlite {
                try server.store.count("requests.\(kind.rawValue)")
                if let fault = state.faults.fault(for: kind, account: deviceState.account, at: server.clock.now) {
                    guard fault.code == .serverResponseLost else { throw fault }
                    return true
                }
                return false
            }
            if checksAccount {
                try Self.checkAccount(try Self.sqlite { try server.accountStatus(deviceState.account) })
            }
            let value = try Self.sqlite {
                do {
                    return try server.database.transaction { try body(server, caller) }
                } catch {
                    server.schemaCache.removeAll()  // it may hold fields the rollback took back
                    throw error
                }
            }
            // Notifications queued for this process's devices are delivered now.
            let pending = try Self.sqlite {
                try state.devices.keys.sorted().map { (name: $0, notifications: try server.takeNotifications(for: $0)) }
            }
            for (name, notifications) in pending where !notifications.isEmpty {
                state.devices[name]?.pushes.append(contentsOf: notifications)
                if let count = state.devices[name]?.pushes.count, count > Self.pushesKept {
                    state.devices[name]?.pushes.removeFirst(count - Self.pushesKept)
                }
                let streams = Array(state.devices[name]?.streams.values ?? [:].values)
                for notification in notifications {
                    for stream in streams { deliveries.append((stream, notification)) }
                }
            }
            if lost { throw CloudError(.serverResponseLost, "the request was applied but its reply was lost") }
            return value
        }
    }

    private static func checkAccount(_ status: AccountStatus) throws(CloudError) {
        switch status {
        case .available: return
        case .noAccount, .restricted: throw CloudError(.notAuthenticated, "the device's iCloud account is \(status.rawValue)")
        case .temporarilyUnavailable: throw CloudError(.accountTemporarilyUnavailable, "the iCloud account is temporarily unavailable")
        }
    }

    /// Runs store code, turning store failures into the errors a client sees: CloudKit errors as
    /// they are; a lock held too long by another process as `zoneBusy`; a file SQLite finds
    /// damaged (malformed, or no database at all) as `internalError`, which no retry mends (a
    /// client that waited and tried again would do so for ever); anything else as
    /// `serviceUnavailable`, which a later try may get through.
    static func sqlite<T>(_ body: () throws -> T) throws(CloudError) -> T {
        do {
            return try body()
        } catch let error as CloudError {
            throw error
        } catch let error as SQLiteError where error.isBusy {
            throw CloudError(.zoneBusy, "the store is busy: \(error)", retryAfter: 1)
        } catch let error as SQLiteError where error.primaryCode == .corrupt || error.primaryCode == .notADatabase {
            throw CloudError(.internalError, "the LocalCloud file is damaged and cannot be read: restore it from a copy, or start a new one (\(error))")
        } catch let error as FieldsCodec.DecodingError {
            throw CloudError(.internalError, "a record in the LocalCloud file is damaged and cannot be read: restore the file from a copy, or start a new one (\(error))")
        } catch {
            throw CloudError(.serviceUnavailable, "LocalCloud failed: \(error)", retryAfter: 1)
        }
    }

    func withServer<T>(_ body: (LocalCloudServer) throws -> T) throws -> T {
        try state.withLock { state in try state.server.database.transaction { try body(state.server) } }
    }

    func addStream(_ continuation: AsyncStream<CloudNotification>.Continuation, device: String) -> UUID {
        let id = UUID()
        state.withLock { $0.devices[device, default: DeviceState()].streams[id] = continuation }
        return id
    }

    func addAccountStream(_ continuation: AsyncStream<Void>.Continuation, device: String) -> UUID {
        let id = UUID()
        state.withLock { $0.devices[device, default: DeviceState()].accountStreams[id] = continuation }
        return id
    }

    func addAccountObserver(_ observer: @escaping @Sendable () -> Void, device: String) -> UUID {
        let id = UUID()
        state.withLock { $0.devices[device, default: DeviceState()].accountObservers[id] = observer }
        return id
    }

    func removeAccountObserver(_ id: UUID, device: String) {
        state.withLock { _ = $0.devices[device]?.accountObservers.removeValue(forKey: id) }
    }

    func removeAccountStream(_ id: UUID, device: String) {
        state.withLock { _ = $0.devices[device]?.accountStreams.removeValue(forKey: id) }
    }

    func removeStream(_ id: UUID, device: String) {
        state.withLock { _ = $0.devices[device]?.streams.removeValue(forKey: id) }
    }
}
