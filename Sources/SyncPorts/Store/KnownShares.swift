import Foundation
import SyncCore

/// The shares this user has, as the cloud last returned them: the owner's own, and those others
/// shared with them, each with the permission it gives this user (`currentUserParticipant`).
/// What an app reads of a share offline, and what the store checks a write of a shared record
/// against. One topic of ``StoreTransaction``.
package protocol KnownShares: AnyObject {
    /// Keeps a share as the cloud returned it, over the one kept under its ID.
    func keepShare(_ share: ShareRecord) throws
    /// Forgets the share of that ID (stopped, left, or deleted in the cloud).
    func forgetShare(_ id: RecordID) throws
    /// Forgets every share of a zone (the zone went away, or this user lost access to it).
    func forgetShares(inZone zone: ZoneID) throws
    /// Whether a share of the zone, or of a record in it, is kept.
    func keepsShares(inZone zone: ZoneID) throws -> Bool
}
