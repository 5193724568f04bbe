import Foundation
import SyncCore

/// Natural keys: the records to check, the duplicates of one, and the merges this device made or
/// waits to make (a copy waiting for its mark in the cloud).
/// One topic of ``StoreTransaction``.
package protocol NaturalKeyMerges: AnyObject {
    /// Makes the model's table meet the model (its columns and indexes grown to the schema): a
    /// natural key new to the table marks the records it holds for a check.
    func prepareTable(for type: any SyncModel.Type) throws
    /// Records whose natural keys are to be checked: pulled since the last check, or held when a
    /// key was new to their table.
    func naturalKeyChecks() throws -> [RecordKey]
    /// Done with these checks.
    func clearNaturalKeyChecks(_ keys: [RecordKey]) throws
    /// The record's owner, and for each of its type's keys the names of the stored records of
    /// that owner sharing it (the record's own name included, sorted), where more than one does;
    /// nil for a record not stored.
    func duplicates(of recordName: String, type: any SyncModel.Type) throws -> (owner: String, groups: [[String]])?
    /// Notes that `name` was merged into `survivor` (and so are the records merged into `name`
    /// before; `survivor` itself, if it was one of them, is a copy no more); `retiring`: not
    /// yet, the copy waits for its mark in the cloud to land first.
    func noteMergedAway(type: any SyncModel.Type, name: String, into survivor: String, retiring: Bool) throws
    /// The copies waiting for their mark, with their survivors, by survivor.
    func retirements() throws -> [(recordType: String, recordName: String, survivor: String)]
    /// Whether the copy waits for its mark.
    func isRetiring(type: any SyncModel.Type, recordName: String) throws -> Bool
    /// The copy waits no more (its survivor or itself is gone, or another device marked it); it
    /// is checked again after the next pull.
    func forgetRetirement(recordType: String, recordName: String) throws
    /// The record `name` was merged into on this device, if it was (not while it waits).
    func survivor(ofMergedAway name: String, type: any SyncModel.Type) throws -> String?
    /// Names of the stored models of `type` whose reference field `field` (a reference, or a list
    /// of them) points at any of `targets`.
    func recordsReferencing(_ targets: [String], type: any SyncModel.Type, field: String) throws -> [String]
}
