import Foundation
import Observation
import SyncCore

/// A root's share that stays current, for a screen that lists who it is shared with: `share`
/// changes each time sync changes it (`SyncStore.observeShare(of:)`). On the main actor,
/// observable; read once at once; stops when released.
@MainActor @Observable
public final class LiveShare<Root: ShareableModel> {
    /// The share as sync last heard of it (nil: not shared, or not heard of yet).
    public private(set) var share: ShareRecord?
    /// Why the share stopped following the store: a read that failed. Nil while it follows.
    public private(set) var error: (any Error)?
    @ObservationIgnored private var following: FollowingTask?

    /// The share of `root`, kept current.
    public init(_ store: SyncStore, root: Root) {
        let updates = store.observeShare(of: root)
        do {
            share = try store.knownShare(of: root)
        } catch {
            self.error = error
        }
        following = .following(updates, apply: { [weak self] share in
            if self?.share != share { self?.share = share }
        }, failed: { [weak self] error in self?.error = error })
    }
}
