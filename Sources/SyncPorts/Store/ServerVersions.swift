import Foundation
import SyncCore

/// The last server version known of each record (a merge's ancestor, a save's change tag), and
/// the saves whose reply was lost.
/// One topic of ``StoreTransaction``.
package protocol ServerVersions: AnyObject {
    /// The change tag of the server version kept for a record: nil when none is kept, `.some(nil)`
    /// for one without a tag. Reads nothing else, so a pull can skip a version it has cheaply.
    func serverChangeTag(_ id: RecordID) throws -> String??
    /// `serverChangeTag` for records of one zone, in one read: a record none is kept for is absent.
    func serverChangeTags(_ names: [String], in zone: ZoneID) throws -> [String: String?]
    /// The last server record known for a record ID (change tag and fields: a merge's ancestor).
    func serverRecord(_ id: RecordID) throws -> SyncRecord?
    /// `serverRecord` for records of one zone, in one read: a record none is kept for is absent.
    func serverRecords(_ names: [String], in zone: ZoneID) throws -> [String: SyncRecord]
    func setServerRecord(_ record: SyncRecord) throws
    func removeServerRecord(_ id: RecordID) throws
    /// A save whose reply was lost (`serverResponseLost`), as it was sent: it may be on the server
    /// or not. Kept until a server version of the record says which (`uploadVersions` names it,
    /// or does not), one per record.
    func setUnconfirmedUpload(_ record: SyncRecord) throws
    func unconfirmedUpload(_ id: RecordID) throws -> SyncRecord?
    func removeUnconfirmedUpload(_ id: RecordID) throws
    /// IDs of every server record known in a zone.
    func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID]
    /// IDs of the server records known of one record under a parent, in any zone (more than one
    /// while the record moves between zones; only records under a parent move).
    func serverRecordIDs(recordType: String, recordName: String) throws -> [RecordID]
}
