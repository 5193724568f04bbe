import Foundation

/// The cloud -> local changes: the private and shared databases through their change feeds
/// (database, then zone, both paged until `moreComing` is false), the public catalogs by full
/// queries, then a bounded repair of references whose targets had not arrived.
struct PullUseCase {
    let context: SyncContext
    /// False once the account (or mode) changed since the pull began: its results are dropped.
    let isCurrent: @Sendable () async -> Bool

    /// How many rounds of fetching missing reference targets a pull makes.
    static let repairRounds = 2

    /// Pulls everything; returns the private zones that were deleted by another client and must
    /// be created again, with the local records uploaded again (nothing local is lost).
    func execute() async throws(CloudError) -> [ZoneID] {
        var pulled = PullState(pending: try pendingKeys())
        for scope in [DatabaseScope.private, .shared] {
            try await pullDatabase(scope, state: &pulled)
        }
        try await pullCatalogs(state: &pulled)
        try await repairReferences(state: &pulled)
        return pulled.zonesToRebuild
    }

    /// What a pull collects as it goes.
    struct PullState {
        /// `recordType#recordName` of local models with unpushed changes: merged, never overwritten.
        var pending: Set<String>
        /// References whose target is not stored, with the zone and scope to look in.
        var missing: [RecordID: DatabaseScope] = [:]
        /// Private zones another client deleted.
        var zonesToRebuild: [ZoneID] = []
    }

    private func pendingKeys() throws(CloudError) -> Set<String> {
        Set(try context.local { try context.store.unpushedChanges(limit: nil) }.changes.map { "\($0.recordType)#\($0.recordName)" })
    }

    // MARK: - Private and shared databases

    private func pullDatabase(_ scope: DatabaseScope, state: inout PullState) async throws(CloudError) {
        context.events.publish(.pullStarted(scope))
        let key = "token.database.\(scope.rawValue)"
        var token = try context.local { try context.store.state(key) }.map(ChangeToken.init)
        var recovered = false
        while true {
            let changes: DatabaseChanges
            do {
                changes = try await context.gateway.fetchDatabaseChanges(in: scope, since: token)
            } catch where error.code == .changeTokenExpired && !recovered {
                recovered = true
                token = nil
                continue
            }
            guard await isCurrent() else { return }
            for (zone, reason) in changes.deletedZones.sorted(by: { $0.key.description < $1.key.description }) {
                try zoneWentAway(zone, reason: reason, scope: scope)
                if scope == .private && reason == .deleted && !state.zonesToRebuild.contains(zone) {
                    state.zonesToRebuild.append(zone)
                }
            }
            for zone in changes.changedZones {
                try await pullZone(zone, scope: scope, state: &state)
            }
            token = changes.newToken
            try context.local { try context.store.setState(key, changes.newToken.value) }
            if !changes.moreComing { break }
        }
        context.events.publish(.pullCompleted(scope))
    }

    private func zoneTokenKey(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        "token.zone.\(scope.rawValue).\(zone.ownerName).\(zone.zoneName)"
    }

    private func pullZone(_ zone: ZoneID, scope: DatabaseScope, state: inout PullState) async throws(CloudError) {
        let key = zoneTokenKey(zone, scope)
        var token = try context.local { try context.store.state(key) }.map(ChangeToken.init)
        var recovered = false
        var shareDeleted = false
        while true {
            let page: ZoneChanges
            do {
                page = try await context.gateway.fetchZoneChanges(
                    in: zone, scope: scope, since: token, resultsLimit: context.configuration.zoneChangesPageSize,
                    desiredKeys: context.registry.keysWithoutAssetContents)
            } catch where error.code == .changeTokenExpired && !recovered {
                recovered = true
                token = nil
                continue
            } catch where scope == .shared && (error.code == .permissionFailure || error.code == .zoneNotFound) {
                // No longer allowed in: this user has left the share, or was removed from it.
                try zoneWentAway(zone, reason: .deleted, scope: scope)
                return
            } catch where error.code == .userDeletedZone || error.code == .zoneNotFound {
                try zoneWentAway(zone, reason: error.code == .userDeletedZone ? .purged : .deleted, scope: scope)
                return
            }
            guard await isCurrent() else { return }
            let recreated = Set(page.changedRecords.map(\.id.recordName))
            for record in page.changedRecords {
                try apply(record, scope: scope, state: &state)
            }
            for deleted in page.deletedRecords {
                if deleted.recordType == ShareRecord.recordType {
                    // A weak signal: the share may only have been replaced. Checked below.
                    shareDeleted = true
                    continue
                }
                if scope == .shared, recreated.contains(deleted.id.recordName) { continue }
                try removeLocally(deleted.id, recordType: deleted.recordType, scope: scope)
            }
            context.events.publish(.pullProgress(scope: scope, zone: zone, records: page.changedRecords.count, deletions: page.deletedRecords.count))
            token = page.newToken
            try context.local { try context.store.setState(key, page.newToken.value) }
            if !page.moreComing { break }
        }
        if scope == .shared && shareDeleted {
            try await recheckSharedRoots(in: zone)
        }
    }

    /// Applies a pulled record: straight onto the local model, or merged with it when it has
    /// unpushed changes (which then go up with the server's change tag).
    private func apply(_ record: SyncRecord, scope: DatabaseScope, state: inout PullState) throws(CloudError) {
        guard let type = context.registry.type(forRecordType: record.recordType) else { return }
        let store = context.store
        // A version this device already has (it pushed it): nothing to apply.
        if let tag = record.changeTag, let known = try context.local({ try store.serverRecord(record.id) }), known.changeTag == tag,
            try context.local({ try store.isStored(recordName: record.id.recordName) })
        {
            return
        }
        var incoming = record
        if state.pending.contains("\(record.recordType)#\(record.id.recordName)") {
            guard let local = try context.local({ try store.uploadRecord(type: type, recordName: record.id.recordName, syncZoneName: context.configuration.syncZoneName) }) else {
                // Deleted here, not pushed yet: the deletion goes up next.
                try context.local { try store.setServerRecord(record) }
                return
            }
            let ancestor = try context.local { try store.serverRecord(record.id) }
            incoming = RecordMerge.merge(ancestor: ancestor, local: local, server: record, policy: context.configuration.conflictPolicy(for: record.recordType))
            incoming.id = record.id
            context.events.publish(.conflictResolved(record.id))
        }
        let missing = try context.local {
            try store.setServerRecord(record)
            return try store.applyPulled(incoming, as: type)
        }
        for name in missing {
            state.missing[RecordID(recordName: name, zoneID: record.id.zoneID)] = scope
        }
        try AssetCacheUseCase(context: context).recordArrived(incoming)
    }

    private func removeLocally(_ id: RecordID, recordType: String, scope: DatabaseScope) throws(CloudError) {
        guard let type = context.registry.type(forRecordType: recordType) else { return }
        let isSharedRoot = scope == .shared && type is any ShareableModel.Type
        try context.local {
            try context.store.removeServerRecord(id)
            try context.store.deletePulled(type: type, recordName: id.recordName)
        }
        if isSharedRoot {
            // A strong signal: the owner deleted the shared root; its subtree goes at once.
            try purgeSubtree(root: id.recordName, zone: id.zoneID)
            context.events.publish(.shareEnded(id.zoneID, rootRecordName: id.recordName))
        }
    }

    /// After a share record was deleted: each local shared root of the zone is read back; only a
    /// root that is gone, or no longer readable, ends. A failed check keeps the data.
    private func recheckSharedRoots(in zone: ZoneID) async throws(CloudError) {
        for type in context.registry.sharedTypes where type is any ShareableModel.Type {
            let roots = try context.local { try context.store.recordNames(type: type, ownerName: zone.ownerName) }
            guard !roots.isEmpty else { continue }
            let ids = roots.map { RecordID(recordName: $0, zoneID: zone) }
            let found: [RecordID: Result<SyncRecord, CloudError>]
            do {
                found = try await context.gateway.fetchRecords(ids, desiredKeys: [], in: .shared)
            } catch where error.code == .permissionFailure {
                try zoneWentAway(zone, reason: .deleted, scope: .shared)
                return
            } catch {
                return
            }
            for id in ids {
                guard case .failure(let error) = found[id], error.code == .unknownItem || error.code == .permissionFailure else { continue }
                try context.local {
                    try context.store.removeServerRecord(id)
                    try context.store.deletePulled(type: type, recordName: id.recordName)
                }
                try purgeSubtree(root: id.recordName, zone: zone)
                context.events.publish(.shareEnded(zone, rootRecordName: id.recordName))
            }
        }
    }

    /// A zone left a database; what the server knew of it is forgotten. A shared zone's local
    /// copy goes (that zone's only: never the user's own data). A private zone keeps its local
    /// data: purged by the user in Settings, it waits until the app asks to upload it again;
    /// deleted by another client, it is created again and re-uploaded.
    private func zoneWentAway(_ zone: ZoneID, reason: ZoneDeletionReason, scope: DatabaseScope) throws(CloudError) {
        try context.local {
            try context.store.setState(zoneTokenKey(zone, scope), nil)
            for id in try context.store.serverRecordIDs(inZone: zone) { try context.store.removeServerRecord(id) }
        }
        if reason == .purged {
            context.events.publish(.userDeletedZone(zone))
            return
        }
        guard scope == .shared else { return }
        for type in context.registry.sharedTypes {
            for name in try context.local({ try context.store.recordNames(type: type, ownerName: zone.ownerName) }) {
                try context.local { try context.store.deletePulled(type: type, recordName: name) }
            }
        }
        context.events.publish(.shareEnded(zone, rootRecordName: nil))
    }

    /// Deletes a shared root and everything under it, locally.
    func removeSharedSubtree(root: String, type: any SyncModel.Type, zone: ZoneID) throws(CloudError) {
        try context.local {
            try context.store.removeServerRecord(RecordID(recordName: root, zoneID: zone))
            try context.store.deletePulled(type: type, recordName: root)
        }
        try purgeSubtree(root: root, zone: zone)
    }

    /// Deletes the local records under a shared root (the root's other siblings in the zone stay).
    private func purgeSubtree(root: String, zone: ZoneID) throws(CloudError) {
        var doomed: Set<String> = [root]
        var changed = true
        let types = context.registry.sharedTypes
        while changed {
            changed = false
            for type in types {
                for name in try context.local({ try context.store.recordNames(type: type, ownerName: zone.ownerName) }) where !doomed.contains(name) {
                    if let parent = try context.local({ try context.store.parentAndOwner(type: type, recordName: name)?.parent }), doomed.contains(parent) {
                        doomed.insert(name)
                        changed = true
                        try context.local {
                            try context.store.removeServerRecord(RecordID(recordName: name, zoneID: zone))
                            try context.store.deletePulled(type: type, recordName: name)
                        }
                    }
                }
            }
        }
    }

    // MARK: - Public catalogs

    /// Every catalog type by a full query of the desired keys (asset contents never among them).
    /// Local copies the query did not return are deleted, but only after it succeeded: a failed
    /// query says nothing about what exists.
    private func pullCatalogs(state: inout PullState) async throws(CloudError) {
        guard !context.registry.catalogTypes.isEmpty else { return }
        context.events.publish(.pullStarted(.public))
        for type in context.registry.catalogTypes {
            var query = RecordQuery(recordType: type.recordType, desiredKeys: type.catalogDesiredKeys)
            var seen: Set<String> = []
            var records: [SyncRecord] = []
            repeat {
                let page = try await context.gateway.query(query, in: .public)
                records += page.records
                query.cursor = page.cursor
            } while query.cursor != nil
            guard await isCurrent() else { return }
            for record in records {
                seen.insert(record.id.recordName)
                try apply(record, scope: .public, state: &state)
            }
            for name in try context.local({ try context.store.recordNames(type: type, ownerName: nil) })
            where !seen.contains(name) && !state.pending.contains("\(type.recordType)#\(name)") {
                try context.local {
                    try context.store.removeServerRecord(RecordID(recordName: name, zoneID: SyncConstants.publicZone))
                    try context.store.deletePulled(type: type, recordName: name)
                }
            }
            context.events.publish(.pullProgress(scope: .public, zone: SyncConstants.publicZone, records: records.count, deletions: 0))
        }
        context.events.publish(.pullCompleted(.public))
    }

    // MARK: - References

    /// Fetches the targets of references that pointed at nothing, at most `repairRounds` times;
    /// what is still missing is reported, and the references stay as they are.
    private func repairReferences(state: inout PullState) async throws(CloudError) {
        for _ in 0..<Self.repairRounds {
            // A target pulled later in the same pass is no longer missing.
            state.missing = try stillMissing(state.missing)
            guard !state.missing.isEmpty else { return }
            let wanted = state.missing
            state.missing = [:]
            for (scope, ids) in Dictionary(grouping: wanted.keys, by: { wanted[$0]! }) {
                let found: [RecordID: Result<SyncRecord, CloudError>]
                do {
                    found = try await context.gateway.fetchRecords(ids, desiredKeys: context.registry.keysWithoutAssetContents, in: scope)
                } catch {
                    for id in ids { state.missing[id] = scope }
                    continue
                }
                for id in ids {
                    if case .success(let record) = found[id] {
                        try apply(record, scope: scope, state: &state)
                    } else {
                        state.missing[id] = scope
                    }
                }
            }
        }
        state.missing = try stillMissing(state.missing)
        if !state.missing.isEmpty {
            context.events.publish(.danglingReferences(state.missing.keys.map(\.recordName).sorted()))
        }
    }

    private func stillMissing(_ missing: [RecordID: DatabaseScope]) throws(CloudError) -> [RecordID: DatabaseScope] {
        var still: [RecordID: DatabaseScope] = [:]
        for (id, scope) in missing where !(try context.local { try context.store.isStored(recordName: id.recordName) }) {
            still[id] = scope
        }
        return still
    }
}
