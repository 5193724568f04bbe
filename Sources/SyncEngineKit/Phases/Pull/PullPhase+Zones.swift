import Foundation
import SyncCore
import SyncPorts

// The private and shared databases: each database's zones through their change feeds, a page a
// transaction; a zone gone, a shared root gone.
extension PullPhase {
    /// Reads a database's changed zones. Returns the failure of a zone that failed on its own
    /// (`RecoveryPolicy.sparesOtherZones`): the other zones were read, and the caller reads the
    /// other database before it reports it.
    func pullDatabase(_ scope: DatabaseScope, state: inout PullState) async throws(SyncError) -> SyncError? {
        context.events.publish(.pullStarted(scope))
        try refetchZonesForNewKeys(in: scope)
        let key = SyncStateKeys.databaseToken(scope)
        var token = try context.transaction { try $0.state(key) }.map(ChangeToken.init(storedValue:))
        // Fetched from scratch, the database lists the zones there are, not those that went: a
        // zone this device follows that the whole listing leaves out is gone.
        var listed: Set<ZoneID>? = token == nil ? [] : nil
        var recovered = false
        var leftOut = false
        var attempted: Set<ZoneID> = []
        var zoneFailure: SyncError?
        while true {
            let changes: DatabaseChanges
            do {
                changes = try await context.cloud.fetchDatabaseChanges(in: scope, since: token)
            } catch .cloud(let error) where !recovered && RecoveryPolicy.readFailure(error, zoneIn: nil) == .startOver {
                recovered = true
                token = nil
                listed = []
                continue
            }
            try await account.verify()
            // A zone this device does not mirror is none of its business, gone or changed.
            for (zone, reason) in changes.deletedZones.sorted(by: { $0.key.description < $1.key.description }) where context.mirrors(zone, in: scope) {
                state.rebuild(try zoneWentAway(zone, reason: reason, scope: scope))
            }
            listed?.formUnion(changes.changedZones)
            listed?.formUnion(changes.deletedZones.keys)
            if try await pullChangedZones(changes.changedZones, scope: scope, state: &state, attempted: &attempted, failure: &zoneFailure) {
                leftOut = true
            }
            token = changes.newToken
            // A zone left out keeps its place: the next pass is told of it again. A listing from
            // scratch is kept only whole: cut off, the next pass lists again from scratch.
            if !leftOut && (listed == nil || !changes.moreComing) { try context.transaction { try $0.setState(key, changes.newToken.storedValue) } }
            if !changes.moreComing { break }
        }
        if let listed, !leftOut {
            for zone in try context.transaction({ try Self.followedZones(in: scope, in: $0) }) where !listed.contains(zone) {
                try await account.verify()
                state.rebuild(try zoneWentAway(zone, reason: .deleted, scope: scope))
            }
        }
        try await pullZonesStillUnfetched(in: scope, besides: attempted, state: &state)
        if zoneFailure == nil { context.events.publish(.pullCompleted(scope)) }
        return zoneFailure
    }

    /// Reads each zone the feed says changed that this device mirrors; returns whether it left
    /// one out (the pass's options, or its own failure, which `failure` keeps: the other zones
    /// are read, and the pass reports it after them). Each is unfetched until its last page
    /// lands, whether this pass reads it or leaves it out.
    private func pullChangedZones(
        _ changed: [ZoneID], scope: DatabaseScope, state: inout PullState, attempted: inout Set<ZoneID>, failure: inout SyncError?
    ) async throws(SyncError) -> Bool {
        let mirrored = changed.filter { context.mirrors($0, in: scope) }
        try context.transaction { store in
            for zone in mirrored { try store.setState(SyncStateKeys.zoneUnfetched(zone, scope), "1") }
        }
        var leftOut = false
        for zone in mirrored {
            guard options.zones?.contains(zone) ?? true else {
                leftOut = true
                continue
            }
            attempted.insert(zone)
            do throws(SyncError) {
                try await pullZone(zone, scope: scope, state: &state)
            } catch where RecoveryPolicy.sparesOtherZones(error) {
                failure = failure ?? error
                leftOut = true
            }
        }
        return leftOut
    }

    /// A zone this device began to mirror is read from its start, though the feed names it only
    /// when it changes, and so is a zone to fetch again for new keys: each zone of the database
    /// still marked unfetched that this pull did not read (of the private database, those the
    /// app mirrors).
    private func pullZonesStillUnfetched(in scope: DatabaseScope, besides attempted: Set<ZoneID>, state: inout PullState) async throws(SyncError) {
        let waiting = try context.transaction { store in
            let marked = try store.stateKeys(prefix: SyncStateKeys.zoneUnfetchedPrefix).compactMap { key in
                SyncStateKeys.zone(inKey: key, after: SyncStateKeys.zoneUnfetchedPrefix).flatMap { $0.scope == scope ? $0.zone : nil }
            }
            return scope == .private ? context.mirroredOwnZones.filter(marked.contains) : marked.filter { context.mirrors($0, in: scope) }.sorted { $0.description < $1.description }
        }
        for zone in waiting where !attempted.contains(zone) && (options.zones?.contains(zone) ?? true) {
            try await pullZone(zone, scope: scope, state: &state)
        }
    }

    /// Zones fetched with fewer keys than the app reads now (an update added a field or a
    /// model): the feed sends only the keys asked for, so records already here never brought the
    /// new keys' values that other devices wrote. Each such zone is fetched again from scratch,
    /// once (a listing, as a forgotten history is: ``ZoneRefetch``), and its records arrive with
    /// every key, merged where this device changed them (a backfill's values yield to the
    /// cloud's: ``CloudVersionArrival``). A zone fetched before keys were recorded counts as
    /// fetched with fewer.
    private func refetchZonesForNewKeys(in scope: DatabaseScope) throws(SyncError) {
        try context.transaction { store in
            for zone in try Self.followedZones(in: scope, in: store) where try store.state(SyncStateKeys.zoneKeys(zone, scope)) != context.registry.keysSignature {
                try store.setState(SyncStateKeys.zoneToken(zone, scope), nil)
                try store.setState(SyncStateKeys.zoneUnfetched(zone, scope), "1")
            }
        }
    }

    /// The zones of a database this device follows: those it keeps a change token of.
    static func followedZones(in scope: DatabaseScope, in store: any Topics) throws -> [ZoneID] {
        try store.stateKeys(prefix: SyncStateKeys.zoneTokenPrefix).compactMap { key in
            guard let (zone, keyScope) = SyncStateKeys.zone(inKey: key, after: SyncStateKeys.zoneTokenPrefix), keyScope == scope else { return nil }
            return zone
        }.sorted { $0.description < $1.description }
    }

    func pullZone(_ zone: ZoneID, scope: DatabaseScope, state: inout PullState) async throws(SyncError) {
        let key = SyncStateKeys.zoneToken(zone, scope)
        var (token, listing) = try context.transaction { store in
            (try store.state(key).map(ChangeToken.init(storedValue:)), try ZoneRefetch.listing(of: zone, scope: scope, in: store))
        }
        var recovered = false
        var shareDeleted = false
        while true {
            let page: ZoneChanges
            do {
                page = try await context.cloud.fetchZoneChanges(
                    in: zone, scope: scope, since: token, resultsLimit: context.configuration.zoneChangesPageSize,
                    desiredKeys: context.registry.keysWithoutAssetContents)
            } catch .cloud(let error) {
                switch RecoveryPolicy.readFailure(error, zoneIn: scope) {
                case .startOver where !recovered:
                    // The server forgot the zone's history: fetched again from scratch, and what
                    // it no longer lists is reconciled at the end. The listing begins with the
                    // first page it keeps (below), never before: an answer the pass cannot keep
                    // (the account changed under it) leaves the kept token as it was.
                    recovered = true
                    token = nil
                    listing = nil
                    continue
                case .zoneGone(let reason):
                    try await account.verify()
                    state.rebuild(try zoneWentAway(zone, reason: reason, scope: scope))
                    return
                case .startOver, .fail:
                    throw .cloud(error)
                }
            }
            try await account.verify()
            let known = listing
            listing = try applyingPulled(page.changedRecords, state: &state) { store, state, unreadable in
                try PulledPageLanding(context: context).land(
                    page, of: zone, scope: scope, fromScratch: token == nil, listing: known, skipping: unreadable, state: &state, in: store)
            }
            if page.deletedRecords.contains(where: { $0.recordType == ShareRecord.recordType }) { shareDeleted = true }
            context.events.publish(.pullProgress(scope: scope, zone: zone, records: page.changedRecords.count, deletions: page.deletedRecords.count))
            token = page.newToken
            if !page.moreComing { break }
        }
        if scope == .shared && shareDeleted {
            try await recheckSharedRoots(in: zone)
        }
    }

    /// After a share record was deleted: each local shared root of the zone is read back; only a
    /// root that is gone, or no longer readable, ends. A failed check keeps the data.
    func recheckSharedRoots(in zone: ZoneID) async throws(SyncError) {
        for type in context.sharedTypes(in: zone) where type is any ShareableModel.Type {
            let roots = try context.transaction { try $0.recordNames(type: type, ownerName: zone.ownerName) }
            guard !roots.isEmpty else { continue }
            let ids = roots.map { RecordID(recordName: $0, zoneID: zone) }
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.cloud.fetchRecords(ids, desiredKeys: [], in: .shared)
            } catch .cloud(let error) where RecoveryPolicy.readFailure(error, zoneIn: .shared) == .zoneGone(.deleted) {
                // No longer allowed in: the zone is gone for this user.
                try await account.verify()
                _ = try zoneWentAway(zone, reason: .deleted, scope: .shared)
                return
            } catch {
                return
            }
            try await account.verify()
            try context.transaction { store in
                for id in ids {
                    switch RecoveryPolicy.answer(found[id], for: id) {
                    case .gone, .notAllowed: break
                    default: continue
                    }
                    let lost = try ParentChain(context: context).removeSharedSubtree(root: id.recordName, type: type, zone: zone, in: store)
                    try LostChanges(context: context).announce(.shareEnded(zone, rootRecordName: id.recordName, lostChanges: lost), in: store)
                }
            }
        }
    }

    /// A zone left a database; what the server knew of it is forgotten, in one transaction.
    ///
    /// - A shared zone's local copy goes (that zone's only: never the user's own data).
    /// - A private zone keeps its local data. Deleted by another client or reset with the user's
    ///   encrypted data, its records are queued to go up again (``ZoneRebuild``) in that same
    ///   transaction. Purged by the user in Settings, nothing of it is uploaded until the app
    ///   decides (``SyncEngine``'s `uploadAgainAfterUserDeletedZone` or
    ///   `removeLocalDataOfUserDeletedZone`).
    /// Returns the private zone to create again, if any.
    func zoneWentAway(_ zone: ZoneID, reason: ZoneDeletionReason, scope: DatabaseScope) throws(SyncError) -> ZoneID? {
        try context.transaction { store in
            try ZoneServerState.forget(zone, scope: scope, in: store)
            guard scope == .shared else {
                if reason == .purged {
                    try store.setState(SyncStateKeys.userDeletedZone(zone), "1")
                } else {
                    try ZoneRebuild.queueEverything(of: zone, types: context.zonedTypes(in: zone), in: store)
                }
                return
            }
            let lost = try ParentChain(context: context).removeCopy(of: zone, types: context.sharedTypes(in: zone), in: store)
            try LostChanges(context: context).announce(.shareEnded(zone, rootRecordName: nil, lostChanges: lost), in: store)
        }
        guard scope == .private else { return nil }
        switch reason {
        case .purged:
            context.events.publish(.userDeletedZone(zone))
            return nil
        case .encryptedDataReset:
            context.events.publish(.encryptedDataReset(zone))
            return zone
        case .deleted:
            return zone
        }
    }
}
