import Foundation
import SyncCore

/// The app's models as records: what a push uploads, what a pull applies, and where a model sits
/// (its owner, its parent, its children).
/// One topic of ``StoreTransaction``.
package protocol StoredModels: AnyObject {
    /// A stored model, as the record it would upload (every field its type uploads), or nil.
    func uploadRecord(type: any SyncModel.Type, recordName: String, routes: ZoneRoutes) throws -> SyncRecord?
    /// The stored models of these names, each as `uploadRecord` gives it, by name, in one read:
    /// a name not stored has none.
    func uploadRecords(type: any SyncModel.Type, recordNames: [String], routes: ZoneRoutes) throws -> [String: SyncRecord]
    /// Applies a pulled record to the stored model (created if missing), as the engine: local-only
    /// fields are kept. Returns the references (the parent included) whose targets are not stored.
    func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey]
    /// `applyPulled` for a record the caller knows is not stored: nothing is read first.
    func insertPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey]
    /// Which of these names are stored as models of the type, in one read.
    func storedNames(type: any SyncModel.Type, among names: [String]) throws -> Set<String>
    /// Deletes a stored model and the records under it (`SyncModel.childTypes`) as the engine.
    /// Returns what was deleted, children first, the model itself last (nothing if missing).
    @discardableResult
    func deletePulled(type: any SyncModel.Type, recordName: String) throws -> [RecordKey]
    /// Rewrites a stored model's owner (and so its zone), as the engine.
    func setOwner(_ ownerName: String, type: any SyncModel.Type, recordName: String) throws
    /// Names of the stored models of a type whose owner is `ownerName` (nil: any owner).
    func recordNames(type: any SyncModel.Type, ownerName: String?) throws -> [String]
    /// Whether a model of this type is stored under this record name.
    func isStored(type: any SyncModel.Type, recordName: String) throws -> Bool
    /// Whether a model of the key's type is stored under its name (a reference's target).
    func isStored(_ key: RecordKey) throws -> Bool
    /// The stored parent and owner of a model.
    func parentAndOwner(type: any SyncModel.Type, recordName: String) throws -> (parent: String?, owner: String)?
    /// Names of the stored models of `type` whose parent is `parentRecordName`.
    func childNames(type: any SyncModel.Type, parentRecordName: String) throws -> [String]
    /// Saves a copy of a stored model as the app's change, checked as the app's saves are: named
    /// `copyName`, owned by `ownerName`, with its parent and references renamed by `names` (a
    /// target not in it keeps its name). Returns the name the copy is stored under: `copyName`,
    /// or the record of that owner whose natural key the copy repeats (that record is the copy,
    /// kept as it is); nil when the model is not stored.
    func saveCopy(type: any SyncModel.Type, recordName: String, as copyName: String, ownerName: String, renaming names: [String: String]) throws -> String?
}
