import Foundation
import SyncCore

/// The whole server state, for tests to assert on: every zone with its live records, tombstones
/// and shares, every membership, and the counters.
public struct LocalCloudSnapshot: Sendable {
    /// One zone as the server has it.
    public struct Zone: Sendable {
        /// The owner's user record name (`__public__` for the public database).
        public var owner: String
        /// The zone's name.
        public var name: String
        /// live, deleted, purged or reset (an encrypted data reset).
        public var state: String
        /// Live records by name, as the owner would fetch them (assets as stored references).
        public var records: [String: SyncRecord]
        /// Names of deleted records the server still remembers.
        public var tombstones: Set<String>
        /// Shares by record name.
        public var shares: [String: ShareRecord]
    }

    /// One user's membership of a shared zone.
    public struct Membership: Sendable, Hashable {
        /// The member's user record name.
        public var user: String
        /// The zone owner's user record name.
        public var owner: String
        /// The shared zone's name.
        public var zone: String
        /// The record name of the share that grants it.
        public var share: String
        /// What the member may do.
        public var permission: SharePermission
        /// Whether the membership is accepted and not removed.
        public var isActive: Bool
    }

    /// Every zone, by owner and name.
    public var zones: [Zone]
    /// Every membership.
    public var memberships: [Membership]
    /// Requests by kind (`requests.modify`...), `records.saved`, `records.deleted`,
    /// `records.fetched`, `bytes.uploaded`, `assetBytes.uploaded`, `assetBytes.downloaded`, and
    /// `notifications.<device>` (notifications sent to each device).
    public var counters: [String: Int64]

    /// The zone of an account's private database (or the public database's zone).
    public func zone(_ name: String, ofAccount account: String?) -> Zone? {
        let owner = account.map(LocalCloud.userRecordName(forAccount:)) ?? LocalCloudStore.publicOwner
        return zones.first { $0.owner == owner && $0.name == name }
    }

    /// Public records by name.
    public var publicRecords: [String: SyncRecord] {
        zone(SyncConstants.publicZoneName, ofAccount: nil)?.records ?? [:]
    }

    /// A counter's value (0 when it never moved).
    public func counter(_ name: String) -> Int64 { counters[name] ?? 0 }
}

extension LocalCloud {
    /// The whole server state now: zones, records, tombstones, shares, memberships, counters.
    public func snapshot() throws -> LocalCloudSnapshot {
        try withServer { server in
            var zones: [LocalCloudSnapshot.Zone] = []
            for row in try server.database.query("SELECT owner, name, state FROM zones ORDER BY owner, name") {
                let stored = StoredZone(owner: row.text(0), name: row.text(1))
                let scope: DatabaseScope = stored.owner == LocalCloudStore.publicOwner ? .public : .private
                var zone = LocalCloudSnapshot.Zone(owner: stored.owner, name: stored.name, state: ["live", "deleted", "purged", "reset"][Int(row.integer(2))], records: [:], tombstones: [], shares: [:])
                for recordRow in try server.database.query("SELECT \(LocalCloudServer.recordColumns) FROM records WHERE owner = ? AND zone = ?", [.text(stored.owner), .text(stored.name)]) {
                    let record = try server.storedRecord(recordRow)
                    if record.deleted {
                        zone.tombstones.insert(record.name)
                    } else {
                        zone.records[record.name] = SyncRecord(
                            recordType: record.type, id: RecordID(recordName: record.name, zoneID: server.clientZoneID(stored, scope: scope)),
                            fields: record.fields, encryptedFields: record.encrypted, parentRecordName: record.parent,
                            changeTag: record.changeTag, modificationDate: record.modified)
                    }
                }
                for shareRow in try server.database.query("SELECT name FROM shares WHERE owner = ? AND zone = ? AND deleted = 0", [.text(stored.owner), .text(stored.name)]) {
                    zone.shares[shareRow.text(0)] = try server.share(named: shareRow.text(0), in: stored)
                }
                zones.append(zone)
            }
            let memberships = try server.database.query("SELECT user, owner, zone, share, permission, active FROM memberships ORDER BY user, owner, zone, share").map {
                LocalCloudSnapshot.Membership(user: $0.text(0), owner: $0.text(1), zone: $0.text(2), share: $0.text(3), permission: SharePermission(rawValue: $0.text(4)) ?? .none, isActive: $0.integer(5) == 1)
            }
            var counters: [String: Int64] = [:]
            for row in try server.database.query("SELECT name, value FROM counters") { counters[row.text(0)] = row.integer(1) }
            return LocalCloudSnapshot(zones: zones, memberships: memberships, counters: counters)
        }
    }

    /// The counters alone (cheaper than a snapshot).
    public func counters() throws -> [String: Int64] {
        try withServer { server in
            var counters: [String: Int64] = [:]
            for row in try server.database.query("SELECT name, value FROM counters") { counters[row.text(0)] = row.integer(1) }
            return counters
        }
    }
}
