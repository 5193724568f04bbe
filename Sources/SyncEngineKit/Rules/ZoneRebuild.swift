import Foundation
import SyncCore
import SyncPorts

/// A private zone the cloud no longer has (another client deleted it, the user reset their
/// encrypted data, a save found it missing, or the user wants back what they deleted in
/// Settings): what the server knew of it is void, and every local record of it goes up again.
///
/// The upload is queued as ordinary changes, in the transaction that learns of the loss: a push
/// that fails or is cut off halfway leaves the rest queued for the next one, a sign-out parks
/// them with the account's other unpushed changes, and nothing depends on a pass running to its
/// end. (Kept only in memory, a pass that failed after the loss was learned forgot the zone, and
/// records nobody edited again never went back up.)
enum ZoneRebuild {
    /// `types`: the models whose records live in `zone` (`SyncContext.zonedTypes(in:)`).
    /// A zone whose records moved into another (``ZoneMoves``) holds no type's records any more,
    /// but may hold copies of records a move has not moved yet: each goes up again, to the zone
    /// it moved into, so none is left with no copy in the cloud.
    static func queueEverything(of zone: ZoneID, types: [any SyncModel.Type], in store: any StoredModels & ServerVersions & StoreHistory & EngineState) throws {
        try store.setState(SyncStateKeys.zoneToken(zone, .private), nil)
        let moved = try store.state(SyncStateKeys.zoneMoved(zone, .private)) != nil
        for id in try store.serverRecordIDs(inZone: zone) {
            if moved, let copy = try store.serverRecord(id) {
                try store.requeue(recordType: copy.recordType, recordName: id.recordName, ownerName: zone.ownerName)
            }
            try store.removeServerRecord(id)
        }
        for type in types {
            for name in try store.recordNames(type: type, ownerName: zone.ownerName) {
                try store.requeue(recordType: type.recordType, recordName: name, ownerName: zone.ownerName)
            }
        }
    }
}
