import SyncCore

/// The share an owner's call manages: a root's (with the hierarchy under it), or the whole zone's.
struct ShareSubject: CustomStringConvertible {
    /// The share record's ID.
    let id: RecordID
    /// The shared root; nil for a zone-wide share.
    let rootRecordName: String?

    /// A share the cloud returned.
    init(_ share: ShareRecord) {
        self.init(id: share.id, rootRecordName: share.rootRecordName)
    }

    init(id: RecordID, rootRecordName: String?) {
        self.id = id
        self.rootRecordName = rootRecordName
    }

    var description: String {
        if let rootRecordName { return "the share of \(rootRecordName)" }
        return ShareRecord.isZoneWide(id) ? "the share of zone \(id.zoneID.zoneName)" : "share \(id.recordName)"
    }
}
