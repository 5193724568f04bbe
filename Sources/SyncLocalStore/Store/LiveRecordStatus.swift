import Foundation
import Observation
import SyncCore

/// A record's sync status that stays current, for a badge beside it: `status` changes each
/// time a committed transaction changes it (an edit, a push, a refusal, a retry, a merge). On the
/// main actor, observable; read once at once; stops when released.
@MainActor @Observable
public final class LiveRecordStatus<Model: SyncModel> {
    /// The record's status (nil: the store neither holds it nor has a change of it).
    public private(set) var status: RecordSyncStatus?
    /// Why the status stopped following the store: a read that failed. Nil while it follows.
    public private(set) var error: (any Error)?
    @ObservationIgnored private var following: FollowingTask?

    /// The status of the record of that type and name, kept current.
    public init(_ store: SyncStore, _ type: Model.Type = Model.self, recordName: String) {
        let updates = store.observeSyncStatus(of: type, recordName: recordName)
        do {
            status = try store.syncStatus(of: type, recordName: recordName)
        } catch {
            self.error = error
        }
        following = .following(updates, apply: { [weak self] status in
            if self?.status != status { self?.status = status }
        }, failed: { [weak self] error in self?.error = error })
    }
}
