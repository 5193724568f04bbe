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
        /// A zone that failed to be read on its own (`RecoveryPolicy.sparesOtherZones`): it
        /// stopped nothing else, and the pass reports it once the rest is done.
        var zoneFailure: SyncError?
    }

    /// Pulls everything the pass's account may read. Signed out, only the public catalogs and
    /// the followed public records.
    func execute() async throws(SyncError) -> Outcome {
        var pulled = try context.transaction { store in
            PullState(localChanges: try PullState.LocalChanges(in: store), unreadable: Set(try UnreadableRecords.all(in: store).map(\.id)))
        }
        var zoneFailure: SyncError?
        if account.isSignedIn {
            _ = try context.transaction { try ZoneMirroring(context: context).settle(in: $0) }
            for scope in [DatabaseScope.private, .shared] {
                zoneFailure = try await pullDatabase(scope, state: &pulled) ?? zoneFailure
            }
            try await checkMovedCopies(state: &pulled)
        }
        try await pullCatalogs(state: &pulled)
        try await pullFollowedRecords(state: &pulled)
        try await fetchUnreadableAgain(state: &pulled)
        try await repairReferences(state: &pulled)
        return Outcome(zonesToRebuild: pulled.zonesToRebuild, zoneFailure: zoneFailure)
    }
}
