import Foundation
import SyncCore
import SyncPorts

/// The cloud -> local changes: the private and shared databases through their change feeds
/// (database, then zone, both paged until `moreComing` is false), the public catalogs that are
/// due by full queries (``CatalogRefresh``), then a bounded repair of references whose targets had
/// not arrived.
///
/// Each page applies in one transaction: its records (merged into models the app changed), their
/// server versions, its deletions and the zone's new change token land together or not at all,
/// after the account was checked again. A crash between pages leaves the previous page's token,
/// so the next pull starts where the store really is.
struct PullPhase {
    /// The store topics the pull's helpers read and write inside its transactions.
    typealias Topics = CloudVersionArrival.Topics & EngineState & KnownShares & CatalogProgress

    let context: SyncContext
    let account: PassAccount
    /// The zones and catalogs this pull reads: all, unless the pass's options narrow them.
    var options = SyncOptions.all

    /// How many rounds of fetching missing reference targets a pull makes.
    static let repairRounds = 2

    /// What a pull found that the pass must act on.
    struct Outcome: Sendable {
        /// Private zones gone from the cloud (deleted by another client, or reset with the user's
        /// encrypted data), their records already queued to go up again: created before the push.
        var zonesToRebuild: [ZoneID] = []
    }

    /// Pulls everything the pass's account may read. Signed out, only the public catalogs.
    func execute() async throws(SyncError) -> Outcome {
        var pulled = try context.transaction { store in
            PullState(localChanges: try LocalChanges(in: store), unreadable: Set(try UnreadableRecords.all(in: store).map(\.id)))
        }
        if account.isSignedIn {
            for scope in [DatabaseScope.private, .shared] {
                try await pullDatabase(scope, state: &pulled)
            }
        }
        try await pullCatalogs(state: &pulled)
        try await fetchUnreadableAgain(state: &pulled)
        try await repairReferences(state: &pulled)
        return pulled.outcome
    }

    /// What a pull collects as it goes.
    struct PullState {
        /// The models the app changed that the cloud does not have yet.
        var localChanges: LocalChanges
        /// References whose target is not stored: where to look (the ID names the zone), in
        /// which database, and the record type the reference names.
        var missing: [RecordID: MissingTarget] = [:]
        /// Records of the user's own zones pulled under a parent this device does not store: if
        /// the cloud has no such parent either, they follow it (`ParentChain.follow`).
        var orphans: [RecordID: [RecordKey]] = [:]
        /// The records kept as unreadable (``UnreadableRecords``): a version or deletion of one that
        /// arrives ends it.
        var unreadable: Set<RecordID> = []
        var outcome = Outcome()

        /// A private zone whose local records are to be uploaded again, once.
        mutating func rebuild(_ zone: ZoneID?) {
            if let zone, !outcome.zonesToRebuild.contains(zone) { outcome.zonesToRebuild.append(zone) }
        }
    }

    struct MissingTarget: Sendable {
        var scope: DatabaseScope
        var recordType: String
    }

    /// The models with a change of the app not in the cloud yet, read once per pull and brought
    /// up to date at each page's transaction with what the app wrote meanwhile: a pulled record
    /// is merged into such a model, never written over it, and a local copy of it is never
    /// dropped by a catalog's reconciliation. Costs the changes, not the store.
    struct LocalChanges {
        private var records: Set<RecordKey>
        private var readThrough: Int64

        init(in store: any Topics) throws {
            (records, readThrough) = try store.recordsWithLocalChanges()
        }

        /// Takes in what the app wrote since the last look, inside the page's transaction.
        mutating func refresh(in store: any Topics) throws {
            let later = try store.recordsChanged(after: readThrough)
            records.formUnion(later.records)
            readThrough = later.readThrough
        }

        func contains(_ recordType: String, _ recordName: String) -> Bool {
            records.contains(RecordKey(recordType, recordName))
        }
    }

    // MARK: - Private and shared databases

    private func pullDatabase(_ scope: DatabaseScope, state: inout PullState) async throws(SyncError) {
        context.events.publish(.pullStarted(scope))
        let key = SyncStateKeys.databaseToken(scope)
        var token = try context.transaction { try $0.state(key) }.map(ChangeToken.init(storedValue:))
        // Fetched from scratch, the database lists the zones there are, not those that went: a
        // zone this device follows that the whole listing leaves out is gone.
        var listed: Set<ZoneID>? = token == nil ? [] : nil
        var recovered = false
        var leftOut = false
        while true {
            let changes: DatabaseChanges
            do {
                changes = try await context.cloud.fetchDatabaseChanges(in: scope, since: token)
            } catch .cloud(let error) where error.code == .changeTokenExpired && !recovered {
                recovered = true
                token = nil
                listed = []
                continue
            }
            try await account.verify()
            for (zone, reason) in changes.deletedZones.sorted(by: { $0.key.description < $1.key.description }) {
                state.rebuild(try zoneWentAway(zone, reason: reason, scope: scope))
            }
            listed?.formUnion(changes.changedZones)
            listed?.formUnion(changes.deletedZones.keys)
            for zone in changes.changedZones {
                guard options.zones?.contains(zone) ?? true else {
                    leftOut = true
                    continue
                }
                try await pullZone(zone, scope: scope, state: &state)
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
        context.events.publish(.pullCompleted(scope))
    }

    /// The zones of a database this device follows: those it keeps a change token of.
    private static func followedZones(in scope: DatabaseScope, in store: any Topics) throws -> [ZoneID] {
        try store.stateKeys(prefix: SyncStateKeys.zoneTokenPrefix).compactMap { key in
            guard let (zone, keyScope) = SyncStateKeys.zone(inKey: key, after: SyncStateKeys.zoneTokenPrefix), keyScope == scope else { return nil }
            return zone
        }.sorted { $0.description < $1.description }
    }

    private func pullZone(_ zone: ZoneID, scope: DatabaseScope, state: inout PullState) async throws(SyncError) {
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
            } catch .cloud(let error) where error.code == .changeTokenExpired && !recovered {
                // The server forgot the zone's history: fetched again from scratch, and what it
                // no longer lists is reconciled at the end. The listing begins with the first
                // page it keeps (below), never before: an answer the pass cannot keep (the
                // account changed under it) leaves the kept token as it was.
                recovered = true
                token = nil
                listing = nil
                continue
            } catch .cloud(let error) where scope == .shared && (error.code == .permissionFailure || error.code == .zoneNotFound) {
                // No longer allowed in: this user has left the share, or was removed from it.
                try await account.verify()
                state.rebuild(try zoneWentAway(zone, reason: .deleted, scope: scope))
                return
            } catch .cloud(let error) where error.code == .userDeletedZone || error.code == .zoneNotFound {
                try await account.verify()
                let reason: ZoneDeletionReason = error.code == .userDeletedZone ? .purged : error.userDidResetEncryptedData ? .encryptedDataReset : .deleted
                state.rebuild(try zoneWentAway(zone, reason: reason, scope: scope))
                return
            }
            try await account.verify()
            let known = listing
            listing = try applyingPulled(page.changedRecords, state: &state) { store, state, unreadable in
                // A fetch from scratch is a listing, begun with its first page, in the
                // transaction that keeps the page's token.
                let listing = token == nil && known == nil ? try ZoneRefetch.begin(zone, scope: scope, in: store) : known
                try state.localChanges.refresh(in: store)
                // A record deleted and saved again within the page exists: its save is the later.
                let saved = Set(page.changedRecords.map { RecordKey($0.recordType, $0.id.recordName) })
                var reads = try PulledPageReads(page.changedRecords, registry: context.registry, in: store)
                for record in page.changedRecords where !unreadable.contains(record.id) {
                    try apply(record, scope: scope, in: store, state: &state, reads: &reads)
                }
                // Kept as the cloud has them: who takes part, and what this user may do.
                for share in page.changedShares { try store.keepShare(share) }
                let deletedInPage = Set(page.deletedRecords.map { RecordKey($0.recordType, $0.id.recordName) })
                for deleted in page.deletedRecords {
                    try forgetUnreadable(deleted.id, state: &state, in: store)
                    if deleted.recordType == ShareRecord.recordType {
                        // A weak signal: the share may only have been replaced. Checked below.
                        if !page.changedShares.contains(where: { $0.id == deleted.id }) { try store.forgetShare(deleted.id) }
                        continue
                    }
                    if saved.contains(RecordKey(deleted.recordType, deleted.id.recordName)) { continue }
                    try removeLocally(deleted.id, recordType: deleted.recordType, scope: scope, deletedInPage: deletedInPage, in: store)
                }
                // The page holds without what it could not deliver: the token moves on, and
                // those records are fetched again by name.
                try noteUnreadable(page.unreadableRecords, state: &state, in: store)
                if let listing {
                    try ZoneRefetch.noteListed(page, in: zone, listing: listing, in: store)
                    if !page.moreComing {
                        let gone = try ZoneRefetch.end(zone, scope: scope, listing: listing, in: store)
                        let goneKeys = Set(gone.map { RecordKey($0.recordType, $0.id.recordName) })
                        for (id, recordType) in gone {
                            try removeLocally(id, recordType: recordType, scope: scope, deletedInPage: goneKeys, in: store)
                        }
                    }
                }
                try store.setState(key, page.newToken.storedValue)
                try store.setState(SyncStateKeys.zonePulled(zone, scope), String(context.clock.now.timeIntervalSince1970))
                return listing
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

    /// Applies a pulled record through ``CloudVersionArrival`` (merged into a model the app changed),
    /// unless this device already has that version.
    private func apply(_ record: SyncRecord, scope: DatabaseScope, in store: any Topics, state: inout PullState) throws {
        var reads = PulledPageReads()
        try apply(record, scope: scope, in: store, state: &state, reads: &reads)
    }

    private func apply(_ record: SyncRecord, scope: DatabaseScope, in store: any Topics, state: inout PullState, reads: inout PulledPageReads) throws {
        try forgetUnreadable(record.id, state: &state, in: store)
        guard let type = context.registry.type(forRecordType: record.recordType) else { return }
        // A version this device already has (it pushed it): nothing to apply.
        if try reads.holdsThisVersion(record) ?? CloudVersionArrival.holds(record, type: type, in: store) { return }
        let isLocalChange = state.localChanges.contains(record.recordType, record.id.recordName)
        let isStored = reads.isStored(record)
        reads.noteApplied(record)
        let applied = try CloudVersionArrival(context: context).apply(record, as: type, in: store, isLocalChange: isLocalChange, isStored: isStored)
        for target in applied.missingTargets {
            state.missing[RecordID(recordName: target.recordName, zoneID: record.id.zoneID)] = MissingTarget(scope: scope, recordType: target.recordType)
        }
        // Under a parent the user deleted here, in their own zone: it follows its parent.
        guard scope == .private, let parent = applied.record?.parentRecordName, let parentType = context.registry.parentType(of: type),
            applied.missingTargets.contains(RecordKey(parentType.recordType, parent))
        else { return }
        if state.localChanges.contains(parentType.recordType, parent) {
            try ParentChain(context: context).follow(deletedParent: parent, type: type, recordName: record.id.recordName, in: store)
        } else {
            state.orphans[RecordID(recordName: parent, zoneID: record.id.zoneID), default: []].append(RecordKey(type.recordType, record.id.recordName))
        }
    }

    /// A record deleted in the cloud goes here too, with the records under it: a deletion wins
    /// over a local change, and a change set aside for it is void, and the copies a move of it
    /// made here left in other zones go too. A record deleted from a zone it has moved out of
    /// stays: its copy is in the zone it moved to.
    private func removeLocally(_ id: RecordID, recordType: String, scope: DatabaseScope, deletedInPage: Set<RecordKey>, in store: any Topics) throws {
        guard let type = context.registry.type(forRecordType: recordType) else { return }
        // A duplicate another device merged away: what this device changed of it and the cloud
        // never saw (waiting, or refused as deleted) goes to the survivor.
        let folded = try !type.uniqueKeys.isEmpty
            && NaturalKeyMerge(context: context).foldDeletedDuplicate(id, type: type, ancestor: try store.serverRecord(id), store: store)
        try store.removeServerRecord(id)
        let stored = try store.parentAndOwner(type: type, recordName: id.recordName)
        if let stored, context.zone(scopes: type.syncScopes, ownerName: stored.owner) != id.zoneID {
            return
        }
        // Where the record belongs by its parent chain: a copy in any other zone is one a move
        // of it left.
        let home = try stored.map { try ParentChain(context: context).owner(under: $0.parent, type: type, in: store) ?? $0.owner }
        let key = RecordKey(recordType, id.recordName)
        let changedHere = try store.hasLocalChange(recordType: recordType, recordName: id.recordName)
        try store.removeFailedChange(recordType: recordType, recordName: id.recordName)
        let removed = try store.deletePulled(type: type, recordName: id.recordName)
        if let home, changedHere {
            try ParentChain(context: context).deleteCopiesLeftByMove(of: key, outside: home, in: store)
        }
        // A strong signal when it is a shared root: the owner deleted it, and its subtree went
        // with it. The share's end names what this device had changed there.
        let endsShare = scope == .shared && type is any ShareableModel.Type
        let changed = try ParentChain(context: context).settle(
            subtree: removed.filter { $0 != key }, under: id.recordName, in: id.zoneID, deletedAlready: deletedInPage, announcing: !endsShare, in: store)
        if endsShare {
            try LostChanges(context: context).announce(.shareEnded(id.zoneID, rootRecordName: id.recordName, lostChanges: (changedHere ? [key] : []) + changed), in: store)
        } else if changedHere && !folded {
            try LostChanges(context: context).announce(.changeLostToDeletion(key), in: store)
        }
    }

    /// After a share record was deleted: each local shared root of the zone is read back; only a
    /// root that is gone, or no longer readable, ends. A failed check keeps the data.
    private func recheckSharedRoots(in zone: ZoneID) async throws(SyncError) {
        for type in context.registry.sharedTypes where type is any ShareableModel.Type {
            let roots = try context.transaction { try $0.recordNames(type: type, ownerName: zone.ownerName) }
            guard !roots.isEmpty else { continue }
            let ids = roots.map { RecordID(recordName: $0, zoneID: zone) }
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.cloud.fetchRecords(ids, desiredKeys: [], in: .shared)
            } catch .cloud(let error) where error.code == .permissionFailure {
                try await account.verify()
                _ = try zoneWentAway(zone, reason: .deleted, scope: .shared)
                return
            } catch {
                return
            }
            try await account.verify()
            try context.transaction { store in
                for id in ids {
                    guard case .failure(let error) = found[id], error.code == .unknownItem || error.code == .permissionFailure else { continue }
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
    private func zoneWentAway(_ zone: ZoneID, reason: ZoneDeletionReason, scope: DatabaseScope) throws(SyncError) -> ZoneID? {
        try context.transaction { store in
            try ZoneServerState.forget(zone, scope: scope, in: store)
            guard scope == .shared else {
                if reason == .purged {
                    try store.setState(SyncStateKeys.userDeletedZone(zone), "1")
                } else {
                    try ZoneRebuild.queueEverything(of: zone, registry: context.registry, in: store)
                }
                return
            }
            let lost = try ParentChain(context: context).removeSharedZone(zone, in: store)
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

    // MARK: - Public catalogs

    /// Each catalog type due by a full query of the desired keys (asset contents never among
    /// them), each page applied in one transaction with a note of the names it brought. Then the
    /// local copies no page brought and the cloud no longer has are deleted, a batch at a time,
    /// but only after the query reached its end: a failed query says nothing about what exists. The last batch's
    /// transaction also dates the refresh and settles the requests it answered
    /// (``CatalogRefresh``). A record already known at its version is not written again, so an
    /// unchanged catalog costs its pages of requests and no record writes.
    private func pullCatalogs(state: inout PullState) async throws(SyncError) {
        let catalogs = context.registry.catalogTypes
        guard !catalogs.isEmpty else { return }
        let dueTypes = try context.transaction { store in
            try CatalogRefresh.due(context.registry.catalogRecordTypes, now: context.clock.now, maximumAge: context.configuration.catalogMaximumAge, in: store)
        }
        let due = catalogs.filter { dueTypes.contains($0.recordType) && options.catalogTypes?.contains($0.recordType) ?? true }
        guard !due.isEmpty else { return }
        context.events.publish(.pullStarted(.public))
        for type in due {
            let began = context.clock.now
            let requests = try context.transaction { store in
                try store.clearCatalogReceived(recordType: type.recordType)
                return try CatalogRefresh.requests(of: type.recordType, in: store)
            }
            var query = RecordQuery(recordType: type.recordType, desiredKeys: type.catalogDesiredKeys)
            var count = 0
            repeat {
                let page = try await context.cloud.query(query, in: .public)
                try await account.verify()
                try applyingPulled(page.records, state: &state) { store, state, unreadable in
                    try state.localChanges.refresh(in: store)
                    for record in page.records where !unreadable.contains(record.id) {
                        try apply(record, scope: .public, in: store, state: &state)
                    }
                    // A record the page could not deliver exists: its local copy stays.
                    try noteUnreadable(page.unreadableRecords, state: &state, in: store)
                    try store.noteCatalogReceived(
                        recordType: type.recordType, recordNames: page.records.map(\.id.recordName) + page.unreadableRecords.keys.map(\.recordName))
                }
                count += page.records.count
                query.cursor = page.cursor
            } while query.cursor != nil
            let deletions = try await removeUnreceived(type, state: &state) { store in
                try store.clearCatalogReceived(recordType: type.recordType)
                try CatalogRefresh.finish(type.recordType, began: began, answering: requests, in: store)
            }
            context.events.publish(.pullProgress(scope: .public, zone: SyncConstants.publicZone, records: count, deletions: deletions))
        }
        context.events.publish(.pullCompleted(.public))
    }

    /// How many local copies of a catalog one transaction of its reconciliation reads.
    static let reconciliationBatch = 500

    /// Deletes the local copies of a catalog type its refresh did not receive and the cloud no
    /// longer has (a model the app changed here stays, to be pushed), a batch per transaction;
    /// `finish` runs in the last one. Returns how many were deleted.
    ///
    /// Not receiving a record does not prove it gone: a query's cursor is an offset (Apple,
    /// `CKQueryOperation.init(cursor:)`: "it stores a relative offset into the results list"),
    /// so a record removed before it between two pages makes the next page pass over one that
    /// exists. Each copy not received is asked for by name first: one the cloud still has is
    /// applied as received, and only one it answers `unknownItem` for goes.
    private func removeUnreceived(_ type: any PublicCatalogModel.Type, state: inout PullState, finish: (any Topics) throws -> Void) async throws(SyncError) -> Int {
        var after: String?
        var deleted = 0
        var done = false
        while !done {
            let names = try context.transaction { store in
                try store.catalogRecordsNotReceived(type: type, after: after, limit: Self.reconciliationBatch)
            }
            let found = names.isEmpty ? [:] : try await context.cloud.fetchRecords(
                names.map { RecordID(recordName: $0, zoneID: SyncConstants.publicZone) }, desiredKeys: type.catalogDesiredKeys, in: .public)
            try await account.verify()
            let records = found.values.compactMap { try? $0.get() }
            after = names.last
            done = names.count < Self.reconciliationBatch
            try applyingPulled(records, state: &state) { store, state, unreadable in
                try state.localChanges.refresh(in: store)
                for record in records where !unreadable.contains(record.id) {
                    try apply(record, scope: .public, in: store, state: &state)
                }
                for name in names where !state.localChanges.contains(type.recordType, name) {
                    // Gone only when the cloud says so: a fetch that failed otherwise keeps it.
                    guard case .failure(let error)? = found[RecordID(recordName: name, zoneID: SyncConstants.publicZone)], error.code == .unknownItem else { continue }
                    try PublicCopies.forget(type: type, recordName: name, in: store)
                    deleted += 1
                }
                if done { try finish(store) }
            }
        }
        return deleted
    }

    // MARK: - Records a page could not deliver

    /// Runs `body`, which applies pulled `records`, in one transaction. When that fails and
    /// some of the records do not decode as their models (another client wrote a value of another
    /// type: text in an int field, a string that is no URL in a url field), `body` runs again in
    /// a new transaction, the pass's state as it was, told to leave those out; they are set aside
    /// as unreadable in that same transaction (`recordUnreadable` tells the app, and a later
    /// version of one ends it): the zone goes on, and nothing is made up in their place. A
    /// failure of any other cause is thrown as it was. The usual transaction pays nothing for it:
    /// the records are decoded again only after a failure.
    private func applyingPulled<T>(
        _ records: [SyncRecord], state: inout PullState, _ body: (any Topics, inout PullState, _ unreadable: Set<RecordID>) throws -> T
    ) throws(SyncError) -> T {
        let before = state
        do {
            return try context.transaction { store in try body(store, &state, []) }
        } catch {
            let unreadable = undecodable(records)
            guard !unreadable.isEmpty else { throw error }
            state = before
            var setAside: [UnreadableRecord] = []
            let result = try context.transaction { store in
                let result = try body(store, &state, Set(unreadable.keys))
                for (id, error) in unreadable.sorted(by: { $0.key.recordName < $1.key.recordName }) {
                    setAside.append(try UnreadableRecords.setAside(id, error, at: context.clock.now, in: store))
                    state.unreadable.insert(id)
                }
                return result
            }
            for record in setAside { context.events.publish(.recordUnreadable(record)) }
            return result
        }
    }

    /// The records whose fields do not decode as their models, each with why.
    private func undecodable(_ records: [SyncRecord]) -> [RecordID: CloudError] {
        var found: [RecordID: CloudError] = [:]
        for record in records {
            guard let type = context.registry.type(forRecordType: record.recordType) else { continue }
            found[record.id] = UnreadableRecords.problem(reading: record, as: type)
        }
        return found
    }

    private func noteUnreadable(_ records: [RecordID: CloudError], state: inout PullState, in store: any Topics) throws {
        for (id, error) in records.sorted(by: { $0.key.recordName < $1.key.recordName }) {
            try UnreadableRecords.note(id, error, at: context.clock.now, in: store)
            state.unreadable.insert(id)
        }
    }

    private func forgetUnreadable(_ id: RecordID, state: inout PullState, in store: any Topics) throws {
        guard state.unreadable.remove(id) != nil else { return }
        try UnreadableRecords.forget(id, in: store)
    }

    /// Fetches by name the records pages could not deliver and are not set aside, in one request
    /// per database (chunked under the item limit): each that arrives is applied as a pulled
    /// record, one that is gone is forgotten, one that fails again is counted, and set aside once
    /// it failed `UnreadableRecord.fetchesBeforeSetAside` times (`recordUnreadable` tells the
    /// app). A failed request leaves them for the next pass: no zone waits on them.
    private func fetchUnreadableAgain(state: inout PullState) async throws(SyncError) {
        let due = try context.transaction { try UnreadableRecords.all(in: $0).filter { !$0.isSetAside } }
        guard !due.isEmpty else { return }
        var setAside: [UnreadableRecord] = []
        for (scope, records) in Dictionary(grouping: due, by: \.id.scope).sorted(by: { $0.key < $1.key }) {
            guard scope == .public || account.isSignedIn else { continue }
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.cloud.fetchRecords(records.map(\.id), desiredKeys: context.registry.keysWithoutAssetContents, in: scope)
            } catch {
                continue
            }
            try await account.verify()
            let versions = records.compactMap { try? found[$0.id]?.get() }
            try applyingPulled(versions, state: &state) { store, state, unreadable in
                try state.localChanges.refresh(in: store)
                for record in records where !unreadable.contains(record.id) {
                    switch found[record.id] {
                    case .success(let version):
                        try apply(version, scope: scope, in: store, state: &state)
                    case .failure(let error) where error.code == .unknownItem:
                        try forgetUnreadable(record.id, state: &state, in: store)
                    case .failure(let error):
                        let failed = try UnreadableRecords.fetchFailed(record, error, in: store)
                        if failed.isSetAside { setAside.append(failed) }
                    case nil:
                        let failed = try UnreadableRecords.fetchFailed(record, CloudError(.serviceUnavailable, "no result for \(record.id)"), in: store)
                        if failed.isSetAside { setAside.append(failed) }
                    }
                }
            }
        }
        for record in setAside { context.events.publish(.recordUnreadable(record)) }
    }

    // MARK: - References

    /// Fetches the targets of references that pointed at nothing, at most `repairRounds` times;
    /// what is still missing is reported, and the references stay as they are.
    private func repairReferences(state: inout PullState) async throws(SyncError) {
        for _ in 0..<Self.repairRounds {
            // A target pulled later in the same pass is no longer missing.
            state.missing = try stillMissing(state.missing)
            guard !state.missing.isEmpty else { return }
            let wanted = state.missing
            state.missing = [:]
            for (scope, ids) in Dictionary(grouping: wanted.keys, by: { wanted[$0]!.scope }) {
                guard scope == .public || account.isSignedIn else { continue }
                let found: [RecordID: Result<SyncRecord, CloudError>]
                do {
                    found = try await context.cloud.fetchRecords(ids, desiredKeys: context.registry.keysWithoutAssetContents, in: scope)
                } catch {
                    for id in ids { state.missing[id] = wanted[id] }
                    continue
                }
                try await account.verify()
                let targets = ids.compactMap { try? found[$0]?.get() }
                try applyingPulled(targets, state: &state) { store, state, unreadable in
                    try state.localChanges.refresh(in: store)
                    for id in ids where !unreadable.contains(id) {
                        switch found[id] {
                        case .success(let record):
                            try apply(record, scope: scope, in: store, state: &state)
                        case .failure(let error) where error.code == .unknownItem && state.orphans[id] != nil:
                            try followGoneParent(id, state: &state, in: store)
                        default:
                            state.missing[id] = wanted[id]
                        }
                    }
                }
            }
        }
        state.missing = try stillMissing(state.missing)
        if !state.missing.isEmpty {
            context.events.publish(.danglingReferences(state.missing.keys.map(\.recordName).sorted()))
        }
    }

    /// The cloud has no such parent: the records pulled under it that are still under it follow.
    private func followGoneParent(_ parent: RecordID, state: inout PullState, in store: any Topics) throws {
        let chain = ParentChain(context: context)
        for child in state.orphans.removeValue(forKey: parent) ?? [] {
            guard let type = context.registry.type(forRecordType: child.recordType),
                let parentType = context.registry.parentType(of: type),
                try store.parentAndOwner(type: type, recordName: child.recordName)?.parent == parent.recordName,
                try !store.isStored(type: parentType, recordName: parent.recordName)
            else { continue }
            try chain.follow(deletedParent: parent.recordName, type: type, recordName: child.recordName, in: store)
        }
    }

    private func stillMissing(_ missing: [RecordID: MissingTarget]) throws(SyncError) -> [RecordID: MissingTarget] {
        try context.transaction { store in
            try missing.filter { try !store.isStored(RecordKey($0.value.recordType, $0.key.recordName)) }
        }
    }
}
