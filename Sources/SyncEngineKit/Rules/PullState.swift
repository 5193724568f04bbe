import Foundation
import SyncCore
import SyncPorts

/// What a pull collects as it goes, from one page's transaction to the next: what the app changed
/// meanwhile, what the pages pointed at that is not stored, the orphans, the records kept as
/// unreadable, and the zones to rebuild.
struct PullState {
    /// The models the app changed that the cloud does not have yet.
    var localChanges: LocalChanges
    /// References whose target is not stored: where to look (the ID names the zone), in
    /// which database, and the record type the reference names.
    var missing: [RecordID: MissingTarget] = [:]
    /// Records of the user's own zones pulled under a parent this device does not store: if
    /// the cloud has no such parent either, they follow it (`ParentChain.follow`).
    var orphans: [RecordID: [RecordKey]] = [:]
    /// The records kept as unreadable (``UnreadableRecords``): a version or deletion of one that
    /// arrives ends it.
    var unreadable: Set<RecordID> = []
    /// Private zones gone from the cloud, their records already queued to go up again.
    var zonesToRebuild: [ZoneID] = []

    /// A private zone whose local records are to be uploaded again, once.
    mutating func rebuild(_ zone: ZoneID?) {
        if let zone, !zonesToRebuild.contains(zone) { zonesToRebuild.append(zone) }
    }

    /// Records a page could not deliver, kept to be fetched again by name (``UnreadableRecords``).
    mutating func noteUnreadable(_ records: [RecordID: CloudError], at now: Date, in store: any EngineState) throws {
        for (id, error) in records.sorted(by: { $0.key.recordName < $1.key.recordName }) {
            try UnreadableRecords.note(id, error, at: now, in: store)
            unreadable.insert(id)
        }
    }

    /// A version or deletion of a record kept as unreadable arrived: it is readable again.
    mutating func forgetUnreadable(_ id: RecordID, in store: any EngineState) throws {
        guard unreadable.remove(id) != nil else { return }
        try UnreadableRecords.forget(id, in: store)
    }

    /// A reference target a page pointed at that is not stored: which database to look in,
    /// and the record type the reference names.
    struct MissingTarget: Sendable {
        var scope: DatabaseScope
        var recordType: String
    }

    /// The models with a change of the app not in the cloud yet, read once per pull and brought
    /// up to date at each page's transaction with what the app wrote meanwhile: a pulled record
    /// is merged into such a model, never written over it, and a local copy of it is never
    /// dropped by a catalog's reconciliation. Costs the changes, not the store.
    struct LocalChanges {
        private var records: Set<RecordKey>
        private var readThrough: Int64

        init(in store: any StoreHistory) throws {
            (records, readThrough) = try store.recordsWithLocalChanges()
        }

        /// Takes in what the app wrote since the last look, inside the page's transaction.
        mutating func refresh(in store: any StoreHistory) throws {
            let later = try store.recordsChanged(after: readThrough)
            records.formUnion(later.records)
            readThrough = later.readThrough
        }

        func contains(_ recordType: String, _ recordName: String) -> Bool {
            records.contains(RecordKey(recordType, recordName))
        }
    }
}
