import Foundation
import SyncCore

/// The notices of changes the engine dropped (`LostChange`), kept in the transaction that drops
/// them until the app takes them.
/// One topic of ``StoreTransaction``.
package protocol LostChangeNotices: AnyObject {
    /// Keeps the notice of a change dropped in this transaction.
    func keepLostChange(_ event: SyncEvent, droppedAt: Date) throws
    /// Every notice kept, oldest first.
    func lostChanges() throws -> [LostChange]
    /// Forgets the notices up to and including `id`: the app has told the user of them.
    func forgetLostChanges(through id: Int64) throws
}
