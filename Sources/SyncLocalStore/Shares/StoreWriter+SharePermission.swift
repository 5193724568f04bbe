import Foundation
import SyncCore

extension StoreWriter {
    /// Throws ``ReadOnlyShareRefusal`` when the app changes a record of someone else's that the
    /// share giving it lets this user only read. The app's own records, and records whose share
    /// the store has not heard of, are not checked.
    func refuseReadOnlyShare<Model: SyncModel>(_ model: Model, _ kind: ChangeKind) throws {
        guard let owner = try sharedOwner(of: model),
            let share = try shareRecords.coveringShare(recordName: model.recordName, parent: model.parentRecordName, ownerName: owner),
            let permission = share.currentUserParticipant?.permission, permission != .readWrite
        else { return }
        throw ReadOnlyShareRefusal(
            recordType: Model.recordType, recordName: model.recordName, kind: kind, shareID: share.id, shareTitle: share.title, permission: permission)
    }

    /// The owner of someone else's zone the record goes to, or nil for the user's own. A record
    /// under a parent goes to its parent's zone whatever owner it names (the push's rule,
    /// `ParentChain`), read here one level up: a new item under a shared list goes to the
    /// list's owner.
    private func sharedOwner<Model: SyncModel>(of model: Model) throws -> String? {
        if model.resolvedScope == .shared { return model.ownerName }
        guard let parentType = Model.parentRecordType, let parent = model.parentRecordName,
            let owner = try shareRecords.parentAndOwner(recordType: parentType, recordName: parent)?.owner,
            DatabaseScope.resolve(scopes: Model.syncScopes, ownerName: owner) == .shared
        else { return nil }
        return owner
    }

    /// This transaction as the engine reads it, for the share records and parents the check
    /// reads: made only for a record that may be someone else's, since most saves need none.
    private var shareRecords: SQLiteStoreTransaction {
        SQLiteStoreTransaction(database: database, now: now, changes: changes)
    }
}
