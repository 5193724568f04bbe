import Foundation

/// A change of this device the engine dropped, kept until the app takes it: the deletion of a
/// parent took it (`SyncEvent.removedWithParent`), another device deleted the record first
/// (`.changeLostToDeletion`), the cloud refused it as not this user's to make
/// (`.changeReverted`), or the share it was made in ended (`.shareEnded` with `lostChanges`).
///
/// The event is published as it happens, and the notice is kept in the store by the transaction
/// that drops the change: a process killed before the app heard the event still has it after a
/// restart (`SyncEngine.lostChanges()`), until the app says it has told the user
/// (`SyncEngine.acknowledgeLostChanges(through:)`).
public struct LostChange: Sendable, Hashable, Identifiable {
    /// Its place among the notices kept, in the order the changes were dropped.
    public let id: Int64
    /// What happened: one of the four events above.
    public let event: SyncEvent
    /// When the engine dropped the change (the engine's clock).
    public let droppedAt: Date

    /// A kept notice.
    public init(id: Int64, event: SyncEvent, droppedAt: Date) {
        self.id = id
        self.event = event
        self.droppedAt = droppedAt
    }

    /// Whether the event names a change dropped, and so is kept: a share that ended with no
    /// change of this device's is only an event.
    public static func isLoss(_ event: SyncEvent) -> Bool {
        switch event {
        case .removedWithParent, .changeLostToDeletion, .changeReverted: true
        case .shareEnded(_, _, let lostChanges): !lostChanges.isEmpty
        default: false
        }
    }
}
