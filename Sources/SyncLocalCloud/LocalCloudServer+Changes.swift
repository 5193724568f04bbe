import Foundation
import SyncCore
import SyncPorts

extension LocalCloudServer {
    /// Apple, `CKError.badDatabase`: the operation went to a database that does not serve it. The
    /// public database has no zones of its own to track, so it has no change feed.
    static var noChangeFeedInPublic: CloudError {
        CloudError(.badDatabase, "the public database has no change feed: query it")
    }

    /// Apple, `CKRecordZone.defaultRecordZone()`: the default zone "does not have any special
    /// capabilities ... you cannot use a CKFetchRecordChangesOperation object on records in the
    /// default zone". Apple names no error code; LocalCloud refuses the fetch as a bad argument.
    static var noChangeTrackingInDefaultZone: CloudError {
        CloudError(.invalidArguments, "the default zone tracks no changes: keep synced records in a custom zone, or fetch them by ID")
    }

    /// Zones changed or gone from a private or shared database since `token`.
    func databaseChanges(scope: DatabaseScope, since token: ChangeToken?, caller: Caller, pageSize: Int) throws -> DatabaseChanges {
        guard scope != .public else { throw Self.noChangeFeedInPublic }
        let user = try signedIn(caller)
        // The server forgot the database's history before this point (`expireDatabaseChangeTokens`):
        // a token issued before it has expired, and a fetch from scratch lists the zones there
        // are, and no zone that went before it (the harsher reading, as for a zone's records).
        let forgotten = try database.query("SELECT forgotten FROM database_history WHERE user = ? AND scope = ?", [.text(user), .text(scope.rawValue)]).first?.integer(0) ?? 0
        var after: Int64 = 0
        if let token {
            let parts = token.localCloudText.split(separator: ":")
            guard parts.count == 2 || parts.count == 3, parts[0] == "db", let seq = Int64(parts[1]) else {
                throw CloudError(.invalidArguments, "not a db change token: \(token)")
            }
            guard parts.count == 3 ? Int64(parts[2]) == forgotten : seq >= forgotten else {
                throw CloudError(.changeTokenExpired, "the change token for the \(scope) database has expired; fetch it from scratch")
            }
            after = seq
        }
        // (sequence, zone, deletion reason) for every zone event after the token.
        var events: [(seq: Int64, zone: StoredZone, deleted: ZoneDeletionReason?)] = []
        if scope == .private {
            // The default zone tracks no changes (`noChangeTrackingInDefaultZone`): never listed.
            for row in try database.query("SELECT owner, name, state, change_seq FROM zones WHERE owner = ? AND change_seq > ? AND name != ? ORDER BY change_seq", [.text(user), .integer(after), .text(SyncConstants.publicZoneName)]) {
                events.append((row.integer(3), StoredZone(owner: row.text(0), name: row.text(1)), Self.deletionReason(forZoneState: row.integer(2))))
            }
        } else {
            let rows = try database.query(
                """
                SELECT m.owner, m.zone, MAX(m.active), MAX(m.seq), z.change_seq, z.state FROM memberships m
                JOIN zones z ON z.owner = m.owner AND z.name = m.zone
                WHERE m.user = ? GROUP BY m.owner, m.zone
                """, [.text(user)])
            for row in rows {
                let zone = StoredZone(owner: row.text(0), name: row.text(1))
                let active = row.integer(2) == 1 && row.integer(5) == 0
                // A zone the user no longer has changes for them only when their membership ended:
                // the owner's later writes are not in this user's database (Apple,
                // `CKDatabaseSubscription`: changes to zones "in the database where you save the
                // subscription"), and its deletion is told once.
                let seq = active ? max(row.integer(3), row.integer(4)) : row.integer(3)
                guard seq > after else { continue }
                // A share that ended, or a zone its owner deleted, leaves the shared database.
                events.append((seq, zone, active ? nil : .deleted))
            }
            events.sort { $0.seq < $1.seq }
        }
        events.removeAll { $0.deleted != nil && $0.seq < forgotten }
        let page = events.prefix(pageSize)
        let newSeq = page.count < events.count ? page.last!.seq : try store.currentSequence()
        var changes = DatabaseChanges(changedZones: [], deletedZones: [:], newToken: ChangeToken(localCloud: "db:\(newSeq):\(forgotten)"), moreComing: page.count < events.count)
        for event in page {
            let zoneID = clientZoneID(event.zone, scope: scope)
            if let reason = event.deleted {
                changes.deletedZones[zoneID] = reason
            } else {
                changes.changedZones.append(zoneID)
            }
        }
        return changes
    }

    /// Records and shares of one zone saved or deleted since `token`, in change order.
    func zoneChanges(_ zoneID: ZoneID, scope: DatabaseScope, since token: ChangeToken?, resultsLimit: Int, desiredKeys: [String]?, caller: Caller) throws -> ZoneChanges {
        guard scope != .public else { throw Self.noChangeFeedInPublic }
        let (zone, access) = try self.access(zoneID, scope: scope, caller: caller, writing: false)
        guard zone.isCustom else { throw Self.noChangeTrackingInDefaultZone }
        let info = try database.query("SELECT epoch, min_token_seq FROM zones WHERE owner = ? AND name = ?", [.text(zone.owner), .text(zone.name)]).first!
        let epoch = info.integer(0)
        // The server forgot the zone's history before this point (`expireChangeTokens`): a fetch
        // from scratch lists what exists, and no deletion made before it (SDK header,
        // `CKErrorChangeTokenExpired`: "the client must re-sync from scratch"; nothing says the
        // server keeps what it deleted: the harsher reading).
        let forgotten = info.integer(1)
        var after: Int64 = 0
        if let token {
            let parts = token.localCloudText.split(separator: ":")
            guard parts.count == 3 || parts.count == 4, parts[0] == "zone", let tokenEpoch = Int64(parts[1]), let seq = Int64(parts[2]) else {
                throw CloudError(.invalidArguments, "not a zone change token: \(token)")
            }
            // A token names the point the server had forgotten to when it issued it: one issued
            // before the latest forgetting has expired, whatever record it stopped at (a fetch
            // from scratch pages through records older than that point). One of an older
            // LocalCloud names none: it holds while it is past that point.
            let issuedValid = parts.count == 4 ? Int64(parts[3]) == forgotten : seq >= forgotten
            guard tokenEpoch == epoch, issuedValid else {
                throw CloudError(.changeTokenExpired, "the change token for zone \(zone.name) has expired; fetch the zone from scratch")
            }
            after = seq
        }
        var changes = ZoneChanges(changedRecords: [], changedShares: [], deletedRecords: [], newToken: Self.zoneToken(epoch: epoch, sequence: after, forgotten: forgotten), moreComing: false)
        // Records and shares in one change order, read a page at a time.
        let rows = try database.query(
            """
            SELECT 0, name, seq FROM records WHERE owner = ? AND zone = ? AND seq > ?
            UNION ALL SELECT 1, name, seq FROM shares WHERE owner = ? AND zone = ? AND seq > ?
            ORDER BY 3 LIMIT ?
            """,
            [.text(zone.owner), .text(zone.name), .integer(after), .text(zone.owner), .text(zone.name), .integer(after), .integer(Int64(resultsLimit) + 1)])
        var lastSeq = after
        for row in rows.prefix(resultsLimit) {
            lastSeq = row.integer(2)
            let name = row.text(1)
            if row.integer(0) == 1 {
                try appendShareChange(name, zone: zone, scope: scope, access: access, reader: caller.user, to: &changes)
            } else if let stored = try record(named: name, in: zone) {
                let id = RecordID(recordName: name, zoneID: clientZoneID(zone, scope: scope))
                if try isVisible(name, in: zone, access: access) {
                    if stored.deleted {
                        guard stored.seq >= forgotten else { continue }
                        changes.deletedRecords.append(DeletedRecord(id: id, recordType: stored.type))
                    } else if let fault = readFault(name) {
                        changes.unreadableRecords[id] = fault
                    } else {
                        changes.changedRecords.append(try clientRecord(stored, zone: zone, scope: scope, desiredKeys: desiredKeys, viewer: caller.user))
                        try noteSeen(name, in: zone, access: access, by: caller.user)
                    }
                } else if stored.seq >= forgotten, try wasSeen(name, in: zone, access: access, by: caller.user) {
                    // Moved out of this participant's shares (or deleted after that): gone for
                    // them, a deletion the server forgets with the zone's history, as others.
                    changes.deletedRecords.append(DeletedRecord(id: id, recordType: stored.type))
                }
            }
        }
        changes.moreComing = rows.count > resultsLimit
        changes.newToken = Self.zoneToken(epoch: epoch, sequence: changes.moreComing ? lastSeq : max(lastSeq, try currentZoneSequence(zone)), forgotten: forgotten)
        try store.count("records.fetched", by: Int64(changes.changedRecords.count))
        return changes
    }

    /// A participant was handed a record: if it later leaves their shares (moved under a parent no
    /// share of theirs holds), its next change reads as a deletion to them. Apple does not say
    /// how a participant hears of a record leaving a share; LocalCloud takes the reading that
    /// leaves no stale copy on their devices, and never names a record they were not shown.
    func noteSeen(_ name: String, in zone: StoredZone, access: ZoneAccess, by user: String?) throws {
        guard case .participant = access, let user else { return }
        try database.query("INSERT OR IGNORE INTO participant_views (owner, zone, name, user) VALUES (?, ?, ?, ?)", [.text(zone.owner), .text(zone.name), .text(name), .text(user)])
    }

    private func wasSeen(_ name: String, in zone: StoredZone, access: ZoneAccess, by user: String?) throws -> Bool {
        guard case .participant = access, let user else { return false }
        return try !database.query("SELECT 1 FROM participant_views WHERE owner = ? AND zone = ? AND name = ? AND user = ?", [.text(zone.owner), .text(zone.name), .text(name), .text(user)]).isEmpty
    }

    /// A zone's change token: `zone:<epoch>:<sequence>:<forgotten>`, read back by `zoneChanges`.
    /// The epoch changes when the zone is created again, and `forgotten` when the server forgets
    /// the zone's history (`expireChangeTokens`), so older tokens expire.
    private static func zoneToken(epoch: Int64, sequence: Int64, forgotten: Int64) -> ChangeToken {
        ChangeToken(localCloud: "zone:\(epoch):\(sequence):\(forgotten)")
    }

    /// The server's sequence at a zone's last change.
    func currentZoneSequence(_ zone: StoredZone) throws -> Int64 {
        try database.query("SELECT change_seq FROM zones WHERE owner = ? AND name = ?", [.text(zone.owner), .text(zone.name)]).first?.integer(0) ?? 0
    }

    private func appendShareChange(_ name: String, zone: StoredZone, scope: DatabaseScope, access: ZoneAccess, reader: String?, to changes: inout ZoneChanges) throws {
        let id = RecordID(recordName: name, zoneID: clientZoneID(zone, scope: scope))
        if var share = try share(named: name, in: zone) {
            guard isVisible(share, access: access) else { return }
            share.id = id
            changes.changedShares.append(try self.share(share, readBy: reader))
        } else {
            changes.deletedRecords.append(DeletedRecord(id: id, recordType: ShareRecord.recordType))
        }
    }

    /// Records by name, each with its own outcome.
    /// Records by name. Apple, `CKError.Code.limitExceeded`: "An error that occurs when a request's
    /// size exceeds the limit": a fetch of more records than a request takes is refused as a
    /// modification is (the stricter reading: Apple gives the limit for modifications).
    func fetchRecords(_ ids: [RecordID], desiredKeys: [String]?, scope: DatabaseScope, caller: Caller) throws -> [RecordID: Result<SyncRecord, CloudError>] {
        guard ids.count <= CloudKitLimits.maxItemsPerRequest else {
            throw CloudError(.limitExceeded, "\(ids.count) records in one fetch; CloudKit takes at most \(CloudKitLimits.maxItemsPerRequest)")
        }
        var results: [RecordID: Result<SyncRecord, CloudError>] = [:]
        for id in ids {
            do {
                let (zone, access) = try self.access(id.zoneID, scope: scope, caller: caller, writing: false)
                guard let stored = try record(named: id.recordName, in: zone), !stored.deleted,
                    try isVisible(id.recordName, in: zone, access: access)
                else {
                    results[id] = .failure(CloudError(.unknownItem, "record \(id.recordName) does not exist"))
                    continue
                }
                if let fault = readFault(id.recordName) {
                    results[id] = .failure(fault)
                    continue
                }
                results[id] = .success(try clientRecord(stored, zone: zone, scope: scope, desiredKeys: desiredKeys, viewer: caller.user))
                try noteSeen(id.recordName, in: zone, access: access, by: caller.user)
                try store.count("records.fetched")
            } catch let error as CloudError {
                results[id] = .failure(error)
            }
        }
        return results
    }

    func fetchShares(_ ids: [RecordID], scope: DatabaseScope, caller: Caller) throws -> [RecordID: Result<ShareRecord, CloudError>] {
        var results: [RecordID: Result<ShareRecord, CloudError>] = [:]
        for id in ids {
            do {
                let (zone, access) = try self.access(id.zoneID, scope: scope, caller: caller, writing: false)
                guard var share = try share(named: id.recordName, in: zone), isVisible(share, access: access) else {
                    results[id] = .failure(CloudError(.unknownItem, "share \(id.recordName) does not exist"))
                    continue
                }
                share.id = id
                results[id] = .success(try self.share(share, readBy: caller.user))
            } catch let error as CloudError {
                results[id] = .failure(error)
            }
        }
        return results
    }

}

/// LocalCloud's change tokens: text (`db:<seq>:<forgotten>`, `zone:<epoch>:<seq>:<forgotten>`;
/// an older LocalCloud's without `forgotten`) as their archive.
extension ChangeToken {
    init(localCloud text: String) {
        self.init(archive: Data(text.utf8))
    }

    var localCloudText: String { String(decoding: archive, as: UTF8.self) }
}
