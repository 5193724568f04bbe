import Foundation
import SyncCore
import SyncPorts

/// This device's copies of public records: a server query's page kept (over a catalog the device
/// does not mirror), evicted by the app's `ResultRetention`, or forgotten when a mirrored
/// catalog no longer has them. A copy is forgotten as the cloud's deletion is applied, by sync:
/// nothing goes up, and its known server version goes with it.
struct PublicCopies {
    typealias Topics = CloudVersionArrival.Topics & KeptResults

    let context: SyncContext

    /// Keeps `records` (a page's, each read as a model of `type`) in the store, each as a cloud
    /// version arriving (a record this device changed is merged, not overwritten), dated `now`;
    /// then evicts the type's kept copies beyond `retention`, but never one of this page or one
    /// with a change of this device's still to go up.
    func keep(_ records: [SyncRecord], as type: any SyncModel.Type, retention: ResultRetention, now: Date, in store: any Topics) throws {
        for record in records where try !CloudVersionArrival.holds(record, type: type, in: store) {
            _ = try CloudVersionArrival(context: context).apply(record, as: type, in: store)
        }
        let kept = records.map(\.id.recordName)
        try store.noteKept(recordType: type.recordType, recordNames: kept, at: now)
        let keptNow = Set(kept)
        let candidates = try store.keptToEvict(
            recordType: type.recordType, keptBefore: retention.maximumAge.map { now.addingTimeInterval(-$0) }, keeping: retention.maximumCount)
        var evicted: [String] = []
        for name in candidates where !keptNow.contains(name) {
            guard try !store.hasLocalChange(recordType: type.recordType, recordName: name) else { continue }
            try Self.forget(type: type, recordName: name, in: store)
            evicted.append(name)
        }
        try store.forgetKept(recordType: type.recordType, recordNames: evicted)
    }

    /// Forgets this device's copy of a public record, as a deletion the cloud made.
    static func forget(type: any SyncModel.Type, recordName: String, in store: any StoredModels & ServerVersions) throws {
        try store.removeServerRecord(RecordID(recordName: recordName, zoneID: SyncConstants.publicZone))
        _ = try store.deletePulled(type: type, recordName: recordName)
    }
}
