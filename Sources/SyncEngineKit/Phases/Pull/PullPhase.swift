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
}
