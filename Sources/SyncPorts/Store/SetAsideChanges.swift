import Foundation
import SyncCore

/// Changes the cloud refused for good: set aside with their error, out of the queue, until the
/// app retries or discards them.
/// One topic of ``StoreTransaction``.
package protocol SetAsideChanges: AnyObject {
    /// Sets a change aside (replacing an earlier one for the same record).
    func setAside(_ change: FailedChange) throws
    /// Every change set aside, by record type and name.
    func failedChanges() throws -> [FailedChange]
    func failedChange(recordType: String, recordName: String) throws -> FailedChange?
    func removeFailedChange(recordType: String, recordName: String) throws
}
