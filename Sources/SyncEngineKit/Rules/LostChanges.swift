import SyncCore
import SyncPorts

/// Announcing a change the engine drops: the notice is kept by the transaction that drops the
/// change, then the event is published. A process killed between that commit and the app's
/// handler still has the notice after a restart (`SyncEngine.lostChanges()`), so no acknowledged
/// write leaves the device without something that names it, kill -9 included.
struct LostChanges {
    let context: SyncContext

    /// The store topic this rule writes.
    typealias Topics = LostChangeNotices

    /// Keeps the notice of `event` when it names a dropped change (`LostChange.isLoss`), and
    /// publishes it.
    func announce(_ event: SyncEvent, in store: any Topics) throws {
        if LostChange.isLoss(event) { try store.keepLostChange(event, droppedAt: context.clock.now) }
        context.events.publish(event)
    }
}
