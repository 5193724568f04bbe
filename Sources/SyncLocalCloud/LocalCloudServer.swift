import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// Who makes a request: a device, signed in to an account or not.
struct Caller: Sendable {
    var device: String
    var account: String?

    /// The signed-in user's record name; nil without an account.
    var user: String? { account.map(LocalCloudServer.userRecordName(forAccount:)) }
}

/// A zone as the server stores it: its real owner (never `__defaultOwner__`) and name.
struct StoredZone: Hashable, Sendable {
    var owner: String
    var name: String

    var isCustom: Bool { ZoneID(zoneName: name, ownerName: owner).isCustom }
}

/// What a caller may do in a zone.
enum ZoneAccess {
    /// The zone's owner (private database), or anyone in the public database.
    case full
    /// A participant: the share roots they joined, with their permission; a zone-wide share covers
    /// every record.
    case participant(roots: [String: SharePermission], zoneWide: SharePermission?)

    func permission(forRoot root: String?) -> SharePermission {
        switch self {
        case .full: return .readWrite
        case .participant(let roots, let zoneWide):
            if let zoneWide { return zoneWide }
            guard let root else { return .none }
            return roots[root] ?? .none
        }
    }
}

/// LocalCloud's rules, over its store. Not thread-safe: ``LocalCloud`` serialises calls.
final class LocalCloudServer {
    let store: LocalCloudStore
    let clock: any SyncClock
    /// Where fetched assets are written for devices to read.
    let downloads: URL
    var database: SQLiteDatabase { store.database }
    /// Schema fields read from the store (`LocalCloudServer+Schema`).
    var schemaCache: [String: SchemaField] = [:]
    /// Records this process's faults make unreadable (`LocalCloud.makeUnreadable`), by name.
    var unreadable: [String: UnreadableRecordFault] = [:]

    init(store: LocalCloudStore, clock: any SyncClock, downloads: URL) {
        self.store = store
        self.clock = clock
        self.downloads = downloads
    }

    // MARK: - Accounts

    static func userRecordName(forAccount account: String) -> String { "_" + account }

    func ensureAccount(_ account: String) throws {
        try database.query("INSERT OR IGNORE INTO accounts (name, status) VALUES (?, ?)", [.text(account), .text(AccountStatus.available.rawValue)])
    }

    func setAccountStatus(_ account: String, _ status: AccountStatus) throws {
        try database.query("INSERT INTO accounts (name, status) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET status = excluded.status", [.text(account), .text(status.rawValue)])
    }

    func accountStatus(_ account: String?) throws -> AccountStatus {
        guard let account else { return .noAccount }
        let rows = try database.query("SELECT status FROM accounts WHERE name = ?", [.text(account)])
        return rows.first.flatMap { AccountStatus(rawValue: $0.text(0)) } ?? .noAccount
    }

    // MARK: - Storage

    /// The storage an owner (a user record name, or the public database's owner) may fill; nil
    /// when unlimited.
    func quota(of owner: String) throws -> Int? {
        try database.query("SELECT bytes FROM quotas WHERE owner = ?", [.text(owner)]).first.map { Int($0.integer(0)) }
    }

    func setQuota(_ bytes: Int?, of owner: String) throws {
        if let bytes {
            try database.query("INSERT INTO quotas (owner, bytes) VALUES (?, ?) ON CONFLICT(owner) DO UPDATE SET bytes = excluded.bytes", [.text(owner), .integer(Int64(bytes))])
        } else {
            try database.query("DELETE FROM quotas WHERE owner = ?", [.text(owner)])
        }
    }

    /// The bytes an owner's live records take, as `RecordSize` measures them.
    func storageUsed(by owner: String) throws -> Int {
        Int(try database.query("SELECT COALESCE(SUM(size), 0) FROM records WHERE owner = ? AND deleted = 0", [.text(owner)]).first?.integer(0) ?? 0)
    }

    // MARK: - Zones

    /// The zone `zone` names in `scope` for `caller`, and what the caller may do there. Throws the
    /// error CloudKit gives for a missing, deleted or forbidden zone.
    func access(_ zone: ZoneID, scope: DatabaseScope, caller: Caller, writing: Bool) throws -> (StoredZone, ZoneAccess) {
        switch scope {
        case .public:
            guard zone == SyncConstants.publicZone else {
                throw CloudError(.invalidArguments, "the public database has only the default zone")
            }
            if writing { _ = try signedIn(caller) }
            return (StoredZone(owner: LocalCloudStore.publicOwner, name: zone.zoneName), .full)
        case .private:
            let user = try signedIn(caller)
            guard zone.ownerName == SyncConstants.currentUserOwnerName || zone.ownerName == user else {
                throw CloudError(.invalidArguments, "zone \(zone) is not in the private database; other users' zones are in the shared database")
            }
            let stored = StoredZone(owner: user, name: zone.zoneName)
            if zone.zoneName == SyncConstants.publicZoneName {
                try createZoneIfNeeded(stored)
            }
            try requireLive(stored)
            return (stored, .full)
        case .shared:
            let user = try signedIn(caller)
            guard zone.ownerName != SyncConstants.currentUserOwnerName, zone.ownerName != user else {
                throw CloudError(.invalidArguments, "zone \(zone) is the user's own: it is in the private database")
            }
            let stored = StoredZone(owner: zone.ownerName, name: zone.zoneName)
            let memberships = try database.query(
                "SELECT m.permission, m.active, s.root FROM memberships m JOIN shares s ON s.owner = m.owner AND s.zone = m.zone AND s.name = m.share WHERE m.user = ? AND m.owner = ? AND m.zone = ?",
                [.text(user), .text(stored.owner), .text(stored.name)])
            guard !memberships.isEmpty else { throw CloudError(.zoneNotFound, "no share of zone \(zone) was accepted by this user") }
            var roots: [String: SharePermission] = [:]
            var zoneWide: SharePermission?
            for row in memberships where row.integer(1) == 1 {
                let permission = SharePermission(rawValue: row.text(0)) ?? .readOnly
                if let root = row.optionalText(2) { roots[root] = permission } else { zoneWide = permission }
            }
            guard !roots.isEmpty || zoneWide != nil else {
                throw CloudError(.permissionFailure, "this user's access to zone \(zone) has ended")
            }
            try requireLive(stored)
            return (stored, .participant(roots: roots, zoneWide: zoneWide))
        }
    }

    func signedIn(_ caller: Caller) throws -> String {
        guard let user = caller.user else { throw CloudError(.notAuthenticated, "no iCloud account is signed in") }
        return user
    }

    /// 0 live, or gone: 1 deleted, 2 purged, 3 lost to an encrypted data reset (`ZoneDeletionReason`
    /// by `zoneState(for:)`); nil for a zone that never existed.
    func zoneState(_ zone: StoredZone) throws -> Int64? {
        try database.query("SELECT state FROM zones WHERE owner = ? AND name = ?", [.text(zone.owner), .text(zone.name)]).first?.integer(0)
    }

    func requireLive(_ zone: StoredZone) throws {
        switch try zoneState(zone) {
        case 0: return
        case 2: throw CloudError(.userDeletedZone, "the user deleted zone \(zone.name) from Settings")
        case 3:
            // Apple, `CKErrorUserDidResetEncryptedDataKey`: set on `zoneNotFound` when "a user
            // action causes CloudKit to delete a record zone".
            var error = CloudError(.zoneNotFound, "zone \(zone.name) went with the user's encrypted data")
            error.userDidResetEncryptedData = true
            throw error
        default: throw CloudError(.zoneNotFound, "zone \(zone.name) does not exist")
        }
    }

    func createZoneIfNeeded(_ zone: StoredZone) throws {
        let state = try zoneState(zone)
        guard state != 0 else { return }
        let seq = try store.nextSequence()
        if state == nil {
            try database.query("INSERT INTO zones (owner, name, epoch, state, change_seq, min_token_seq) VALUES (?, ?, ?, 0, ?, 0)", [.text(zone.owner), .text(zone.name), .integer(seq), .integer(seq)])
        } else {
            // Recreated: a new epoch, so tokens from the zone's earlier life expire.
            try database.query("UPDATE zones SET state = 0, epoch = ?, change_seq = ?, min_token_seq = 0 WHERE owner = ? AND name = ?", [.integer(seq), .integer(seq), .text(zone.owner), .text(zone.name)])
        }
    }

    /// The stored state of a zone gone for `reason`.
    static func zoneState(for reason: ZoneDeletionReason) -> Int64 {
        switch reason {
        case .deleted: 1
        case .purged: 2
        case .encryptedDataReset: 3
        }
    }

    /// Why a zone in `state` is gone; nil for a live one.
    static func deletionReason(forZoneState state: Int64) -> ZoneDeletionReason? {
        switch state {
        case 0: nil
        case 2: .purged
        case 3: .encryptedDataReset
        default: .deleted
        }
    }

    /// Marks a zone gone for `reason` and removes its records, shares and memberships.
    func removeZone(_ zone: StoredZone, reason: ZoneDeletionReason) throws {
        let seq = try store.nextSequence()
        try database.query("UPDATE zones SET state = ?, change_seq = ? WHERE owner = ? AND name = ?", [.integer(Self.zoneState(for: reason)), .integer(seq), .text(zone.owner), .text(zone.name)])
        let arguments: [SQLiteValue] = [.text(zone.owner), .text(zone.name)]
        try database.query("DELETE FROM records WHERE owner = ? AND zone = ?", arguments)
        try database.query("DELETE FROM references_to WHERE owner = ? AND zone = ?", arguments)
        try database.query("DELETE FROM shares WHERE owner = ? AND zone = ?", arguments)
        try database.query("UPDATE memberships SET active = 0, seq = ? WHERE owner = ? AND zone = ? AND active = 1", [.integer(seq)] + arguments)
    }

    func touchZone(_ zone: StoredZone, seq: Int64) throws {
        try database.query("UPDATE zones SET change_seq = ? WHERE owner = ? AND name = ?", [.integer(seq), .text(zone.owner), .text(zone.name)])
    }

    /// The zone ID a caller sees: `__defaultOwner__` for their own zones and public records.
    func clientZoneID(_ zone: StoredZone, scope: DatabaseScope) -> ZoneID {
        switch scope {
        case .public: SyncConstants.publicZone
        case .private: ZoneID(zoneName: zone.name, ownerName: SyncConstants.currentUserOwnerName)
        case .shared: ZoneID(zoneName: zone.name, ownerName: zone.owner)
        }
    }

    // MARK: - Records

    /// A record row as the server keeps it.
    struct StoredRecord {
        var name: String
        var type: String
        var fields: RecordFields
        var encrypted: RecordFields
        var parent: String?
        var changeTag: String
        var modified: Date
        var creator: String
        var seq: Int64
        var deleted: Bool
        var created: Date
        var modifier: String
    }

    static let recordColumns = "name, type, fields, encrypted, parent, change_tag, modified, creator, seq, deleted, created, modifier"

    func storedRecord(_ row: SQLiteRow) throws -> StoredRecord {
        StoredRecord(
            name: row.text(0), type: row.text(1), fields: try FieldsCodec.decode(row.blob(2)),
            encrypted: try FieldsCodec.decode(row.blob(3)), parent: row.optionalText(4), changeTag: row.text(5),
            modified: Date(timeIntervalSince1970: row.real(6)), creator: row.text(7), seq: row.integer(8),
            deleted: row.integer(9) != 0, created: Date(timeIntervalSince1970: row.real(10)), modifier: row.text(11))
    }

    func record(named name: String, in zone: StoredZone) throws -> StoredRecord? {
        let rows = try database.query("SELECT \(Self.recordColumns) FROM records WHERE owner = ? AND zone = ? AND name = ?", [.text(zone.owner), .text(zone.name), .text(name)])
        return try rows.first.map(storedRecord)
    }

    /// The version of `record` before its last save, if that version has `tag`: the ancestor a
    /// conflict names (Apple, `CKError.ancestorRecord`: "The original version of the record").
    /// LocalCloud keeps one version back.
    func previousVersion(of record: StoredRecord, taggedAs tag: String, in zone: StoredZone) throws -> StoredRecord? {
        guard let row = try database.query(
            "SELECT prev_fields, prev_encrypted, prev_parent FROM records WHERE owner = ? AND zone = ? AND name = ? AND prev_tag = ?",
            [.text(zone.owner), .text(zone.name), .text(record.name), .text(tag)]).first else { return nil }
        var previous = record
        previous.fields = try FieldsCodec.decode(row.blob(0))
        previous.encrypted = try FieldsCodec.decode(row.blob(1))
        previous.parent = row.optionalText(2)
        previous.changeTag = tag
        return previous
    }

    /// The share root that decides who may see a record: the nearest of the record and its
    /// ancestors that roots a live share (Apple, `CKRecord.share`: "If any records have a parent
    /// reference to this record, CloudKit implicitly shares them along with this record"; what is
    /// above the root plays no part), or the topmost ancestor when none does. `pending` holds
    /// parents of records being saved in this request.
    func shareRoot(of name: String, in zone: StoredZone, pending: [String: String?] = [:]) throws -> String {
        var current = name
        for _ in 0..<64 {
            if try !database.query("SELECT 1 FROM shares WHERE owner = ? AND zone = ? AND root = ? AND deleted = 0", [.text(zone.owner), .text(zone.name), .text(current)]).isEmpty {
                return current
            }
            let parent: String?
            if let pendingParent = pending[current] {
                parent = pendingParent
            } else {
                parent = try database.query("SELECT parent FROM records WHERE owner = ? AND zone = ? AND name = ?", [.text(zone.owner), .text(zone.name), .text(current)]).first?.optionalText(0)
            }
            guard let parent else { return current }
            current = parent
        }
        return current
    }

    /// The record as the caller receives it: its zone as they name it, only the desired fields,
    /// and asset contents written to a file only when the asset's field is desired. A conflict's
    /// server record keeps its assets as references (`downloadingAssets` false): the client only
    /// merges it, and saving the reference back transfers nothing.
    /// `viewer` is the caller's user record name: a record they created names its creator
    /// `__defaultOwner__`, as CloudKit does.
    func clientRecord(_ stored: StoredRecord, zone: StoredZone, scope: DatabaseScope, desiredKeys: [String]?, viewer: String?, downloadingAssets: Bool = true) throws -> SyncRecord {
        var record = SyncRecord(
            recordType: stored.type,
            id: RecordID(recordName: stored.name, zoneID: clientZoneID(zone, scope: scope)),
            fields: try deliver(stored.fields, desiredKeys: desiredKeys, downloadingAssets: downloadingAssets),
            encryptedFields: try deliver(stored.encrypted, desiredKeys: desiredKeys, downloadingAssets: downloadingAssets),
            parentRecordName: stored.parent, changeTag: stored.changeTag, modificationDate: stored.modified)
        record.systemFields = LocalCloudSystemFields.archive(recordType: stored.type, id: record.id, changeTag: stored.changeTag)
        record.creatorUserRecordName = Self.creatorName(stored.creator, viewer: viewer)
        record.creationDate = stored.created
        record.lastModifiedUserRecordName = Self.creatorName(stored.modifier, viewer: viewer)
        record.shareRecordName = try database.query(
            "SELECT name FROM shares WHERE owner = ? AND zone = ? AND root = ? AND deleted = 0",
            [.text(zone.owner), .text(zone.name), .text(stored.name)]).first?.text(0)
        return record
    }

    /// A creator (or last modifier) as `viewer` sees them.
    static func creatorName(_ creator: String, viewer: String?) -> String {
        creator == viewer ? SyncConstants.currentUserOwnerName : creator
    }

    private func deliver(_ fields: RecordFields, desiredKeys: [String]?, downloadingAssets: Bool) throws -> RecordFields {
        var delivered = RecordFields(minimumCapacity: fields.count)
        for (name, value) in fields where desiredKeys?.contains(name) ?? true {
            if case .asset(let asset) = value, downloadingAssets {
                delivered.append(name, .asset(try download(asset)))
            } else {
                delivered.append(name, value)
            }
        }
        return delivered
    }

    // MARK: - Assets

    static let assetScheme = "localcloud-asset"

    /// Stores an uploaded file's contents; the record keeps a reference to them.
    func upload(_ asset: SyncAsset) throws -> SyncAsset {
        if asset.fileURL.scheme == Self.assetScheme { return asset }
        guard let bytes = try? Data(contentsOf: asset.fileURL) else {
            throw CloudError(.invalidArguments, "cannot read the asset file \(asset.fileURL.path)")
        }
        let id = try database.query("INSERT INTO assets (bytes) VALUES (?) RETURNING id", [.blob(bytes)]).first?.integer(0) ?? 0
        try store.count("assetBytes.uploaded", by: Int64(bytes.count))
        return SyncAsset(fileURL: URL(string: "\(Self.assetScheme):\(id)")!)
    }

    /// Writes a stored asset's contents to a file in the downloads folder, counting the transfer.
    private func download(_ asset: SyncAsset) throws -> SyncAsset {
        guard asset.fileURL.scheme == Self.assetScheme, let id = Int64(asset.fileURL.absoluteString.dropFirst(Self.assetScheme.count + 1)) else {
            return asset
        }
        let bytes = try database.query("SELECT bytes FROM assets WHERE id = ?", [.integer(id)]).first?.blob(0) ?? Data()
        let file = downloads.appendingPathComponent("asset-\(id)")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        try bytes.write(to: file, options: .atomic)
        try store.count("assetBytes.downloaded", by: Int64(bytes.count))
        return SyncAsset(fileURL: file)
    }
}
