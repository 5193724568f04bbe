import Foundation
import SyncCore
import SyncPorts

/// A store filled before sync was turned on (or by a path that wrote as the engine): its models
/// go up as they are (`SyncEngine.uploadEverything()`, `SyncConfiguration.uploadEverythingOnSetup`).
///
/// Each model of the private and shared types the cloud has no version of is queued as an
/// ordinary change, in the caller's transaction: the push sends them as it sends any change, in
/// bounded rounds, parents first, each into its own database, and a kill or a failed pass leaves
/// the rest queued for the next. A model the cloud has a version of is there already and is not
/// sent again, nor is one whose change waits already, so asking again costs only the reading.
enum FullUpload {
    /// Queues the models of `types` (the private and shared ones) the cloud lacks; returns how
    /// many.
    static func queue(types: [any SyncModel.Type], in store: any StoredModels & ServerVersions & StoreHistory) throws -> Int {
        var queued = 0
        for type in types {
            for name in try store.recordNames(type: type, ownerName: nil) {
                guard try store.serverRecordIDs(recordType: type.recordType, recordName: name).isEmpty,
                    try !store.hasLocalChange(recordType: type.recordType, recordName: name),
                    let stored = try store.parentAndOwner(type: type, recordName: name)
                else { continue }
                try store.requeue(recordType: type.recordType, recordName: name, ownerName: stored.owner)
                queued += 1
            }
        }
        return queued
    }
}
