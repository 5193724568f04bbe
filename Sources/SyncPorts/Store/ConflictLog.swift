import Foundation
import SyncCore

/// The conflicts sync settled by itself: when (a record's status shows it), and which fields from
/// which values (`RecordConflict`).
/// One topic of ``StoreTransaction``.
package protocol ConflictLog: AnyObject {
    /// Notes that sync resolved a conflict on the record by itself, now (its status shows it).
    func noteConflictResolution(recordType: String, recordName: String) throws
    /// Keeps the fields a merge settled, with the values it settled them from, and lets go of the
    /// conflicts `retention` no longer keeps.
    func recordConflict(recordType: String, id: RecordID, fields: [FieldConflict], retention: ConflictRetention) throws -> RecordConflict
    /// The newest kept conflicts of every record, newest first.
    func recentConflicts(limit: Int) throws -> [RecordConflict]
}
