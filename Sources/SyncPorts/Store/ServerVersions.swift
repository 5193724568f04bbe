import Foundation
import SyncCore

/// The last server version known of each record (a merge's ancestor, a save's change tag), and
/// the saves sent whose reply was never read.
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
    /// Saves as they are sent, written before the request goes out: until its reply is read, a
    /// save may be on the server or not (the reply lost, or the app killed before it read it).
    /// Kept until the reply is read or a server version of the record says which (its
    /// `uploadVersions` names the save, or does not): the version this device's edits since
    /// start from. Several per record, one per upload.
    func noteSent(_ records: [SyncRecord]) throws
    /// The saves of a record kept as sent (`noteSent`), the last sent first (two sent at the
    /// same instant in either order: each names its upload, which is what a reader matches).
    func sentVersions(_ id: RecordID) throws -> [SyncRecord]
    /// Forgets every save kept for these records of one zone: a version of each says where it
    /// stands.
    func forgetSent(_ names: [String], in zone: ZoneID) throws
    /// Forgets these saves (by their upload): the cloud did not apply them.
    func forgetSent(uploads: [SyncRecord]) throws
    /// IDs of every server record known in a zone.
    func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID]
    /// A number no fetch from scratch of the zone has used yet (`markListed`).
    func newListing(inZone zone: ZoneID) throws -> Int64
    /// Notes that fetch from scratch `listing` of a zone listed these records.
    func markListed(_ names: [String], in zone: ZoneID, listing: Int64) throws
    /// The server records known in a zone that fetch from scratch `listing` did not list, with
    /// their record types.
    func serverRecordsNotListed(inZone zone: ZoneID, listing: Int64) throws -> [(id: RecordID, recordType: String)]
    /// IDs of the server records known of one record under a parent, in any zone, or of one of
    /// the user's own records, in any of their zones (more than one while the record moves
    /// between zones: a record under a parent when its chain changes owner, any of the user's
    /// records when its zone moves).
    func serverRecordIDs(recordType: String, recordName: String) throws -> [RecordID]
}
