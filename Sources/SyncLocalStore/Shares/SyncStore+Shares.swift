import Foundation
import SyncCore

extension SyncStore {
    /// The root's share as sync last heard of it, read offline: its participants (who accepted,
    /// who is pending, who left), its link and public permission, and `currentUserParticipant`,
    /// what it lets this user do. Nil when the root is not shared, or no pass has brought its
    /// share yet. The owner's share is brought by `SyncEngine.share`, the share management calls
    /// and each pass; a participant's by each pass after accepting. `SyncEngine.share(of:)` asks
    /// the cloud instead.
    public func knownShare<Root: ShareableModel>(of root: Root) throws -> ShareRecord? {
        try sqliteReading { try $0.keptShare(ofRoot: root.recordName, ownerName: root.ownerName) }
    }

    /// The root's share at once, and again each time sync changes it (someone accepts, leaves or
    /// is removed, a permission or the link changes, sharing stops): `knownShare(of:)` followed,
    /// for a screen that lists the people of a share. The stream ends with the store's error if a
    /// read fails.
    public func observeShare<Root: ShareableModel>(of root: Root) -> AsyncThrowingStream<ShareRecord?, any Error> {
        observeWrites { store in try store.knownShare(of: root) }
    }
}
