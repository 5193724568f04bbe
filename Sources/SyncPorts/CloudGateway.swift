import Foundation
import SyncCore

/// The cloud, as the sync engine sees it: CloudKit's own operations, for one device signed in to
/// one account. `LocalCloud` implements it everywhere; a CloudKit-backed gateway does on Apple
/// platforms.
///
/// Every call is one request and may fail as a whole with a `CloudError` (network, account, rate
/// limits, request limits). Modify requests report each item's outcome separately.
///
/// Its requirements come in topics, one protocol each; a gateway conforms to all of them.
public protocol CloudGateway: CloudAccount, CloudRecords, CloudChanges, CloudSharing, CloudNotifications {}

/// The account the device is signed in to, and its changes. One topic of ``CloudGateway``.
public protocol CloudAccount: Sendable {
    /// The device's account status.
    func accountStatus() async throws(CloudError) -> AccountStatus

    /// The signed-in user's record name: the `ownerName` others see on this user's zones.
    func userRecordName() async throws(CloudError) -> String

    /// Fires when this device's account changes: signed in, out, or to another (CloudKit: the
    /// system's `CKAccountChanged` notification).
    func accountChanges() -> AsyncStream<Void>
}

/// Zones and records: saved, deleted, fetched by ID and queried. One topic of ``CloudGateway``.
public protocol CloudRecords: Sendable {
    /// Creates zones in the private database (saving an existing zone does nothing).
    func saveZones(_ zones: [ZoneID]) async throws(CloudError)

    /// Deletes zones from the private database, with their records.
    func deleteZones(_ zones: [ZoneID]) async throws(CloudError)

    /// Saves and deletes records (and shares) in one database.
    func modify(_ request: ModifyRequest, in scope: DatabaseScope) async throws(CloudError) -> ModifyResult

    /// Records by ID, each with its own outcome (`unknownItem` for one that does not exist).
    /// `desiredKeys` nil fetches every field. At most `CloudKitLimits.maxItemsPerRequest` IDs:
    /// more fail the request with `limitExceeded`.
    func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<SyncRecord, CloudError>]

    /// One page of a query (the public database's only way to read records).
    func query(_ query: RecordQuery, in scope: DatabaseScope) async throws(CloudError) -> QueryPage
}

/// What changed since a token: the zones of a database, the records of a zone. One topic of
/// ``CloudGateway``.
public protocol CloudChanges: Sendable {
    /// Zones of a private or shared database that changed or went away since `token`.
    func fetchDatabaseChanges(in scope: DatabaseScope, since token: ChangeToken?) async throws(CloudError) -> DatabaseChanges

    /// Records of one zone saved or deleted since `token`, at most `resultsLimit` at a time, with
    /// only `desiredKeys` (nil: every field; asset contents are transferred only when desired).
    func fetchZoneChanges(
        in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?, desiredKeys: [String]?
    ) async throws(CloudError) -> ZoneChanges
}

/// Shares: read, opened from a link, accepted, and the people to share with. One topic of
/// ``CloudGateway``.
public protocol CloudSharing: Sendable {
    /// The shares (`cloudkit.share` records) by ID, as `fetchRecords` does for records.
    func fetchShares(_ ids: [RecordID], in scope: DatabaseScope) async throws(CloudError) -> [RecordID: Result<ShareRecord, CloudError>]

    /// What a share's link leads to (CloudKit: `CKContainer.shareMetadata(for:)`): the metadata to
    /// accept it with.
    func shareMetadata(for url: URL) async throws(CloudError) -> ShareMetadata

    /// Accepts a share, from metadata a link or the system gave: its zone appears in this user's
    /// shared database.
    func acceptShare(_ metadata: ShareMetadata) async throws(CloudError)

    /// People to share with, looked up by email address, phone number or user record name
    /// (CloudKit creates participants no other way), each with its own outcome. A participant
    /// found comes with no permission; the engine sets the invitation's before adding it.
    func participants(for lookups: [ParticipantLookup]) async throws(CloudError) -> [ParticipantLookup: Result<ShareParticipant, CloudError>]
}

/// Subscriptions and the notifications they send this device. One topic of ``CloudGateway``.
public protocol CloudNotifications: Sendable {
    /// Registers a subscription; the cloud then notifies this device when it fires. Saving one
    /// under an ID the user has already replaces it.
    func saveSubscription(_ subscription: CloudSubscription) async throws(CloudError)

    /// The user's subscriptions in a database, every app's and engine's alike.
    func subscriptions(in scope: DatabaseScope) async throws(CloudError) -> [SavedSubscription]

    /// Deletes the user's subscription of this ID in a database; one that is not there is
    /// `unknownItem`.
    func deleteSubscription(id: String, in scope: DatabaseScope) async throws(CloudError)

    /// Notifications for this device's subscriptions. Subscribing late loses nothing that is still
    /// pending.
    func notifications() -> AsyncStream<CloudNotification>

    /// A push the app received, as one of this cloud's notifications; nil when it is not one
    /// (another service's push). On Apple platforms pushes reach the app, not the gateway.
    func notification(fromRemotePayload payload: RemoteNotificationPayload) -> CloudNotification?
}

extension CloudChanges {
    /// Records of one zone changed since `token`, with every field.
    public func fetchZoneChanges(in zone: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int?) async throws(CloudError) -> ZoneChanges {
        try await fetchZoneChanges(in: zone, scope: scope, since: token, resultsLimit: resultsLimit, desiredKeys: nil)
    }
}

/// Records and shares to save, and records to delete, in one database: one request.
public struct ModifyRequest: Sendable, Hashable {
    /// Records to save: new ones, and changes to records the server has (based on the version
    /// their system fields name).
    public var recordsToSave: [SyncRecord]
    /// Shares to save, each with the root record it shares saved in the same request.
    public var sharesToSave: [ShareRecord]
    /// Records to delete.
    public var recordIDsToDelete: [RecordID]
    /// How each save treats the server's copy (`ifServerRecordUnchanged` by default).
    public var savePolicy: SavePolicy
    /// Whether one failed item fails every item of its custom zone (CloudKit's `isAtomic`, true by
    /// default). The default zones never commit atomically.
    public var isAtomic: Bool

    /// A request; by default every save is conditional on the version its system fields name,
    /// and a custom zone's items commit atomically.
    public init(
        recordsToSave: [SyncRecord] = [], sharesToSave: [ShareRecord] = [], recordIDsToDelete: [RecordID] = [],
        savePolicy: SavePolicy = .ifServerRecordUnchanged, isAtomic: Bool = true
    ) {
        self.recordsToSave = recordsToSave
        self.sharesToSave = sharesToSave
        self.recordIDsToDelete = recordIDsToDelete
        self.savePolicy = savePolicy
        self.isAtomic = isAtomic
    }

    /// Items in the request: CloudKit's limit counts saves (shares included) and deletions.
    public var itemCount: Int { recordsToSave.count + sharesToSave.count + recordIDsToDelete.count }

    /// Every item's ID: records to save, shares to save, records to delete.
    public var itemIDs: [RecordID] {
        recordsToSave.map(\.id) + sharesToSave.map(\.id) + recordIDsToDelete
    }

    /// The request split by zone, in the order the zones first appear, each part with the
    /// request's policy: CloudKit commits atomically zone by zone, never across zones.
    public var zoneParts: [ModifyRequest] {
        var zones: [ZoneID] = []
        for id in itemIDs where !zones.contains(id.zoneID) { zones.append(id.zoneID) }
        return zones.map { zone in
            ModifyRequest(
                recordsToSave: recordsToSave.filter { $0.id.zoneID == zone }, sharesToSave: sharesToSave.filter { $0.id.zoneID == zone },
                recordIDsToDelete: recordIDsToDelete.filter { $0.zoneID == zone }, savePolicy: savePolicy, isAtomic: isAtomic)
        }
    }
}

/// Each item's outcome: saved records come back with their new change tags.
public struct ModifyResult: Sendable {
    /// Each saved record's outcome: the record as the server now has it (new change tag), or why not.
    public var savedRecords: [RecordID: Result<SyncRecord, CloudError>]
    /// Each saved share's outcome.
    public var savedShares: [RecordID: Result<ShareRecord, CloudError>]
    /// Each deletion's outcome (deleting a record the server does not have succeeds).
    public var deletedRecords: [RecordID: Result<Void, CloudError>]

    /// A result; the gateway fills in one outcome per item of the request.
    public init(
        savedRecords: [RecordID: Result<SyncRecord, CloudError>] = [:],
        savedShares: [RecordID: Result<ShareRecord, CloudError>] = [:],
        deletedRecords: [RecordID: Result<Void, CloudError>] = [:]
    ) {
        self.savedRecords = savedRecords
        self.savedShares = savedShares
        self.deletedRecords = deletedRecords
    }

    /// Adds the outcomes of another request's items (another part of one request).
    public mutating func add(_ other: ModifyResult) {
        savedRecords.merge(other.savedRecords) { _, later in later }
        savedShares.merge(other.savedShares) { _, later in later }
        deletedRecords.merge(other.deletedRecords) { _, later in later }
    }

    /// Every failed item's error.
    public var itemErrors: [RecordID: CloudError] {
        var errors: [RecordID: CloudError] = [:]
        for (id, result) in savedRecords { if case .failure(let error) = result { errors[id] = error } }
        for (id, result) in savedShares { if case .failure(let error) = result { errors[id] = error } }
        for (id, result) in deletedRecords { if case .failure(let error) = result { errors[id] = error } }
        return errors
    }

    /// `partialFailure` carrying each item's error, or nil when every item succeeded.
    public var partialFailure: CloudError? {
        let errors = itemErrors
        guard !errors.isEmpty else { return nil }
        return CloudError(.partialFailure, "\(errors.count) of \(savedRecords.count + savedShares.count + deletedRecords.count) items failed", itemErrors: errors)
    }
}

/// Why a zone left a database.
public enum ZoneDeletionReason: String, Sendable, Hashable, Codable {
    /// Deleted by a client (or, in the shared database, the share ended for this user).
    case deleted
    /// The user deleted the app's data from Settings.
    case purged
    /// The user reset their encrypted data.
    case encryptedDataReset
}

/// What changed in one database since a token: the zones to fetch changes of, the zones gone.
public struct DatabaseChanges: Sendable, Hashable {
    /// Zones with changes since the token.
    public var changedZones: [ZoneID]
    /// Zones that left the database, each with why (the engine acts differently on each).
    public var deletedZones: [ZoneID: ZoneDeletionReason]
    /// The token to pass next time; commit it only once the changes are applied.
    public var newToken: ChangeToken
    /// Whether more changes wait: fetch again with `newToken` before acting on the whole.
    public var moreComing: Bool

    /// The changes of one page.
    public init(changedZones: [ZoneID], deletedZones: [ZoneID: ZoneDeletionReason], newToken: ChangeToken, moreComing: Bool) {
        self.changedZones = changedZones
        self.deletedZones = deletedZones
        self.newToken = newToken
        self.moreComing = moreComing
    }
}

/// A deleted record: its ID and the type it had.
public struct DeletedRecord: Sendable, Hashable {
    /// The deleted record's ID.
    public var id: RecordID
    /// Its record type when it was deleted.
    public var recordType: String

    /// A deletion.
    public init(id: RecordID, recordType: String) {
        self.id = id
        self.recordType = recordType
    }
}

/// What changed in one zone since a token: saved records and shares, deleted records.
public struct ZoneChanges: Sendable, Hashable {
    /// Saved records, in the order they changed.
    public var changedRecords: [SyncRecord]
    /// Shares saved in the zone (a share is a record too).
    public var changedShares: [ShareRecord]
    /// Deleted records (shares included).
    public var deletedRecords: [DeletedRecord]
    /// The token to pass next time; commit it only once the page is applied.
    public var newToken: ChangeToken
    /// Whether more changes wait after this page.
    public var moreComing: Bool
    /// Records the page lists as changed but could not deliver, each with its error (CloudKit's
    /// failed `Result` among the modifications, or a record the gateway cannot read): the rest
    /// of the page is good without them, and they are fetched again by name.
    public var unreadableRecords: [RecordID: CloudError]

    /// The changes of one page.
    public init(
        changedRecords: [SyncRecord], changedShares: [ShareRecord], deletedRecords: [DeletedRecord], newToken: ChangeToken, moreComing: Bool,
        unreadableRecords: [RecordID: CloudError] = [:]
    ) {
        self.changedRecords = changedRecords
        self.changedShares = changedShares
        self.deletedRecords = deletedRecords
        self.newToken = newToken
        self.moreComing = moreComing
        self.unreadableRecords = unreadableRecords
    }
}

/// A query for records of one type: all of them, or those whose fields meet conditions.
public struct RecordQuery: Sendable, Hashable {
    /// The record type searched.
    public var recordType: String
    /// The zone to search; nil searches every zone of the database. The shared database takes
    /// one zone at a time, and the public database has only its default zone.
    public var zoneID: ZoneID?
    /// Conditions on fields, all of which a record meets.
    public var conditions: [FieldCondition]
    /// Sort order: fields, each ascending or descending; records without the field sort first
    /// ascending, last descending.
    public var sorts: [FieldSort]
    /// The fields to return; nil returns all. Asset contents are transferred only when the
    /// asset's field is desired.
    public var desiredKeys: [String]?
    /// At most this many records per page; nil lets the cloud choose.
    public var resultsLimit: Int?
    /// Where the previous page ended.
    public var cursor: QueryCursor?

    /// A query; with no conditions, every record of the type.
    public init(
        recordType: String, in zoneID: ZoneID? = nil, conditions: [FieldCondition] = [], sorts: [FieldSort] = [], desiredKeys: [String]? = nil,
        resultsLimit: Int? = nil, cursor: QueryCursor? = nil
    ) {
        self.recordType = recordType
        self.zoneID = zoneID
        self.conditions = conditions
        self.sorts = sorts
        self.desiredKeys = desiredKeys
        self.resultsLimit = resultsLimit
        self.cursor = cursor
    }
}

extension RecordQuery {
    /// Why CloudKit cannot run the query as it stands, or nil when it can: an equality on a list
    /// (CloudKit matches list fields with `CONTAINS` or `IN`, not `==`), on a location (CloudKit
    /// compares locations only by distance, `distanceToLocation:fromLocation:`) or on an asset
    /// (never queryable). Apple, `CKQuery`: "Predicate Rules for Query Objects". Every cloud
    /// refuses such a query at once, with `invalidArguments`, rather than sending it to fail on
    /// the server.
    package var inexpressibleCondition: String? {
        conditions.lazy.compactMap(problem(of:)).first
    }

    /// Why CloudKit cannot express one condition, or nil: a value of a kind it does not compare
    /// so, or not the values its comparison takes.
    private func problem(of condition: FieldCondition) -> String? {
        let (field, values) = (condition.field, condition.values)
        if condition.comparison == .withinDistance {
            guard values.count == 2, case .location = values[0], case .double(let radius) = values[1], radius.isFinite, radius >= 0 else {
                return "\(recordType): a distance from '\(field)' takes a location and a radius in meters"
            }
            return nil
        }
        for value in values {
            switch value {
            case .list: return "\(recordType) cannot be queried for a list equal to one: '\(field)' is a list"
            case .location: return "\(recordType) cannot be queried for a location equal to one: '\(field)' is compared only by distance"
            case .asset: return "\(recordType) cannot be queried by its asset '\(field)'"
            default: continue
            }
        }
        switch condition.comparison {
        case .beginsWith, .allTokens:
            guard values.count == 1, case .string = values[0] else {
                return "\(recordType): \(condition.comparison == .allTokens ? "a text search" : "BEGINSWITH on '\(field)'") takes one string"
            }
        case .isIn:
            break
        default:
            guard values.count == 1 else { return "\(recordType): the condition on '\(field)' compares with one value" }
        }
        return nil
    }
}

/// Where a query's page ended, opaque to clients: pass it back to get the next page. CloudKit's
/// `CKQueryOperation.Cursor` has no usable initialiser; its gateway archives it
/// (`NSSecureCoding`), and LocalCloud writes its own form.
public struct QueryCursor: Sendable, Hashable, Codable {
    /// The gateway's archive of the position.
    public var archive: Data

    /// A cursor as its gateway archived it (a gateway builds them; clients only hand them back).
    public init(archive: Data) {
        self.archive = archive
    }
}

/// One page of a query's results.
public struct QueryPage: Sendable, Hashable {
    /// The matching records of this page, in the query's order.
    public var records: [SyncRecord]
    /// Set when more records match: pass it in the next query.
    public var cursor: QueryCursor?
    /// Matching records the page could not deliver, each with its error (CloudKit's failed
    /// `Result` among the matches, or a record the gateway cannot read).
    public var unreadableRecords: [RecordID: CloudError]

    /// A page.
    public init(records: [SyncRecord], cursor: QueryCursor?, unreadableRecords: [RecordID: CloudError] = [:]) {
        self.records = records
        self.cursor = cursor
        self.unreadableRecords = unreadableRecords
    }
}

