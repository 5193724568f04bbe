import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: KnownShares {
    func keepShare(_ share: ShareRecord) throws {
        let json = String(decoding: try JSONEncoder().encode(share), as: UTF8.self)
        try database.query(
            "INSERT OR REPLACE INTO sync_shares (zone_owner, zone, name, permission, share) VALUES (?, ?, ?, ?, ?)",
            [.text(share.id.zoneID.ownerName), .text(share.id.zoneID.zoneName), .text(share.id.recordName),
             share.currentUserParticipant.map { .text($0.permission.rawValue) } ?? .null, .text(json)])
    }

    func forgetShare(_ id: RecordID) throws {
        try database.query("DELETE FROM sync_shares WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
    }

    func forgetShares(inZone zone: ZoneID) throws {
        try database.query("DELETE FROM sync_shares WHERE zone_owner = ? AND zone = ?", [.text(zone.ownerName), .text(zone.zoneName)])
    }

    func keepsShares(inZone zone: ZoneID) throws -> Bool {
        try !database.query("SELECT 1 FROM sync_shares WHERE zone_owner = ? AND zone = ? LIMIT 1", [.text(zone.ownerName), .text(zone.zoneName)]).isEmpty
    }

    /// Every share kept in the zones of `owner`.
    func keptShares(ownedBy owner: String) throws -> [ShareRecord] {
        try database.query("SELECT share FROM sync_shares WHERE zone_owner = ? ORDER BY zone, name", [.text(owner)]).compactMap(Self.share)
    }

    /// The share of a root: the one its server version names, else its zone's zone-wide share;
    /// nil when neither is kept.
    func keptShare(ofRoot recordName: String, ownerName: String) throws -> ShareRecord? {
        let shares = try keptShares(ownedBy: ownerName)
        for zone in Self.zones(of: shares) {
            if let share = try chainLink(recordName, in: zone)?.share.flatMap({ Self.share(named: $0, in: zone, among: shares) }) { return share }
        }
        return shares.first { $0.isZoneWide }
    }

    /// The share that gives this user a record of someone else's, for a write to be checked
    /// against: the share of the nearest ancestor (the record itself first, then from `parent`
    /// up) whose server version names one, else its zone's zone-wide share. A record whose chain
    /// this device does not know (a parent not yet uploaded) takes the strictest reading the
    /// owner's shares allow: refused only when every one of them is read-only.
    func coveringShare(recordName: String, parent: String?, ownerName: String) throws -> ShareRecord? {
        let shares = try keptShares(ownedBy: ownerName)
        guard !shares.isEmpty else { return nil }
        for zone in Self.zones(of: shares) {
            // The record itself may be a shared root; its parent chain starts from `parent`, the
            // one it is saved with, not the one its server version names.
            if let share = try chainLink(recordName, in: zone)?.share.flatMap({ Self.share(named: $0, in: zone, among: shares) }) { return share }
            var next = parent
            var steps = 0
            while let name = next, steps < Self.deepestShareHierarchy, let link = try chainLink(name, in: zone) {
                if let share = link.share.flatMap({ Self.share(named: $0, in: zone, among: shares) }) { return share }
                next = link.parent
                steps += 1
            }
            if let zoneWide = Self.share(named: ShareRecord.zoneWideRecordName, in: zone, among: shares) { return zoneWide }
        }
        return shares.allSatisfy { $0.currentUserParticipant?.permission == .readOnly } ? shares[0] : nil
    }

    /// The share of that name in `zone`, among those kept.
    private static func share(named name: String, in zone: ZoneID, among shares: [ShareRecord]) -> ShareRecord? {
        shares.first { $0.id == RecordID(recordName: name, zoneID: zone) }
    }

    /// The zones shares are in, in a fixed order.
    private static func zones(of shares: [ShareRecord]) -> [ZoneID] {
        Set(shares.map(\.id.zoneID)).sorted { ($0.ownerName, $0.zoneName) < ($1.ownerName, $1.zoneName) }
    }

    /// A hierarchy deeper than this is taken as a cycle (CloudKit's own limit is not documented).
    private static let deepestShareHierarchy = 256

    /// The parent and share a record's server version names, or nil when none is kept.
    private func chainLink(_ name: String, in zone: ZoneID) throws -> (parent: String?, share: String?)? {
        try database.query("SELECT parent, share FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(StoredOwner.column(zone.ownerName)), .text(zone.zoneName), .text(name)])
            .first.map { ($0.optionalText(0), $0.optionalText(1)) }
    }

    /// A kept share from its JSON. One this version cannot read is as if not kept: the next pull
    /// that returns it keeps it again.
    private static func share(_ row: SQLiteRow) -> ShareRecord? {
        try? JSONDecoder().decode(ShareRecord.self, from: Data(row.text(0).utf8))
    }
}
