import Foundation
import SyncCore

/// An account's unpushed changes parked while another account is signed in, and the purge that
/// leaves a device with nothing of an account.
/// One topic of ``StoreTransaction``.
package protocol AccountParking: AnyObject {
    /// Moves every unpushed change (waiting or set aside) of the signed-in account out of reach,
    /// with the model as it is, the last server version it was based on, a file still to upload,
    /// and, as remote, the entry of a file the cloud holds; then removes every model and every
    /// piece of sync state. Returns the entries of the files parked with them (their files are
    /// the caller's to move).
    func parkAndPurge(account: String) throws -> (count: Int, assets: [AssetCacheEntry])
    /// Puts an account's parked changes back as changes to push. Returns how many, and the asset
    /// entries whose files are to be moved back.
    func restoreParked(account: String) throws -> (count: Int, assets: [AssetCacheEntry])
    /// Accounts with parked changes, and how many.
    func parkedChanges() throws -> [ParkedChanges]
    /// Forgets an account's parked changes; returns the asset entries whose files are to go.
    func discardParked(account: String) throws -> [AssetCacheEntry]
    /// Removes every model and every piece of sync state (parked changes stay).
    func purgeEverything() throws
}

/// The key under which the store's sync state names the signed-in user its data belongs to: the
/// engine's (`SyncStateKeys.account`), and what a store rebuilt from a damaged file carries over
/// with the changes it salvaged, so they are parked, not pushed, when another account signed in.
package enum SignedInAccountKey {
    package static let stateKey = "account.user"
}
