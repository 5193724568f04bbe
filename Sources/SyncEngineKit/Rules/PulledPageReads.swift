import SyncCore
import SyncPorts

/// What a page of pulled records needs to know of the store, read once for the page: the
/// change tags of the versions kept, and which models are stored. It answers only what it
/// surely knows: a record already applied in the page (listed twice) is asked of the store.
struct PulledPageReads {
    private var tags: [RecordID: String?] = [:]
    private var stored: Set<RecordKey> = []
    private var applied: Set<RecordKey> = []
    /// False for reads of no page: every question goes to the store.
    private var isRead = false

    init() {}

    init(_ records: [SyncRecord], registry: ModelRegistry, in store: any StoredModels & ServerVersions) throws {
        for (zone, inZone) in Dictionary(grouping: records, by: \.id.zoneID) {
            for (name, tag) in try store.serverChangeTags(inZone.map(\.id.recordName), in: zone) {
                tags[RecordID(recordName: name, zoneID: zone)] = tag
            }
        }
        for (recordType, ofType) in Dictionary(grouping: records, by: \.recordType) {
            guard let type = registry.type(forRecordType: recordType) else { continue }
            for name in try store.storedNames(type: type, among: ofType.map(\.id.recordName)) { stored.insert(RecordKey(recordType, name)) }
        }
        isRead = true
    }

    /// Whether this device already holds this very version: the page began with its change tag
    /// kept and its model stored, and has not applied the record since (an echo of this
    /// device's own push). Nil when it cannot tell: the store is asked.
    func holdsThisVersion(_ record: SyncRecord) -> Bool? {
        let key = RecordKey(record.recordType, record.id.recordName)
        guard isRead, !applied.contains(key), let tag = record.changeTag else { return nil }
        return tags[record.id] == .some(tag) && stored.contains(key)
    }

    /// False when the page began without the model and has not applied it since; nil: ask.
    func isStored(_ record: SyncRecord) -> Bool? {
        let key = RecordKey(record.recordType, record.id.recordName)
        return !isRead || applied.contains(key) || stored.contains(key) ? nil : false
    }

    mutating func noteApplied(_ record: SyncRecord) {
        applied.insert(RecordKey(record.recordType, record.id.recordName))
    }
}
