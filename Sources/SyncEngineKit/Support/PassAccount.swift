import SyncCore
import SyncPorts
/// The account a pass works for, checked again before anything is written for it: before a pulled
/// page is applied, before a request uploads anything. A device can sign out, or another account
/// can sign in, while a pass waits on the network; what was fetched under one account is then
/// never applied to the other's store, and one account's changes are never uploaded into the
/// other's databases. The pass ends instead, and the next one handles the switch.
struct PassAccount: Sendable {
    /// The user record name the pass started with; nil when no account was signed in (only public
    /// catalogs are read then, which are the same for everyone).
    let user: String?
    let cloud: CloudRequests

    var isSignedIn: Bool { user != nil }

    /// Throws when the device's account is no longer the pass's.
    func verify() async throws(SyncError) {
        guard let user else { return }
        let current: String
        do {
            current = try await cloud.userRecordName()
        } catch .cloud(let error) where RecoveryPolicy.saysSignedOut(error) {
            throw Self.changed
        }
        guard current == user else { throw Self.changed }
    }

    /// What a pass that outlived its account ends with: the next pass handles the switch.
    static let changed = SyncError.cloud(CloudError(.notAuthenticated, "the iCloud account changed while the pass ran; nothing more was written for it"))
}
