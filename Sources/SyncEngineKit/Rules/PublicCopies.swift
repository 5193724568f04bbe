import Foundation
import SyncCore
import SyncPorts

/// This device's copies of records it does not mirror: a server query's page, or a record read by
/// name, kept (of a catalog, or a zone of the user's, the device does not mirror), evicted by the
/// app's `ResultRetention`; and public records forgotten when a mirrored catalog no longer has
/// them. A copy is forgotten as the cloud's deletion is applied, by sync: nothing goes up, and
/// its known server version goes with it.
struct PublicCopies {
    typealias Topics = CloudVersionArrival.Topics & KeptResults

    let context: SyncContext

    /// Keeps `records` (a page's, each read as a model of `type`) in the store, each as a cloud
    /// version arriving (a record this device changed is merged, not overwritten), dated `now`;
    /// then evicts the type's kept copies beyond `retention`, but never one of this page, one the
    /// app follows by name (`FollowedRecord`), or one with a change of this device's still to go
    /// up.
    func keep(_ records: [SyncRecord], as type: any SyncModel.Type, from zone: ZoneID, retention: ResultRetention, now: Date, in store: any Topics) throws {
        for record in records where try !CloudVersionArrival.holds(record, type: type, in: store) {
            _ = try CloudVersionArrival(context: context).apply(record, as: type, in: store)
        }
        let kept = records.map(\.id.recordName)
        try store.noteKept(recordType: type.recordType, recordNames: kept, at: now)
        let keptNow = Set(kept)
        let candidates = try store.keptToEvict(
            recordType: type.recordType, keptBefore: retention.maximumAge.map { now.addingTimeInterval(-$0) }, keeping: retention.maximumCount)
        var evicted: [String] = []
        let followed = Set(context.registry.followedRecords.lazy.filter { $0.recordType == type.recordType }.map(\.recordName))
        for name in candidates where !keptNow.contains(name) && !followed.contains(name) {
            guard try !store.hasLocalChange(recordType: type.recordType, recordName: name) else { continue }
            try Self.forget(type: type, recordName: name, in: zone, store: store)
            evicted.append(name)
        }
        try store.forgetKept(recordType: type.recordType, recordNames: evicted)
    }

    /// A change of another user's public record, refused (not this user's to make), given up for
    /// the cloud's state. In a catalog this device mirrors, the server's version is forgotten and
    /// the catalog asked for: the next pass restores the record. A kept result of a server query,
    /// which no pass reads, is put back at once as it was kept, or forgotten when that version is
    /// not known.
    func restore(_ type: any SyncModel.Type, recordName: String, in store: any CloudVersionArrival.Topics & EngineState) throws {
        let id = RecordID(recordName: recordName, zoneID: SyncConstants.publicZone)
        if context.registry.isMirrored(type) {
            try store.removeServerRecord(id)
            try CatalogRefresh.request([.catalog(type.recordType)], in: store)
        } else if let kept = try store.serverRecord(id) {
            try CloudVersionArrival(context: context).replace(kept, as: type, in: store)
        } else {
            try Self.forget(type: type, recordName: recordName, store: store)
        }
    }

    /// Forgets this device's copy of a record (a public one by default), as a deletion the cloud
    /// made.
    static func forget(type: any SyncModel.Type, recordName: String, in zone: ZoneID = SyncConstants.publicZone, store: any StoredModels & ServerVersions) throws {
        try store.removeServerRecord(RecordID(recordName: recordName, zoneID: zone))
        _ = try store.deletePulled(type: type, recordName: recordName)
    }
}
