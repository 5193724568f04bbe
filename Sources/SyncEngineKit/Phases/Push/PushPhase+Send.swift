import Foundation
import SyncCore
import SyncPorts

/// Sending a push: requests within CloudKit's limits, their results committed with what they mean
/// for each item, and the items to send again sent again.
extension PushPhase {
    /// Sends items zone by zone, in waves of parent depth (parents before children), in chunks
    /// within CloudKit's request limits.
    /// What was answered stays in `outcome` when a request ends the pass.
    func send(_ items: [PushItem], into outcome: inout Outcome) async throws(SyncError) {
        // The app hears of each change set aside, even when a later request ends the pass.
        defer { for change in outcome.setAside { context.events.publish(.changeSetAside(change)) } }
        let byZone = Dictionary(grouping: items, by: \.id.zoneID)
        for zone in byZone.keys.sorted(by: { ($0.scope, $0.ownerName, $0.zoneName) < ($1.scope, $1.ownerName, $1.zoneName) }) {
            for wave in Self.waves(byZone[zone]!) {
                for chunk in chunks(wave) {
                    try await sendChunk(chunk, scope: zone.scope, outcome: &outcome, attempt: 0)
                }
            }
        }
    }

    /// Items grouped by how many of their ancestors are in the batch: parents first.
    static func waves(_ items: [PushItem]) -> [[PushItem]] {
        // No record under a parent: one wave, with no map of the batch to make.
        guard items.contains(where: { $0.record?.parentRecordName != nil }) else { return items.isEmpty ? [] : [items] }
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
    func chunks(_ items: [PushItem]) -> [[PushItem]] {
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

    static let maxRetryRounds = 3

    /// Why a save of a natural key's copy waits: a device marked it merged
    /// (`SyncRecord.mergedInto`). Saved again, the change would be on a copy every device takes
    /// for its survivor; set aside, it goes to the survivor in the check after the next pull,
    /// which brings the survivor holding the marked copy (`NaturalKeyMerge.settleMarked`). Nil
    /// for any other save.
    static func waitsForSurvivor(_ item: PushItem, over known: SyncRecord?) -> CloudError? {
        guard !item.type.uniqueKeys.isEmpty, let survivor = known?.mergedInto else { return nil }
        return CloudError(
            .constraintViolation,
            "\(item.type.recordType) '\(item.id.recordName)' was merged into '\(survivor)': this change goes there after the next pull")
    }

    /// What an item's result asks for once the results are committed.
    enum FollowUp {
        /// Deleting someone else's shared root: leave their share instead.
        case leaveShare(PushItem, shareID: RecordID)
        /// The zone is missing: create it, then send the item again.
        case recreateZone(ZoneID)
    }

    /// One request of a zone's items: built, sent (halved when the cloud refuses it whole),
    /// landed, its follow-ups made, and the items to send again sent again.
    func sendChunk(_ chunk: [PushItem], scope: DatabaseScope, outcome: inout Outcome, attempt: Int) async throws(SyncError) {
        try await account.verify()
        let (request, sent) = try context.transaction { store in try self.request(for: chunk, in: store, outcome: &outcome) }
        guard !sent.isEmpty else { return }
        guard let result = try await send(request, of: sent, scope: scope, outcome: &outcome, attempt: attempt) else { return }
        try await ZoneMoveLookup(context: context).learnMoves(behind: result, scope: scope)
        var followUps: [FollowUp] = []
        var landed = Landed()
        let retry = try context.transaction { store in
            try land(result, of: request, chunk: sent, scope: scope, in: store, outcome: &outcome, landed: &landed, followUps: &followUps)
        }
        // Named once the store keeps them: the app may read each as pushed.
        if !landed.saved.isEmpty || !landed.deleted.isEmpty { context.events.publish(.pushLanded(saved: landed.saved, deleted: landed.deleted)) }
        try await perform(followUps, outcome: &outcome)
        let again = Set(retry.map(\.id))
        outcome.answered.formUnion(sent.lazy.map(\.id).filter { !again.contains($0) })
        guard !retry.isEmpty else { return }
        guard attempt < Self.maxRetryRounds else {
            for item in retry where outcome.failures[item.id] == nil {
                outcome.failures[item.id] = CloudError(.batchRequestFailed, "still failing after \(Self.maxRetryRounds) rounds")
            }
            return
        }
        try await sendChunk(retry, scope: scope, outcome: &outcome, attempt: attempt + 1)
    }

    /// The request of a chunk: each save based on the version the cloud last returned and
    /// stamped with a new upload ID, each kept as sent before it goes (a reply lost, or never
    /// read because the app was killed while the request was out, leaves what the cloud may hold,
    /// the ancestor of the next merge). A save of a copy a device marked merged is set aside, and
    /// left out of the items sent (no answer is read for it).
    private func request(for chunk: [PushItem], in store: any Topics, outcome: inout Outcome) throws -> (ModifyRequest, sent: [PushItem]) {
        var request = ModifyRequest()
        var sent: [PushItem] = []
        let device = try UploadDevice.id(in: store)
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
                record.stampUpload(SyncRecord.newUploadID(device: device), over: known[item.id])
                request.recordsToSave.append(record)
            case .delete:
                request.recordIDsToDelete.append(item.id)
            }
            sent.append(item)
        }
        try store.noteSent(request.recordsToSave)
        return (request, sent)
    }

    /// The cloud's answer to the request, or nil when it refused the request whole and each half
    /// (or the one record left) was dealt with on its own.
    private func send(
        _ request: ModifyRequest, of chunk: [PushItem], scope: DatabaseScope, outcome: inout Outcome, attempt: Int
    ) async throws(SyncError) -> ModifyResult? {
        do {
            return try await context.cloud.modify(request, in: scope)
        } catch .cloud(let error) {
            switch RecoveryPolicy.modifyFailure(error) {
            case .replyLost, .fail:
                // Lost: applied or not, nobody can say, so each save stays kept as sent, until a
                // version of its record says whether it descends from it.
                throw .cloud(error)
            case .neverSent:
                // None of these uploads can be in the cloud (an earlier one kept of a record may
                // be, and stays).
                try context.transaction { try $0.forgetSent(uploads: request.recordsToSave) }
                throw .cloud(error)
            case .refusedWhole:
                // Nothing of it was applied.
                try context.transaction { try $0.forgetSent(uploads: request.recordsToSave) }
                try await sendApart(chunk, refusedWith: error, scope: scope, outcome: &outcome, attempt: attempt)
                return nil
            case .itemsUnnamed:
                // Sent again whole, the chunk would fail on every pass. Halved, each part settles
                // its own items, and one failing alone is set aside. What was kept as sent stays
                // until a version of its record says whether it landed (a request that was not
                // atomic may have been applied in part).
                try await sendApart(chunk, refusedWith: error, scope: scope, outcome: &outcome, attempt: attempt)
                return nil
            }
        }
    }

    /// A chunk the cloud refused whole, sent again in halves: too large, or one item makes the
    /// whole request fail. One item alone is set aside with the refusal.
    private func sendApart(
        _ chunk: [PushItem], refusedWith error: CloudError, scope: DatabaseScope, outcome: inout Outcome, attempt: Int
    ) async throws(SyncError) {
        guard chunk.count > 1 else {
            try context.transaction { try setAside(chunk[0], error, in: $0, outcome: &outcome) }
            return
        }
        let half = chunk.count / 2
        try await sendChunk(Array(chunk[..<half]), scope: scope, outcome: &outcome, attempt: attempt)
        try await sendChunk(Array(chunk[half...]), scope: scope, outcome: &outcome, attempt: attempt)
    }

    /// The records one request landed, for ``SyncEvent/pushLanded(saved:deleted:)``.
    private struct Landed {
        var saved: [RecordKey] = []
        var deleted: [RecordKey] = []
    }

    /// Each item's result, in the transaction that keeps them all: a landed save's server
    /// version kept, a landed deletion's forgotten, a failure recovered (`recover`). Returns the
    /// items to send again; the records landed are added to `landed`, and what else an answer
    /// asks for to `followUps`.
    private func land(
        _ result: ModifyResult, of request: ModifyRequest, chunk: [PushItem], scope: DatabaseScope, in store: any Topics,
        outcome: inout Outcome, landed: inout Landed, followUps: inout [FollowUp]
    ) throws -> [PushItem] {
        var retry: [PushItem] = []
        var savedNames: [String: [String]] = [:]
        // Changes set aside are few: read once, a landed item forgets its own.
        let setAside = Set(try store.failedChanges().map { RecordKey($0.recordType, $0.recordName) })
        func clearSetAside(_ item: PushItem) throws {
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
                    try clearSetAside(item)
                    savedNames[item.type.recordType, default: []].append(item.id.recordName)
                    if item.isMove || !item.leaves.isEmpty { try landMove(item, in: store) }
                    landed.saved.append(RecordKey(item.type.recordType, item.id.recordName))
                    outcome.saved += 1
                    continue
                case .failure(let failure):
                    error = failure
                case nil: error = CloudError.noResult(for: item.id)
                }
            case .delete:
                switch result.deletedRecords[item.id] {
                case .success:
                    try CloudDeletionArrival(context: context).confirm(item.id, in: store)
                    try clearSetAside(item)
                    landed.deleted.append(RecordKey(item.type.recordType, item.id.recordName))
                    outcome.deleted += 1
                    continue
                case .failure(let failure): error = failure
                case nil: error = CloudError.noResult(for: item.id)
                }
            }
            if let again = try recover(item, from: error, scope: scope, in: store, outcome: &outcome, followUps: &followUps) {
                retry.append(again)
            }
        }
        // The saves whose reply was read are settled: what is kept of them as sent goes (a
        // conflict's merge has used it already). A lost one's stays, for the version that will
        // say whether it landed.
        try store.forgetSent(answeredBy: result, of: request, in: chunk[0].id.zoneID)
        // A backfill's values that landed are the cloud's now: nothing of them yields any more.
        for (recordType, names) in savedNames {
            try store.forgetBackfilledValues(recordType: recordType, recordNames: names)
        }
        return retry
    }

    /// What the landed results asked for beyond the store: leaving someone else's share, or
    /// creating a zone again.
    private func perform(_ followUps: [FollowUp], outcome: inout Outcome) async throws(SyncError) {
        for followUp in followUps {
            switch followUp {
            case .leaveShare(let item, let shareID):
                let left = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: [shareID]), in: .shared)
                // A share gone already is left.
                if let error = left.itemErrors[shareID], !RecoveryPolicy.answer(to: error).isGone {
                    try context.transaction { try setAside(item, error, in: $0, outcome: &outcome) }
                }
            case .recreateZone(let zone):
                try await context.cloud.saveZones([zone])
            }
        }
    }
}
