import Foundation

/// One record to push: a save (the record as the model now is) or a deletion.
struct PushItem: Sendable {
    enum Operation: Sendable {
        case save(SyncRecord)
        case delete
    }

    var id: RecordID
    var type: any SyncModel.Type
    var operation: Operation

    /// `scope#recordName`: one item per record per database, so a draft and its projection (one
    /// recordName, two databases) stay two items, and one record never goes twice in a request.
    var dedupKey: String { id.dedupKey }

    var record: SyncRecord? {
        if case .save(let record) = operation { return record }
        return nil
    }
}

/// Local changes -> the cloud: dedup, ensure ancestors, owner inheritance for shared zones,
/// parent-depth waves, 400-item / 2 MB chunks, conflicts merged. The history token is committed
/// only when every item went through; otherwise everything stays pending.
struct PushUseCase {
    let context: SyncContext

    struct Outcome: Sendable {
        var saved = 0
        var deleted = 0
        var failures: [RecordID: CloudError] = [:]
        /// Zones found missing and created again: their records are uploaded again.
        var recreatedZones: Set<ZoneID> = []
    }

    /// How far up a parent chain the engine looks (a guard against cycles in bad data).
    static let maxAncestorDepth = 8

    /// History entries read per round: memory stays bounded by this, not by the number of changes.
    static let pageSize = 2_000

    func execute() async throws(CloudError) -> Outcome {
        let store = context.store
        var total = Outcome()
        var started = false
        while true {
            let pending = try context.local { try store.unpushedChanges(limit: Self.pageSize) }
            let items = try await prepare(try collect(pending.changes))
            if !items.isEmpty && !started {
                started = true
                context.events.publish(.pushStarted(items: items.count))
            }
            let outcome = try await send(items)
            total.saved += outcome.saved
            total.deleted += outcome.deleted
            total.failures.merge(outcome.failures) { first, _ in first }
            total.recreatedZones.formUnion(outcome.recreatedZones)
            guard outcome.failures.isEmpty else {
                // The staged token is discarded: every change of this round stays pending.
                context.events.publish(.pushFailed(total.failures))
                return total
            }
            // Only the engine's own writes, or everything pushed: commit what was read.
            try context.local { try store.commitHistoryToken(pending.readThrough) }
            if try !context.local({ try store.hasUnpushedChanges() }) { break }
        }
        for zone in total.recreatedZones.sorted(by: { $0.description < $1.description }) {
            // The zone's records went with it: what the server knew is void, upload them all.
            for id in try context.local({ try context.store.serverRecordIDs(inZone: zone) }) {
                try context.local { try context.store.removeServerRecord(id) }
            }
            let again = try await uploadEverything(onlyZone: zone)
            total.saved += again.saved
            total.failures.merge(again.failures) { first, _ in first }
        }
        if started && total.failures.isEmpty {
            context.events.publish(.pushCompleted(saved: total.saved, deleted: total.deleted))
        }
        return total
    }

    /// Pushes every local model of the zoned types, each into its own database, whatever the
    /// history says: the first upload, and the re-upload after a zone was rebuilt.
    func uploadEverything(onlyZone zone: ZoneID? = nil) async throws(CloudError) -> Outcome {
        var items: [PushItem] = []
        for type in context.registry.zonedTypes {
            for name in try context.local({ try context.store.recordNames(type: type, ownerName: nil) }) {
                guard let record = try context.local({ try context.store.uploadRecord(type: type, recordName: name, syncZoneName: context.configuration.syncZoneName) }) else { continue }
                if let zone, record.id.zoneID != zone { continue }
                items.append(PushItem(id: record.id, type: type, operation: .save(record)))
            }
        }
        return try await send(try await prepare(items))
    }

    // MARK: - Preparing

    /// One item per record per database, the last change winning.
    private func collect(_ changes: [HistoryEntry]) throws(CloudError) -> [PushItem] {
        var order: [String] = []
        var latest: [String: PushItem] = [:]
        for change in changes {
            guard let type = context.registry.type(forRecordType: change.recordType) else { continue }
            let item: PushItem
            switch change.kind {
            case .save:
                guard let record = try context.local({ try context.store.uploadRecord(type: type, recordName: change.recordName, syncZoneName: context.configuration.syncZoneName) }) else { continue }
                item = PushItem(id: record.id, type: type, operation: .save(record))
            case .delete:
                // Routed by the same rule as saves, from the values the tombstone kept.
                let zone = context.zone(scopes: type.syncScopes, ownerName: change.ownerName)
                item = PushItem(id: RecordID(recordName: change.recordName, zoneID: zone), type: type, operation: .delete)
            }
            if latest[item.dedupKey] == nil { order.append(item.dedupKey) }
            latest[item.dedupKey] = item
        }
        return order.compactMap { latest[$0] }
    }

    private func prepare(_ items: [PushItem]) async throws(CloudError) -> [PushItem] {
        try inheritOwners(try await ensureAncestors(items))
    }

    /// Adds the parents the server does not have yet: parents are looked up locally, their
    /// existence on the server checked in one request per round (a failed check counts as
    /// existing: better to skip an upload than to duplicate), at most `maxAncestorDepth` rounds.
    private func ensureAncestors(_ items: [PushItem]) async throws(CloudError) -> [PushItem] {
        var batch = items
        var present = Set(items.map(\.id))
        for _ in 0..<Self.maxAncestorDepth {
            var candidates: [RecordID: any SyncModel.Type] = [:]
            for item in batch {
                guard let record = item.record, let parent = record.parentID, !present.contains(parent),
                    try context.local({ try context.store.serverRecord(parent) }) == nil,
                    let parentType = context.registry.parentType(of: item.type)
                else { continue }
                candidates[parent] = parentType
            }
            guard !candidates.isEmpty else { break }
            var missing: [RecordID] = []
            for (scope, ids) in Dictionary(grouping: candidates.keys, by: \.scope) {
                do {
                    let found = try await context.gateway.fetchRecords(ids, desiredKeys: [], in: scope)
                    for id in ids {
                        if case .failure(let error) = found[id], error.code == .unknownItem { missing.append(id) }
                    }
                } catch {
                    continue
                }
            }
            guard !missing.isEmpty else { break }
            for id in missing.sorted(by: { $0.recordName < $1.recordName }) {
                guard let type = candidates[id],
                    let record = try context.local({ try context.store.uploadRecord(type: type, recordName: id.recordName, syncZoneName: context.configuration.syncZoneName) })
                else { continue }
                var parent = record
                parent.id = id
                batch.append(PushItem(id: id, type: type, operation: .save(parent)))
                present.insert(id)
            }
        }
        return batch
    }

    /// A record created under someone else's shared record belongs in that owner's zone: it takes
    /// the owner of its parent chain (its parent reference moves with it, being zone-local), and
    /// the local copy learns its new owner. Public records are never rewritten.
    private func inheritOwners(_ items: [PushItem]) throws(CloudError) -> [PushItem] {
        var rewritten = items
        for index in rewritten.indices {
            guard case .save(var record) = rewritten[index].operation, record.id.scope == .private,
                let parent = record.parentRecordName, let owner = try foreignOwner(above: parent, type: rewritten[index].type)
            else { continue }
            record.id = RecordID(recordName: record.id.recordName, zoneID: ZoneID(zoneName: record.id.zoneID.zoneName, ownerName: owner))
            rewritten[index].id = record.id
            rewritten[index].operation = .save(record)
            try context.local { try context.store.setOwner(owner, type: rewritten[index].type, recordName: record.id.recordName) }
        }
        return rewritten
    }

    /// The owner of the nearest ancestor owned by someone else, if any.
    private func foreignOwner(above parent: String, type: any SyncModel.Type) throws(CloudError) -> String? {
        var name = parent
        var parentType = context.registry.parentType(of: type)
        for _ in 0..<Self.maxAncestorDepth {
            guard let currentType = parentType,
                let stored = try context.local({ try context.store.parentAndOwner(type: currentType, recordName: name) })
            else { return nil }
            if stored.owner != SyncConstants.currentUserOwnerName && !stored.owner.isEmpty { return stored.owner }
            guard let next = stored.parent else { return nil }
            name = next
            parentType = context.registry.parentType(of: currentType)
        }
        return nil
    }

    // MARK: - Sending

    /// Sends items zone by zone, in waves of parent depth (parents before children), in chunks
    /// within CloudKit's request limits.
    private func send(_ items: [PushItem]) async throws(CloudError) -> Outcome {
        var outcome = Outcome()
        let byZone = Dictionary(grouping: items, by: \.id.zoneID)
        for zone in byZone.keys.sorted(by: { ($0.scope, $0.ownerName, $0.zoneName) < ($1.scope, $1.ownerName, $1.zoneName) }) {
            for wave in Self.waves(byZone[zone]!) {
                for chunk in chunks(wave) {
                    try await sendChunk(chunk, scope: zone.scope, outcome: &outcome, attempt: 0)
                }
            }
        }
        return outcome
    }

    /// Items grouped by how many of their ancestors are in the batch: parents first.
    static func waves(_ items: [PushItem]) -> [[PushItem]] {
        let byName = Dictionary(items.map { ($0.id.recordName, $0) }, uniquingKeysWith: { _, last in last })
        var depths: [String: Int] = [:]
        func depth(_ name: String, _ seen: Set<String>) -> Int {
            if let known = depths[name] { return known }
            guard let parent = byName[name]?.record?.parentRecordName, byName[parent] != nil, !seen.contains(parent) else {
                depths[name] = 0
                return 0
            }
            let value = depth(parent, seen.union([name])) + 1
            depths[name] = value
            return value
        }
        var waves: [Int: [PushItem]] = [:]
        for item in items { waves[depth(item.id.recordName, []), default: []].append(item) }
        return waves.keys.sorted().map { waves[$0]! }
    }

    /// Chunks of at most 400 items and the configured request size.
    private func chunks(_ items: [PushItem]) -> [[PushItem]] {
        var chunks: [[PushItem]] = []
        var current: [PushItem] = []
        var bytes = 0
        for item in items {
            let size = item.record.map { FieldsCodec.size(of: $0.fields) + FieldsCodec.size(of: $0.encryptedFields) } ?? 0
            if !current.isEmpty && (current.count == CloudKitLimits.maxItemsPerRequest || bytes + size > context.configuration.maxRequestBytes) {
                chunks.append(current)
                current = []
                bytes = 0
            }
            current.append(item)
            bytes += size
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    private static let maxRetryRounds = 3

    private func sendChunk(_ chunk: [PushItem], scope: DatabaseScope, outcome: inout Outcome, attempt: Int) async throws(CloudError) {
        var request = ModifyRequest()
        for item in chunk {
            switch item.operation {
            case .save(var record):
                record.changeTag = try context.local { try context.store.serverRecord(item.id)?.changeTag }
                request.recordsToSave.append(record)
            case .delete:
                request.recordIDsToDelete.append(item.id)
            }
        }
        let result: ModifyResult
        do {
            result = try await context.gateway.modify(request, in: scope)
        } catch where error.code == .limitExceeded && chunk.count > 1 {
            // Too large for one request: send each half on its own.
            let half = chunk.count / 2
            try await sendChunk(Array(chunk[..<half]), scope: scope, outcome: &outcome, attempt: attempt)
            try await sendChunk(Array(chunk[half...]), scope: scope, outcome: &outcome, attempt: attempt)
            return
        }
        var retry: [PushItem] = []
        for item in chunk {
            let error: CloudError
            switch item.operation {
            case .save:
                switch result.savedRecords[item.id] {
                case .success(let saved):
                    try context.local { try context.store.setServerRecord(saved) }
                    outcome.saved += 1
                    continue
                case .failure(let failure): error = failure
                case nil: error = CloudError(.serviceUnavailable, "no result for \(item.id)")
                }
            case .delete:
                switch result.deletedRecords[item.id] {
                case .success:
                    try context.local { try context.store.removeServerRecord(item.id) }
                    outcome.deleted += 1
                    continue
                case .failure(let failure): error = failure
                case nil: error = CloudError(.serviceUnavailable, "no result for \(item.id)")
                }
            }
            if let again = try await recover(item, from: error, scope: scope, outcome: &outcome) {
                retry.append(again)
            }
        }
        guard !retry.isEmpty else { return }
        guard attempt < Self.maxRetryRounds else {
            for item in retry where outcome.failures[item.id] == nil {
                outcome.failures[item.id] = CloudError(.batchRequestFailed, "still failing after \(Self.maxRetryRounds) rounds")
            }
            return
        }
        try await sendChunk(retry, scope: scope, outcome: &outcome, attempt: attempt + 1)
    }

    /// What an item's error means for it: an item to send again, or nil (done, or a failure now
    /// recorded in the outcome).
    private func recover(_ item: PushItem, from error: CloudError, scope: DatabaseScope, outcome: inout Outcome) async throws(CloudError) -> PushItem? {
        switch RecoveryPolicy.action(for: error) {
        case .mergeAndRetry:
            guard case .save(let local) = item.operation, let server = error.serverRecord else { break }
            let ancestor = try context.local { try context.store.serverRecord(item.id) }
            let merged = RecordMerge.merge(ancestor: ancestor, local: local, server: server, policy: context.configuration.conflictPolicy(for: local.recordType))
            try context.local {
                try context.store.setServerRecord(server)
                _ = try context.store.applyPulled(merged, as: item.type)
            }
            context.events.publish(.conflictResolved(item.id))
            return PushItem(id: item.id, type: item.type, operation: .save(merged))
        case .treatAsDone:
            try context.local { try context.store.removeServerRecord(item.id) }
            if case .save = item.operation {
                // Deleted on the server while edited here: the deletion wins everywhere.
                try context.local { try context.store.deletePulled(type: item.type, recordName: item.id.recordName) }
            }
            return nil
        case .retryWithBatch:
            return item
        case .skipItem where scope == .public:
            // Another user's public record: not ours to change. Forgetting the server's version
            // makes the next pull restore it here.
            try context.local { try context.store.removeServerRecord(item.id) }
            return nil
        case .skipItem where scope == .shared:
            if case .delete = item.operation, let share = try context.local({ try context.store.serverRecord(item.id)?.shareRecordName }) {
                // Deleting someone else's shared root means leaving their share.
                let shareID = RecordID(recordName: share, zoneID: item.id.zoneID)
                let left = try await context.gateway.modify(ModifyRequest(recordIDsToDelete: [shareID]), in: .shared)
                if left.partialFailure == nil { return nil }
            }
        case .recreateZone where scope == .private:
            try await context.gateway.saveZones([item.id.zoneID])
            outcome.recreatedZones.insert(item.id.zoneID)
            return item
        case .askBeforeReuploading:
            context.events.publish(.userDeletedZone(item.id.zoneID))
        default:
            break
        }
        outcome.failures[item.id] = error
        return nil
    }
}
