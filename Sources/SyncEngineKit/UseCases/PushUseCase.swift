import Foundation
import SyncCore
import SyncPorts

/// One record to push: a save (the record as the model now is) or a deletion.
struct PushItem: Sendable {
    enum Operation: Sendable {
        case save(SyncRecord)
        case delete
    }

    var id: RecordID
    var type: any SyncModel.Type
    var operation: Operation
    /// Set when this save moves the record into another zone (its parent chain changed owner):
    /// the model takes the new owner once the save lands.
    var isMove = false
    /// The copies this device knows of the record in other zones (the one a move leaves, or one a
    /// move whose results a crash lost left behind): deleted once the save landed, so the record
    /// is never lost between the two, and never twice in the cloud for long.
    var leaves: [RecordID] = []

    var record: SyncRecord? {
        if case .save(let record) = operation { return record }
        return nil
    }

    var kind: ChangeKind {
        if case .save = operation { return .save }
        return .delete
    }
}

/// Local changes -> the cloud: dedup, placement by parent chain (`ParentChain`), ensure
/// ancestors, parent-depth waves, chunks within CloudKit's item and byte limits, conflicts merged.
///
/// Each request's results (server versions, merges, changes set aside) commit in one
/// transaction; the history token commits once every change read went through or was set aside.
/// A change that can still go through later (the network, a busy server) holds the token, so
/// nothing is lost; a change the cloud refuses for good is set aside with its error and never
/// holds up the rest.
struct PushUseCase {
    let context: SyncContext
    let account: PassAccount

    struct Outcome: Sendable {
        var saved = 0
        var deleted = 0
        /// Changes that failed for now: they stay pending, and the token waits for them.
        var failures: [RecordID: CloudError] = [:]
        /// Changes the cloud refused for good, set aside in this push.
        var setAside: [FailedChange] = []

        mutating func add(_ other: Outcome) {
            saved += other.saved
            deleted += other.deleted
            failures.merge(other.failures) { first, _ in first }
            setAside += other.setAside
        }
    }

    /// How far up a parent chain the engine looks (a guard against cycles in bad data).
    static let maxAncestorDepth = 8

    /// History entries read per round: memory stays bounded by this, not by the number of changes.
    static let pageSize = 2_000

    func execute() async throws(SyncError) -> Outcome {
        var total = Outcome()
        var started = false
        while true {
            let (readThrough, collected) = try context.transaction { store in
                let pending = try store.unpushedChanges(limit: Self.pageSize)
                return (pending.readThrough, try collect(pending.changes, in: store))
            }
            let items = try await prepare(collected)
            if !items.isEmpty && !started {
                started = true
                context.events.publish(.pushStarted(items: items.count))
            }
            let outcome = try await send(items)
            total.add(outcome)
            guard outcome.failures.isEmpty else {
                // The token stays: every change of this round that is not set aside stays pending.
                context.events.publish(.pushFailed(total.failures))
                return total
            }
            // Everything read went through or was set aside: commit what was read.
            let more = try context.transaction { store in
                try store.commitHistoryToken(readThrough)
                return try store.hasUnpushedChanges()
            }
            if !more { break }
        }
        if started && total.failures.isEmpty {
            context.events.publish(.pushCompleted(saved: total.saved, deleted: total.deleted))
        }
        return total
    }

    /// Pushes every local model of the zoned types, each into its own database, whatever the
    /// history says: the first upload.
    func uploadEverything() async throws(SyncError) -> Outcome {
        let items = try context.transaction { store in
            var items: [PushItem] = []
            for type in context.registry.zonedTypes {
                for name in try store.recordNames(type: type, ownerName: nil) {
                    guard let record = try store.uploadRecord(type: type, recordName: name, syncZoneName: context.configuration.syncZoneName) else { continue }
                    items.append(PushItem(id: record.id, type: type, operation: .save(record)))
                }
            }
            return items
        }
        return try await send(try await prepare(items))
    }

    // MARK: - Preparing

    /// One item per record per zone, the last change winning: a draft and its projection (one
    /// record name, two databases) stay two items, so do a moved record's save and the deletion
    /// of the copy it left. Changes for a zone the user deleted in Settings are left out: they
    /// wait for the app's decision, which uploads the zone's records as they then are, or removes
    /// them. A participant's deletion of a record under a shared root they deleted is left out
    /// too: deleting the root is leaving the share, and the records stay the owner's.
    private func collect(_ changes: [HistoryEntry], in store: any StoreTransaction) throws -> [PushItem] {
        let userDeleted = Set(try store.stateKeys(prefix: SyncStateKeys.userDeletedZonePrefix))
        var order: [RecordID] = []
        var latest: [RecordID: PushItem] = [:]
        for change in changes {
            guard let type = context.registry.type(forRecordType: change.recordType) else { continue }
            let item: PushItem
            switch change.kind {
            case .save:
                guard let record = try store.uploadRecord(type: type, recordName: change.recordName, syncZoneName: context.configuration.syncZoneName) else { continue }
                item = PushItem(id: record.id, type: type, operation: .save(record))
            case .delete:
                // Routed by the same rule as saves, from the values the tombstone kept.
                let zone = context.zone(scopes: type.syncScopes, ownerName: change.ownerName)
                item = PushItem(id: RecordID(recordName: change.recordName, zoneID: zone), type: type, operation: .delete)
            }
            if item.id.scope == .private && userDeleted.contains(SyncStateKeys.userDeletedZone(item.id.zoneID)) { continue }
            if item.id.scope == .shared, case .delete = item.operation, try isUnderDeletedSharedRoot(item.id, in: store) {
                try store.removeServerRecord(item.id)
                continue
            }
            if latest[item.id] == nil { order.append(item.id) }
            latest[item.id] = item
        }
        return order.compactMap { latest[$0] }
    }

    /// Whether an ancestor of this shared record, by what the server last said, is a share root
    /// this device deleted.
    private func isUnderDeletedSharedRoot(_ id: RecordID, in store: any StoreTransaction) throws -> Bool {
        var current = try store.serverRecord(id)
        for _ in 0..<Self.maxAncestorDepth {
            guard let parent = current?.parentRecordName, let record = try store.serverRecord(RecordID(recordName: parent, zoneID: id.zoneID)) else { return false }
            if record.shareRecordName != nil, let type = context.registry.type(forRecordType: record.recordType) {
                return try !store.isStored(type: type, recordName: parent)
            }
            current = record
        }
        return false
    }

    private func prepare(_ items: [PushItem]) async throws(SyncError) -> [PushItem] {
        try await ensureAncestors(try place(items))
    }

    /// Each save goes to the zone of its parent chain (`ParentChain.owner`). A record whose chain
    /// changed owner moves: its subtree moves with it, and the local models take their new owner
    /// when their saves land. Every copy this device knows of a record with a parent in another
    /// zone than its save's is deleted once the save landed: the copy a move leaves, and one left
    /// by a move that landed while a crash took its results (a pull then put the model where the
    /// copy landed). The deletion of a record no longer stored here takes every copy too: the
    /// deletion queued for the copy a move left can be folded into the record's own later
    /// deletion (parking keeps one change per record). Public records are never rewritten.
    private func place(_ items: [PushItem]) throws(SyncError) -> [PushItem] {
        try context.transaction { store in
            let chain = ParentChain(context: context)
            var placed = items
            var known = Set(items.map { RecordKey($0.type.recordType, $0.id.recordName) })
            var present = Set(items.map(\.id))
            var index = 0
            while index < placed.count {
                defer { index += 1 }
                let type = placed[index].type
                guard placed[index].id.scope != .public, context.registry.parentType(of: type) != nil else { continue }
                guard case .save(var record) = placed[index].operation else {
                    let name = placed[index].id.recordName
                    // A record still stored here lives on in one zone: only this copy goes.
                    guard try !store.isStored(type: type, recordName: name) else { continue }
                    for copy in try store.serverRecordIDs(recordType: type.recordType, recordName: name)
                    where copy.scope != .public && present.insert(copy).inserted {
                        placed.append(PushItem(id: copy, type: type, operation: .delete))
                    }
                    continue
                }
                if let owner = try chain.owner(under: record.parentRecordName, type: type, in: store), owner != record.id.zoneID.ownerName {
                    let from = record.id
                    record.id = RecordID(recordName: from.recordName, zoneID: context.zone(scopes: type.syncScopes, ownerName: owner))
                    placed[index].id = record.id
                    placed[index].operation = .save(record)
                    placed[index].isMove = true
                    for childType in context.registry.childTypes(of: type) {
                        for name in try store.childNames(type: childType, parentRecordName: from.recordName) where known.insert(RecordKey(childType.recordType, name)).inserted {
                            guard let child = try store.uploadRecord(type: childType, recordName: name, syncZoneName: context.configuration.syncZoneName) else { continue }
                            placed.append(PushItem(id: child.id, type: childType, operation: .save(child)))
                        }
                    }
                }
                placed[index].leaves = try store.serverRecordIDs(recordType: type.recordType, recordName: record.id.recordName).filter { $0 != record.id }
            }
            // A save placed in a zone voids the deletion queued for that zone's copy (the record
            // moved back where an earlier move of it left a copy): CloudKit deletes without a
            // change tag, so the deletion would take the new version with it, and sent apart
            // from the save it could land after it.
            let saved = Set(placed.filter { $0.record != nil }.map(\.id))
            placed.removeAll { $0.record == nil && saved.contains($0.id) }
            return placed
        }
    }

    /// Adds the parents the server does not have yet: parents are looked up locally, their
    /// existence on the server checked in one request per round (a failed check counts as
    /// existing: better to skip an upload than to duplicate), at most `maxAncestorDepth` rounds.
    private func ensureAncestors(_ items: [PushItem]) async throws(SyncError) -> [PushItem] {
        var batch = items
        var present = Set(items.map(\.id))
        for _ in 0..<Self.maxAncestorDepth {
            let candidates = try context.transaction { store in
                var candidates: [RecordID: any SyncModel.Type] = [:]
                for item in batch {
                    guard let record = item.record, let parent = record.parentID, !present.contains(parent),
                        try store.serverRecord(parent) == nil,
                        let parentType = context.registry.parentType(of: item.type)
                    else { continue }
                    candidates[parent] = parentType
                }
                return candidates
            }
            guard !candidates.isEmpty else { break }
            var missing: [RecordID] = []
            for (scope, ids) in Dictionary(grouping: candidates.keys, by: \.scope) {
                do {
                    let found = try await context.cloud.fetchRecords(ids, desiredKeys: [], in: scope)
                    for id in ids {
                        if case .failure(let error) = found[id], error.code == .unknownItem { missing.append(id) }
                    }
                } catch {
                    continue
                }
            }
            guard !missing.isEmpty else { break }
            let parents = try context.transaction { store in
                try missing.sorted(by: { $0.recordName < $1.recordName }).compactMap { id -> PushItem? in
                    guard let type = candidates[id],
                        var parent = try store.uploadRecord(type: type, recordName: id.recordName, syncZoneName: context.configuration.syncZoneName)
                    else { return nil }
                    parent.id = id
                    return PushItem(id: id, type: type, operation: .save(parent))
                }
            }
            batch += parents
            present.formUnion(parents.map(\.id))
        }
        return batch
    }

    // MARK: - Sending

    /// Sends items zone by zone, in waves of parent depth (parents before children), in chunks
    /// within CloudKit's request limits.
    private func send(_ items: [PushItem]) async throws(SyncError) -> Outcome {
        var outcome = Outcome()
        let byZone = Dictionary(grouping: items, by: \.id.zoneID)
        for zone in byZone.keys.sorted(by: { ($0.scope, $0.ownerName, $0.zoneName) < ($1.scope, $1.ownerName, $1.zoneName) }) {
            for wave in Self.waves(byZone[zone]!) {
                for chunk in chunks(wave) {
                    try await sendChunk(chunk, scope: zone.scope, outcome: &outcome, attempt: 0)
                }
            }
        }
        for change in outcome.setAside { context.events.publish(.changeSetAside(change)) }
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

    /// Chunks of at most `CloudKitLimits.maxItemsPerRequest` items and the configured request size.
    private func chunks(_ items: [PushItem]) -> [[PushItem]] {
        var chunks: [[PushItem]] = []
        var current: [PushItem] = []
        var bytes = 0
        for item in items {
            let size = item.record.map(RecordSize.of) ?? 0
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

    /// Why a save of a natural key's copy waits: a device marked it merged
    /// (`SyncRecord.mergedInto`). Saved again, the change would be on a copy every device takes
    /// for its survivor; set aside, it goes to the survivor in the check after the next pull,
    /// which brings the survivor holding the marked copy (`NaturalKeyUseCase.settleMarked`). Nil
    /// for any other save.
    static func waitsForSurvivor(_ item: PushItem, over known: SyncRecord?) -> CloudError? {
        guard !item.type.uniqueKeys.isEmpty, let survivor = known?.mergedInto else { return nil }
        return CloudError(
            .constraintViolation,
            "\(item.type.recordType) '\(item.id.recordName)' was merged into '\(survivor)': this change goes there after the next pull")
    }

    /// A new upload's ID (`SyncRecord.stampUpload`): random, and short, since a record keeps the
    /// IDs of its last uploads.
    static func newUploadID() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12))
    }

    /// What an item's result asks for once the results are committed.
    private enum FollowUp {
        /// Deleting someone else's shared root: leave their share instead.
        case leaveShare(PushItem, shareID: RecordID)
        /// The zone is missing: create it, then send the item again.
        case recreateZone(ZoneID)
    }

    private func sendChunk(_ chunk: [PushItem], scope: DatabaseScope, outcome: inout Outcome, attempt: Int) async throws(SyncError) {
        try await account.verify()
        let request = try context.transaction { store in
            var request = ModifyRequest()
            // A chunk is of one zone: its server versions are read at once.
            var known: [RecordID: SyncRecord] = [:]
            for (zone, items) in Dictionary(grouping: chunk.filter { $0.record != nil }, by: \.id.zoneID) {
                for (name, record) in try store.serverRecords(items.map(\.id.recordName), in: zone) {
                    known[RecordID(recordName: name, zoneID: zone)] = record
                }
            }
            for item in chunk {
                switch item.operation {
                case .save(var record):
                    if let waiting = Self.waitsForSurvivor(item, over: known[item.id]) {
                        try setAside(item, waiting, in: store, outcome: &outcome)
                        continue
                    }
                    record.base(onServerVersionOf: known[item.id])
                    record.stampUpload(Self.newUploadID(), over: known[item.id])
                    request.recordsToSave.append(record)
                case .delete:
                    request.recordIDsToDelete.append(item.id)
                }
            }
            return request
        }
        let result: ModifyResult
        do {
            result = try await context.cloud.modify(request, in: scope)
        } catch .cloud(let error) where error.code == .serverResponseLost {
            // Applied or not, nobody can say: each save is kept as sent, until a version of its
            // record says whether it descends from it.
            try context.transaction { store in
                for record in request.recordsToSave { try store.setUnconfirmedUpload(record) }
            }
            throw .cloud(error)
        } catch .cloud(let error) where error.code == .limitExceeded || error.code == .invalidArguments {
            guard chunk.count > 1 else {
                // One record the cloud will not take, alone in its request: set it aside.
                try context.transaction { try setAside(chunk[0], error, in: $0, outcome: &outcome) }
                return
            }
            // Too large, or one item makes the whole request invalid: each half on its own.
            let half = chunk.count / 2
            try await sendChunk(Array(chunk[..<half]), scope: scope, outcome: &outcome, attempt: attempt)
            try await sendChunk(Array(chunk[half...]), scope: scope, outcome: &outcome, attempt: attempt)
            return
        }
        var followUps: [FollowUp] = []
        let retry = try context.transaction { store in
            var retry: [PushItem] = []
            // Changes set aside are few: read once, a landed item forgets its own.
            let setAside = Set(try store.failedChanges().map { RecordKey($0.recordType, $0.recordName) })
            func landed(_ item: PushItem) throws {
                if setAside.contains(RecordKey(item.type.recordType, item.id.recordName)) {
                    try store.removeFailedChange(recordType: item.type.recordType, recordName: item.id.recordName)
                }
            }
            for item in chunk {
                let error: CloudError
                switch item.operation {
                case .save:
                    switch result.savedRecords[item.id] {
                    case .success(let saved):
                        try store.setServerRecord(saved)
                        try landed(item)
                        if item.isMove || !item.leaves.isEmpty { try landMove(item, in: store) }
                        outcome.saved += 1
                        continue
                    case .failure(let failure):
                        error = failure
                        if failure.code == .serverResponseLost, let sent = request.recordsToSave.first(where: { $0.id == item.id }) {
                            try store.setUnconfirmedUpload(sent)
                        }
                    case nil: error = CloudError(.serviceUnavailable, "no result for \(item.id)")
                    }
                case .delete:
                    switch result.deletedRecords[item.id] {
                    case .success:
                        try store.removeServerRecord(item.id)
                        try landed(item)
                        outcome.deleted += 1
                        continue
                    case .failure(let failure): error = failure
                    case nil: error = CloudError(.serviceUnavailable, "no result for \(item.id)")
                    }
                }
                if let again = try recover(item, from: error, scope: scope, in: store, outcome: &outcome, followUps: &followUps) {
                    retry.append(again)
                }
            }
            return retry
        }
        for followUp in followUps {
            switch followUp {
            case .leaveShare(let item, let shareID):
                let left = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: [shareID]), in: .shared)
                if let error = left.itemErrors[shareID], error.code != .unknownItem {
                    try context.transaction { try setAside(item, error, in: $0, outcome: &outcome) }
                }
            case .recreateZone(let zone):
                try await context.cloud.saveZones([zone])
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

    /// What an item's error means for it, decided inside the results' transaction: an item to send
    /// again, or nil (done, set aside, left to a follow-up, or a failure now in the outcome).
    private func recover(
        _ item: PushItem, from error: CloudError, scope: DatabaseScope, in store: any StoreTransaction,
        outcome: inout Outcome, followUps: inout [FollowUp]
    ) throws -> PushItem? {
        switch RecoveryPolicy.itemAction(for: error) {
        case .mergeAndRetry:
            guard let server = error.serverRecord else { break }
            // Merged on the store as it is now: an edit the app made since this push read the
            // model is part of the merge, never written over.
            // The server's version may bring an asset this device has not heard of: the cache
            // learns of it, as from a pull.
            if let merged = try ServerVersion(context: context).apply(server, as: item.type, in: store, isLocalChange: true).record {
                try AssetCacheUseCase(context: context).recordArrived(merged, in: store)
            }
            if let waiting = Self.waitsForSurvivor(item, over: server) {
                try setAside(item, waiting, in: store, outcome: &outcome)
                return nil
            }
            guard let current = try store.uploadRecord(type: item.type, recordName: item.id.recordName, syncZoneName: context.configuration.syncZoneName) else {
                return PushItem(id: item.id, type: item.type, operation: .delete)
            }
            var record = current
            record.id = item.id
            var again = item
            again.operation = .save(record)
            return again
        case .treatAsDone:
            if case .save = item.operation, !item.type.uniqueKeys.isEmpty,
                try !NaturalKeyUseCase(context: context).foldDeletedDuplicate(item.id, type: item.type, ancestor: try store.serverRecord(item.id), store: store)
            {
                // Gone from the cloud, perhaps merged into a record this device has not heard of
                // yet: the pull that brings the deletion decides, and this change goes to the
                // survivor, or away with a deletion a user made.
                return nil
            }
            try store.removeServerRecord(item.id)
            try store.removeFailedChange(recordType: item.type.recordType, recordName: item.id.recordName)
            if case .save = item.operation {
                // Deleted on the server while edited here: the deletion wins everywhere, and the
                // records under it follow.
                let removed = try store.deletePulled(type: item.type, recordName: item.id.recordName)
                let key = RecordKey(item.type.recordType, item.id.recordName)
                try ParentChain(context: context).settle(subtree: removed.filter { $0 != key }, under: item.id.recordName, in: item.id.zoneID, deletedAlready: [], in: store)
            }
            return nil
        case .retryWithBatch:
            return item
        case .skipItem where scope == .public:
            // Another user's public record: not ours to change. Forgetting the server's version
            // and asking for its catalog makes the next pass restore it here.
            try store.removeServerRecord(item.id)
            try CatalogRefresh.request([item.type.recordType], in: store)
            return nil
        case .skipItem where scope == .shared:
            if case .delete = item.operation, let share = try store.serverRecord(item.id)?.shareRecordName {
                // Deleting someone else's shared root means leaving their share.
                followUps.append(.leaveShare(item, shareID: RecordID(recordName: share, zoneID: item.id.zoneID)))
                return nil
            }
            try revert(item, error, in: store, outcome: &outcome)
            return nil
        case .uploadParentFirst:
            return try saveParentFirst(item, error, in: store, outcome: &outcome)
        case .skipItem, .setAside:
            try setAside(item, error, in: store, outcome: &outcome)
            return nil
        case .recreateZone where scope == .private:
            // The zone is gone with every record in it: all of them go up again, queued now, and
            // this one is sent again as soon as the zone exists (without the void change tag).
            if !followUps.contains(where: { if case .recreateZone(item.id.zoneID) = $0 { true } else { false } }) {
                try ZoneRebuild.queueEverything(of: item.id.zoneID, registry: context.registry, in: store)
                followUps.append(.recreateZone(item.id.zoneID))
            }
            return item
        case .recreateZone:
            // A shared zone that is gone: the share ended; the next pull removes its copy.
            try setAside(item, error, in: store, outcome: &outcome)
            return nil
        case .askBeforeReuploading:
            // The user deleted the zone in Settings: nothing of it goes up until the app decides.
            try store.setState(SyncStateKeys.userDeletedZone(item.id.zoneID), "1")
            context.events.publish(.userDeletedZone(item.id.zoneID))
            return nil
        default:
            break
        }
        outcome.failures[item.id] = error
        return nil
    }

    /// A moved record's save landed: the model takes its new owner, and the copies left in other
    /// zones go.
    private func landMove(_ item: PushItem, in store: any StoreTransaction) throws {
        if item.isMove { try store.setOwner(item.id.zoneID.ownerName, type: item.type, recordName: item.id.recordName) }
        for copy in item.leaves {
            try store.queueDeletion(recordType: item.type.recordType, recordName: item.id.recordName, ownerName: copy.zoneID.ownerName)
        }
    }

    /// A save whose parent the cloud does not have. A parent stored here goes up again first (the
    /// cloud lost it, or never had it) and the child waits; a parent that is gone takes the child
    /// with it (`ParentChain.follow`): the recovery ends either way.
    private func saveParentFirst(_ item: PushItem, _ error: CloudError, in store: any StoreTransaction, outcome: inout Outcome) throws -> PushItem? {
        guard let parent = item.record?.parentRecordName, let parentType = context.registry.parentType(of: item.type) else {
            try setAside(item, error, in: store, outcome: &outcome)
            return nil
        }
        if let stored = try store.parentAndOwner(type: parentType, recordName: parent) {
            try store.requeue(recordType: parentType.recordType, recordName: parent, ownerName: stored.owner)
            outcome.failures[item.id] = error
            return nil
        }
        try ParentChain(context: context).follow(deletedParent: parent, type: item.type, recordName: item.id.recordName, in: store)
        return nil
    }

    /// A change the cloud refused because this user may not make it (a participant of a
    /// read-only share): the record goes back to the cloud's last version known here (the copy
    /// a refused move left, for a move), or goes when the cloud never had it. A refused deletion
    /// of the copy a move left undoes the move: the record comes back, its new copy goes.
    private func revert(_ item: PushItem, _ error: CloudError, in store: any StoreTransaction, outcome: inout Outcome) throws {
        let name = item.id.recordName
        try store.removeFailedChange(recordType: item.type.recordType, recordName: name)
        if case .delete = item.operation, let stored = try store.parentAndOwner(type: item.type, recordName: name),
            context.zone(scopes: item.type.syncScopes, ownerName: stored.owner) != item.id.zoneID
        {
            try store.queueDeletion(recordType: item.type.recordType, recordName: name, ownerName: stored.owner)
        }
        if let known = try store.serverRecord(item.id) ?? item.leaves.first.flatMap({ try store.serverRecord($0) }) {
            _ = try store.applyPulled(known, as: item.type)
            try AssetCacheUseCase(context: context).recordArrived(known, in: store)
        } else {
            try store.deletePulled(type: item.type, recordName: name)
        }
        context.events.publish(.changeReverted(failedChange(item, error)))
    }

    /// Sets a change aside with the cloud's error: out of the queue until it changes again or the
    /// app retries it.
    private func setAside(_ item: PushItem, _ error: CloudError, in store: any StoreTransaction, outcome: inout Outcome) throws {
        let change = failedChange(item, error)
        try store.setAside(change)
        outcome.setAside.append(change)
    }

    private func failedChange(_ item: PushItem, _ error: CloudError) -> FailedChange {
        FailedChange(
            recordType: item.type.recordType, recordName: item.id.recordName, ownerName: item.id.zoneID.ownerName,
            kind: item.kind, error: error, failedAt: context.clock.now)
    }
}
