import Foundation
import SyncCore

/// Values a schema migration's backfill computed on this device and has not pushed yet
/// (`SyncStore.migrate(toSchemaVersion:_:)`). Such a value yields to one the cloud holds: a
/// device that upgrades late takes what another device, or the user there, already put in the
/// field, instead of writing its own computation over it.
/// One topic of ``StoreTransaction``.
package protocol BackfilledValues: AnyObject {
    /// The values a backfill gave the record, by record key, that it still holds unpushed.
    func backfilledValues(recordType: String, recordName: String) throws -> [String: SyncFieldValue]
    /// Forgets what a backfill gave these records: pushed, or settled by the cloud's values.
    func forgetBackfilledValues(recordType: String, recordNames: [String]) throws
}
