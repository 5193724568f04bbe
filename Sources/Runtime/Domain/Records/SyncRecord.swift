import Foundation

/// A record as it travels between the local store and the cloud: the shape of a CKRecord, without
/// CloudKit.
public struct SyncRecord: Hashable, Sendable, CustomStringConvertible {
    public var recordType: String
    public var id: RecordID
    public var fields: [String: SyncFieldValue]
    /// Values CloudKit stores end-to-end encrypted.
    public var encryptedFields: [String: SyncFieldValue]
    /// The name of the CKRecord.parent (action none). A parent always lives in its child's zone,
    /// so moving a record to another zone moves its parent reference with it.
    public var parentRecordName: String?
    /// The server's version of the record; nil for a record the server has not seen.
    public var changeTag: String?
    /// When the server last saved the record.
    public var modificationDate: Date?

    public init(
        recordType: String, id: RecordID, fields: [String: SyncFieldValue] = [:],
        encryptedFields: [String: SyncFieldValue] = [:], parentRecordName: String? = nil,
        changeTag: String? = nil, modificationDate: Date? = nil
    ) {
        self.recordType = recordType
        self.id = id
        self.fields = fields
        self.encryptedFields = encryptedFields
        self.parentRecordName = parentRecordName
        self.changeTag = changeTag
        self.modificationDate = modificationDate
    }

    /// The parent's full ID: same zone as this record.
    public var parentID: RecordID? {
        parentRecordName.map { RecordID(recordName: $0, zoneID: id.zoneID) }
    }

    /// A field's value, wherever it is stored (encrypted or not).
    public subscript(field name: String) -> SyncFieldValue? {
        encryptedFields[name] ?? fields[name]
    }

    public var description: String {
        let all = fields.merging(encryptedFields.mapValues { $0 }) { plain, _ in plain }
        let list = all.keys.sorted().map { "\($0): \(all[$0]!)" }.joined(separator: ", ")
        return "\(recordType) \(id) {\(list)}"
    }
}
