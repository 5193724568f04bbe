import Foundation
import SyncCore

/// The store's history, as the push reads it: the app's changes after the committed token, and the
/// changes the engine queues again as the app's.
/// One topic of ``StoreTransaction``.
package protocol StoreHistory: AnyObject {
    /// Changes not made by the engine, after the committed history token, oldest first, at most
    /// `limit` history entries read, with the sequence number of the last entry read: the token to
    /// commit once they are pushed.
    func unpushedChanges(limit: Int?) throws -> (changes: [HistoryEntry], readThrough: Int64)
    /// Whether any change not made by the engine waits after the committed token (a full check,
    /// never judged from the last entry alone).
    func hasUnpushedChanges() throws -> Bool
    /// Whether the app changed this record and the change is not in the cloud yet: it waits in
    /// the history, or it was set aside. A pulled record is merged into such a model, never
    /// written over it.
    func hasLocalChange(recordType: String, recordName: String) throws -> Bool
    /// Every record `hasLocalChange` holds for, with the sequence number of the last history
    /// entry read: a pull reads them once, then only what the app writes later.
    func recordsWithLocalChanges() throws -> (records: Set<RecordKey>, readThrough: Int64)
    /// The records the app changed in history entries after `sequence`, and the last one read.
    func recordsChanged(after sequence: Int64) throws -> (records: Set<RecordKey>, readThrough: Int64)
    /// Commits the history token after a push, and prunes history nothing waits for.
    func commitHistoryToken(_ sequence: Int64) throws
    /// When no change of the app waits after the token, moves it past every entry there (the
    /// engine's own, which no push reads) and prunes them; returns whether none waits. One
    /// statement over the history's key: a big pull's backlog goes at once, not a page a pass.
    func commitHistoryTokenIfNothingWaits() throws -> Bool
    /// Records the app changed again as changes to push: a save of the model as it is, or its
    /// deletion when it is no longer stored (`ownerName` routes it).
    func requeue(recordType: String, recordName: String, ownerName: String) throws
    /// Forgets the app's changes of one record that wait in the history, not pushed yet (a
    /// change the app takes back); the engine's entries stay. Returns whether any waited.
    func dropUnpushedChanges(recordType: String, recordName: String) throws -> Bool
    /// Forgets the app's entries of these records after the token, up to `sequence`: a push
    /// round cut short settled them (their changes up to there are in the cloud, or set aside),
    /// and the round is read again. Later entries, and the engine's, stay.
    func forgetPushedChanges(of records: Set<RecordKey>, through sequence: Int64) throws
    /// Queues the deletion of a record from the zone `ownerName` routes to, as a change of the
    /// app, whether or not a model of that name is stored (a copy left in a zone its model moved
    /// out of).
    func queueDeletion(recordType: String, recordName: String, ownerName: String) throws
}
