import Foundation
import SyncCore
import SyncPorts

// MARK: - Changes the cloud refused

extension SyncEngine {
    /// Changes the cloud refused for good (`SyncEvent.changeSetAside`), by record type and name.
    /// Each stays in its model until the app retries or reverts it; editing the record again
    /// sends it again.
    public func failedChanges() throws(SyncError) -> [FailedChange] {
        try FailedChangesPhase(context: context).list()
    }

    /// The change set aside for one record, if any: what a "failed" badge shows.
    public func failedChange<Model: SyncModel>(for type: Model.Type, recordName: String) throws(SyncError) -> FailedChange? {
        try FailedChangesPhase(context: context).change(recordType: type.recordType, recordName: recordName)
    }

    /// Sends a set-aside change again, as the model now is (after the app fixed what the cloud
    /// refused, or once the user has the permission), with the next pass.
    public func retryFailedChange<Model: SyncModel>(for type: Model.Type, recordName: String) throws(SyncError) {
        try FailedChangesPhase(context: context).retry(recordType: type.recordType, recordName: recordName)
    }

    /// Takes back a change of this record that waits to be pushed (an edit, a creation, a
    /// deletion the user regrets): the record becomes the version the cloud last returned to this
    /// device, or goes when the cloud never had it; nothing is sent. A change that may be on its
    /// way (a push is running, or a request that carried it got no answer) cannot be taken back:
    /// the answer says so (`WaitingChangeDrop.inFlight`). Works offline. The records under a
    /// parent keep their own changes.
    @discardableResult
    public func dropWaitingChange<Model: SyncModel>(for type: Model.Type, recordName: String) throws(SyncError) -> WaitingChangeDrop {
        // An actor method with no suspension: no pass starts while it runs.
        guard !isPushing else { return .inFlight }
        return try context.transaction { store in try ChangeGivenUp(context: context).dropWaiting(type, recordName: recordName, in: store) }
    }

    /// Gives up a set-aside change: the record becomes what the cloud has (fetched now), or goes
    /// when the cloud never had it.
    public func revertFailedChange<Model: SyncModel>(for type: Model.Type, recordName: String) async throws(SyncError) {
        try await FailedChangesPhase(context: context).revert(type, recordName: recordName)
    }
}

// MARK: - Changes the engine dropped

extension SyncEngine {
    /// The changes of this device the engine dropped and the app has not acknowledged
    /// (`LostChange`), oldest first: a parent's deletion took them, another device deleted the
    /// record first, the cloud refused them as not this user's, or their share ended. Each was
    /// published as its event too; read these at launch, since a process killed right after a
    /// pass may never have handled the event.
    public func lostChanges() throws(SyncError) -> [LostChange] {
        try context.transaction { try $0.lostChanges() }
    }

    /// The app has told the user of the lost changes up to and including `id`: they are no
    /// longer kept.
    public func acknowledgeLostChanges(through id: LostChange.ID) throws(SyncError) {
        try context.transaction { try $0.forgetLostChanges(through: id) }
    }
}

// MARK: - Records the cloud could not deliver

extension SyncEngine {
    /// Records the cloud listed as changed but could not deliver (`UnreadableRecord`): the ones
    /// still fetched again at each pass, and the ones set aside after failing
    /// (`SyncEvent.recordUnreadable`). Their zones sync on without them.
    public func unreadableRecords() throws(SyncError) -> [UnreadableRecord] {
        try context.transaction { try UnreadableRecords.all(in: $0) }
    }

    /// Asks for the records set aside again: the next pass fetches each by name (after the app
    /// was updated to read them, or the cloud recovered).
    public func retryUnreadableRecords() throws(SyncError) {
        try context.transaction { try UnreadableRecords.retrySetAside(in: $0) }
    }
}

// MARK: - Accounts

extension SyncEngine {
    /// Unpushed changes kept for accounts that signed out (`SyncEvent.changesParked`). They come
    /// back when that account signs in on this device again.
    public func parkedChanges() throws(SyncError) -> [ParkedChanges] {
        try AccountPhase(context: context).parkedChanges()
    }

    /// Forgets the changes an account parked, and the files they would have uploaded.
    public func discardParkedChanges(of userRecordName: String) throws(SyncError) {
        try AccountPhase(context: context).discardParked(of: userRecordName)
    }
}

// MARK: - The user's data in the cloud

extension SyncEngine {
    /// Private zones the user deleted in Settings (`SyncEvent.userDeletedZone`): their local data
    /// is kept, and nothing of them is uploaded, until the app decides.
    public func userDeletedZones() throws(SyncError) -> [ZoneID] {
        try CloudDataPhase(context: context, account: try storeAccount()).userDeletedZones()
    }

    /// The user wants their data back after deleting it in Settings: the zones are created again
    /// and every local record of them is uploaded as it now is.
    public func uploadAgainAfterUserDeletedZone() async throws(SyncError) {
        let account = try signedInAccount()
        try await CloudDataPhase(context: context, account: account).queueUploadAgain()
        isPushing = true
        defer { isPushing = false }
        let outcome = try await PushPhase(context: context, account: account).execute()
        if let failure = outcome.failures.values.first { throw .cloud(failure) }
    }

    /// Uploads every model of the private and shared types that the cloud has no version of: a
    /// store filled before the app turned sync on, at any time after construction (or at setup:
    /// `SyncConfiguration.uploadEverythingOnSetup`). The models are queued as ordinary changes, then
    /// a pass runs: the push sends them in bounded rounds, parents first, each into its own
    /// database, and what a failed or cut-off pass did not send stays queued for the next. A model
    /// the cloud has already is not sent again, so calling this again costs only the reading.
    /// Returns how many models were queued; throws the pass's failure.
    @discardableResult
    public func uploadEverything() async throws(SyncError) -> Int {
        let queued = try context.transaction { store in try FullUpload.queue(types: context.registry.zonedTypes, in: store) }
        if case .failed(let error, _) = await sync() { throw error }
        return queued
    }

    /// The user meant the deletion (Apple's guidance for data deleted in Settings): this device's
    /// copy goes too, and what the app writes from now on syncs into a new, empty zone.
    public func removeLocalDataOfUserDeletedZone() async throws(SyncError) {
        try await CloudDataPhase(context: context, account: try signedInAccount()).removeLocalData()
    }

    /// Deletes all of the user's data in the cloud: every record of their sync zone (with the
    /// shares in it) and every public record they created. Then a pass brings the deletions here;
    /// the user's other devices drop their copies when they next sync. A change made before the
    /// deletion and not uploaded yet follows the usual rule: an edit of a deleted record loses to
    /// the deletion; a record created and never uploaded is kept, and uploads afterwards. Returns
    /// how many records were deleted.
    @discardableResult
    public func deleteAllCloudData() async throws(SyncError) -> Int {
        let deleted = try await CloudDataPhase(context: context, account: try signedInAccount()).deleteAll()
        if case .failed(let error, _) = await sync() { throw error }
        return deleted
    }
}
