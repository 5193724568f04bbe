import Foundation
import SyncCore
import SyncPorts

/// Whose data the store holds, and what happens when that changes.
///
/// The store belongs to one account at a time. When the account signs out, or another signs in,
/// the previous account's unpushed changes (waiting or set aside, with the files they still owe
/// the cloud) are parked for it, and everything else of it is removed: none of it is ever shown
/// to, or uploaded into, another account. When that account signs in again, its parked changes
/// come back as changes to push, merged with what the cloud has by then. Changes made while no
/// account was signed in belong to the next account that signs in.
struct AccountPhase {
    let context: SyncContext

    /// What the account check found.
    enum Check {
        /// The account to sync for; `switched` when the store just became its (its parked
        /// entries back, for the asset phase to name their fields: ``EarlierAssetEntries``).
        case signedIn(String, switched: Bool)
        /// No usable account; only public catalogs can be read.
        case unavailable(AccountStatus)
    }

    /// Checks the account at the start of a pass; on a change, parks and removes the previous
    /// account's data, and restores what the new account parked.
    func check() async throws(SyncError) -> Check {
        let status = try await context.cloud.accountStatus()
        let known = try context.transaction { try $0.state(SyncStateKeys.account) }
        guard status == .available else {
            // Restricted or temporarily unavailable is not signed out: the data stays.
            if status == .noAccount, let known {
                try switchAccount(from: known, to: nil)
            }
            context.events.publish(.accountUnavailable(status))
            return .unavailable(status)
        }
        let user = try await context.cloud.userRecordName()
        if known != user {
            try switchAccount(from: known, to: user)
        }
        return .signedIn(user, switched: known != user)
    }

    /// The store goes from `old`'s data to `new`'s: `old`'s unpushed changes are parked and the
    /// rest of its data removed, `new`'s parked changes restored, in one transaction. Files move
    /// around it in steps that can be repeated, so a crash at any point resumes cleanly (see
    /// `recoverParkedFiles`).
    private func switchAccount(from old: String?, to new: String?) throws(SyncError) {
        let files = try? context.assetFiles.get()
        if let old, let files {
            // The files first: parking is repeated harmlessly if the transaction never commits.
            let owed = try context.transaction { try $0.assetEntries(in: [.local, .upload, .uploading]) }
            for entry in owed { try moveFile { try files.park(entry.key, suffix: entry.suffix, for: old) } }
        }
        let (parked, restored) = try context.transaction { store in
            let parked = try old.map { try store.parkAndPurge(account: $0) }
            try store.setState(SyncStateKeys.account, new)
            let restored = try new.map { try store.restoreParked(account: $0) }
            return (parked, restored)
        }
        if let files {
            if old != nil { try moveFile { try files.removeAll() } }
            if let new {
                for entry in restored?.assets ?? [] { try moveFile { try files.unpark(entry.key, suffix: entry.suffix, for: new) } }
            }
        }
        if let change = AccountChange(from: old, to: new) { context.events.publish(.accountChanged(change)) }
        if let old {
            if let parked, parked.count > 0 {
                context.events.publish(.changesParked(ParkedChanges(userRecordName: old, count: parked.count)))
            }
        }
        if let restored, restored.count > 0 {
            context.events.publish(.parkedChangesRestored(count: restored.count))
        }
    }

    /// Files an account's restored changes still owe the cloud, left in its parking by a crash
    /// between the restore and the move: moved into place. Run once per engine, before transfers.
    func recoverParkedFiles() throws(SyncError) {
        guard case .success(let files) = context.assetFiles,
            let user = try context.transaction({ try $0.state(SyncStateKeys.account) })
        else { return }
        for entry in try context.transaction({ try $0.assetEntries(in: [.local, .upload, .uploading]) }) where !files.fileExists(for: entry.key, suffix: entry.suffix) {
            try moveFile { try files.unpark(entry.key, suffix: entry.suffix, for: user) }
        }
    }

    /// Accounts with parked changes.
    func parkedChanges() throws(SyncError) -> [ParkedChanges] {
        try context.transaction { try $0.parkedChanges() }
    }

    /// Forgets an account's parked changes, and their files.
    func discardParked(of userRecordName: String) throws(SyncError) {
        _ = try context.transaction { try $0.discardParked(account: userRecordName) }
        if case .success(let files) = context.assetFiles {
            try moveFile { try files.removeParked(for: userRecordName) }
        }
    }

    private func moveFile(_ body: () throws -> Void) throws(SyncError) {
        do {
            try body()
        } catch {
            throw .assetFiles(.cacheFiles("a file could not be moved: \(error)"))
        }
    }
}
