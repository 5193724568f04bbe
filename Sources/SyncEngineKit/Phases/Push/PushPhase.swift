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

/// Local changes -> the cloud: dedup, placement by parent chain (``ParentChain``), ensure
/// ancestors, parent-depth waves, chunks within CloudKit's item and byte limits, conflicts merged.
///
/// Each request's results (server versions, merges, changes set aside) commit in one
/// transaction; the history token commits once every change read went through or was set aside.
/// A change that can still go through later (the network, a busy server) holds the token, so
/// nothing is lost; a change the cloud refuses for good is set aside with its error and never
/// holds up the rest.
struct PushPhase {
    /// The store topics the push's helpers read and write inside its transactions.
    typealias Topics = CloudVersionArrival.Topics & EngineState & KnownShares

    let context: SyncContext
    let account: PassAccount

    struct Outcome: Sendable {
        var saved = 0
        var deleted = 0
        /// Changes that failed for now: they stay pending, and the token waits for them.
        var failures: [RecordID: CloudError] = [:]
        /// Changes the cloud refused for good, set aside in this push.
        var setAside: [FailedChange] = []
        /// Records whose change the cloud refused as not this user's to make, put back (and
        /// named by `changeReverted`) in this push.
        var reverted: Set<RecordID> = []
        /// Items whose answer was read and dealt with: landed, set aside, put back, done some
        /// other way, or failed for now (then also in `failures`).
        var answered: Set<RecordID> = []

        mutating func add(_ other: Outcome) {
            saved += other.saved
            deleted += other.deleted
            failures.merge(other.failures) { first, _ in first }
            setAside += other.setAside
            reverted.formUnion(other.reverted)
            answered.formUnion(other.answered)
        }
    }

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
            // A record the cloud refused as not this user's is refused again in a later round of
            // the same push (its earlier edits read there): sent once, named once a pass.
            let items = try await prepare(total.reverted.isEmpty ? collected : collected.filter { !total.reverted.contains($0.id) })
            if !items.isEmpty && !started {
                started = true
                context.events.publish(.pushStarted(items: items.count))
            }
            var round = Outcome()
            do {
                try await send(items, into: &round)
            } catch {
                // The pass reports its own error: a store that cannot forget now only sends
                // those records again.
                try? keepWhatWentThrough(round, of: items, readThrough: readThrough)
                throw error
            }
            total.add(round)
            guard round.failures.isEmpty else {
                try keepWhatWentThrough(round, of: items, readThrough: readThrough)
                context.events.publish(.pushFailed(total.failures))
                return total
            }
            // Everything read went through or was set aside: commit what was read, and, when no
            // change of the app waits after it, everything after it too (the engine's own entries:
            // a big pull's backlog is gone at the first pass, not 2,000 entries a pass).
            let done = try context.transaction { store in
                try store.commitHistoryToken(readThrough)
                return try store.commitHistoryTokenIfNothingWaits()
            }
            if done { break }
        }
        if started && total.failures.isEmpty {
            context.events.publish(.pushCompleted(saved: total.saved, deleted: total.deleted))
        }
        return total
    }

    /// A round cut short (a change failed for now, or the pass ended at a request) leaves the
    /// history token where it was, so its changes are read again; the app's entries of the records
    /// it settled go (those it read, never a later edit), so the next round sends only what is
    /// left. Sent again, they would be cut at the same request by a limit that cuts every round
    /// alike (a `RequestBudget`, CloudKit's rate limit on a backlog), and the push would never
    /// get past it. Committed after the results: a crash between sends them again, harmlessly.
    private func keepWhatWentThrough(_ round: Outcome, of items: [PushItem], readThrough: Int64) throws(SyncError) {
        func key(_ item: PushItem) -> RecordKey { RecordKey(item.type.recordType, item.id.recordName) }
        // A record with two items (a draft and its projection, a copy a move left) is settled
        // once both are.
        let left = Set(items.filter { !round.answered.contains($0.id) || round.failures[$0.id] != nil }.map(key))
        let settled = Set(items.map(key)).subtracting(left)
        guard !settled.isEmpty else { return }
        try context.transaction { try $0.forgetPushedChanges(of: settled, through: readThrough) }
    }
}
