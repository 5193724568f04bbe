// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation

/// A record's ID: its name in a zone (Apple, `CKRecord.ID`).
public final class CKRecordID: NSObject, NSSecureCoding, NSCopying {
    public static var supportsSecureCoding: Bool { true }

    public let recordName: String
    public let zoneID: CKRecordZone.ID

    public init(recordName: String = UUID().uuidString, zoneID: CKRecordZone.ID = CKRecordZone.ID.default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public convenience init(recordName: String) {
        self.init(recordName: recordName, zoneID: CKRecordZone.ID.default)
    }

    public func encode(with coder: NSCoder) {
        coder.encode(recordName as NSString, forKey: "recordName")
        coder.encode(zoneID, forKey: "zoneID")
    }

    public init?(coder: NSCoder) {
        guard let recordName = coder.decodeObject(of: NSString.self, forKey: "recordName"),
            let zoneID = coder.decodeObject(of: CKRecordZoneID.self, forKey: "zoneID")
        else { return nil }
        self.recordName = recordName as String
        self.zoneID = zoneID
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecordID else { return false }
        return recordName == other.recordName && zoneID == other.zoneID
    }

    public override var hash: Int { recordName.hashValue ^ zoneID.hash }
}

/// A value a record field holds: CloudKit takes these object types and no others (Apple,
/// `CKRecordValue`: strings, numbers, dates, data, arrays of those, references, assets,
/// locations).
public protocol __CKRecordObjCValue: NSObjectProtocol {}
/// Apple, `typealias CKRecordValue = __CKRecordObjCValue`.
public typealias CKRecordValue = __CKRecordObjCValue

extension NSString: __CKRecordObjCValue {}
extension NSNumber: __CKRecordObjCValue {}
extension NSDate: __CKRecordObjCValue {}
extension NSData: __CKRecordObjCValue {}
extension NSArray: __CKRecordObjCValue {}

/// Reading and writing a record's fields (Apple, `CKRecordKeyValueSetting`): the record's own
/// values, and its encrypted ones.
public protocol CKRecordKeyValueSetting: NSObjectProtocol {
    func object(forKey key: String) -> (any __CKRecordObjCValue)?
    func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: String)
    func allKeys() -> [String]
    func changedKeys() -> [String]
}

/// A relationship to another record of the same zone (Apple, `CKRecord.Reference`).
public final class CKReference: NSObject, NSSecureCoding, NSCopying, __CKRecordObjCValue {
    public static var supportsSecureCoding: Bool { true }

    public let recordID: CKRecord.ID
    public let action: CKRecord.ReferenceAction

    public init(recordID: CKRecord.ID, action: CKRecord.ReferenceAction) {
        self.recordID = recordID
        self.action = action
    }

    public convenience init(record: CKRecord, action: CKRecord.ReferenceAction) {
        self.init(recordID: record.recordID, action: action)
    }

    public func encode(with coder: NSCoder) {
        coder.encode(recordID, forKey: "recordID")
        coder.encode(Int(action.rawValue), forKey: "action")
    }

    public init?(coder: NSCoder) {
        guard let recordID = coder.decodeObject(of: CKRecordID.self, forKey: "recordID"),
            let action = CKRecord.ReferenceAction(rawValue: UInt(coder.decodeInteger(forKey: "action")))
        else { return nil }
        self.recordID = recordID
        self.action = action
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKReference else { return false }
        return recordID == other.recordID && action == other.action
    }

    public override var hash: Int { recordID.hash }
}

/// A file that belongs to a record (Apple, `CKAsset`).
public final class CKAsset: NSObject, __CKRecordObjCValue {
    /// Where the file is on this device: the one given, or where CloudKit downloaded it.
    public let fileURL: URL?

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }
}

/// A record: its ID, type, fields and server metadata (Apple, `CKRecord`). Not `Sendable`, as in
/// the SDKs before iOS 26: the gateway keeps records inside one function.
open class CKRecord: NSObject, NSSecureCoding, NSCopying, CKRecordKeyValueSetting {
    public typealias RecordType = String
    public typealias FieldKey = String
    public typealias ID = CKRecordID
    public typealias Reference = CKReference

    /// What deleting a reference's target does to the referencing record (Apple,
    /// `CKRecord.ReferenceAction`).
    public enum ReferenceAction: UInt, Sendable {
        case none = 0
        case deleteSelf = 1
    }

    public static var supportsSecureCoding: Bool { true }

    public let recordID: CKRecord.ID
    public let recordType: CKRecord.RecordType
    /// Read-only, as in CloudKit: a save over a known version is a record rebuilt from its
    /// archived system fields (`encodeSystemFields(with:)`, `init?(coder:)`).
    public private(set) var recordChangeTag: String?
    public private(set) var creationDate: Date?
    public private(set) var modificationDate: Date?
    public private(set) var creatorUserRecordID: CKRecord.ID?
    public private(set) var lastModifiedUserRecordID: CKRecord.ID?
    /// The share this record is the root of; set by the server.
    public private(set) var share: CKRecord.Reference?
    /// The record's parent; its action must be `.none` (the server refuses a save otherwise).
    public var parent: CKRecord.Reference?

    private var values: [String: any __CKRecordObjCValue] = [:]
    private var changed: Set<String> = []
    private let encrypted = CKEncryptedValues()

    public init(recordType: CKRecord.RecordType, recordID: CKRecord.ID = CKRecord.ID()) {
        self.recordType = recordType
        self.recordID = recordID
    }

    public convenience init(recordType: CKRecord.RecordType, zoneID: CKRecordZone.ID) {
        self.init(recordType: recordType, recordID: CKRecord.ID(recordName: UUID().uuidString, zoneID: zoneID))
    }

    /// The record's encrypted values: they take neither references nor assets (a value of either
    /// is refused when the record is saved).
    public var encryptedValues: any CKRecordKeyValueSetting & Sendable { encrypted }

    /// Apple's `object(forKey:)` and `allKeys()` say nothing of encrypted values: the stand-in
    /// takes the harsher reading, and reads an encrypted value by its key here too, and lists its
    /// key among all the record's keys (a client that takes them for plain values would write them
    /// back unencrypted).
    public func object(forKey key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? { values[key] ?? encrypted.object(forKey: key) }

    public func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: CKRecord.FieldKey) {
        values[key] = object
        changed.insert(key)
    }

    public subscript(key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? {
        get { object(forKey: key) }
        set { setObject(newValue, forKey: key) }
    }

    public func allKeys() -> [CKRecord.FieldKey] { Set(values.keys).union(encrypted.allKeys()).sorted() }

    public func changedKeys() -> [CKRecord.FieldKey] { changed.sorted() }

    public func setParent(_ parentRecordID: CKRecord.ID?) {
        parent = parentRecordID.map { CKRecord.Reference(recordID: $0, action: .none) }
    }

    public func setParent(_ parentRecord: CKRecord?) {
        setParent(parentRecord?.recordID)
    }

    // MARK: System fields

    /// Archives the record's metadata only: its ID, type, change tag, dates, creator and share,
    /// never its fields (Apple, `encodeSystemFields(with:)`).
    public func encodeSystemFields(with coder: NSCoder) {
        coder.encode(recordID, forKey: "recordID")
        coder.encode(recordType as NSString, forKey: "recordType")
        if let recordChangeTag { coder.encode(recordChangeTag as NSString, forKey: "recordChangeTag") }
        if let creationDate { coder.encode(creationDate as NSDate, forKey: "creationDate") }
        if let modificationDate { coder.encode(modificationDate as NSDate, forKey: "modificationDate") }
        if let creatorUserRecordID { coder.encode(creatorUserRecordID, forKey: "creatorUserRecordID") }
        if let lastModifiedUserRecordID { coder.encode(lastModifiedUserRecordID, forKey: "lastModifiedUserRecordID") }
        if let share { coder.encode(share, forKey: "share") }
    }

    public func encode(with coder: NSCoder) {
        encodeSystemFields(with: coder)
    }

    /// A record rebuilt from archived system fields: no fields, the archived metadata.
    public required init?(coder: NSCoder) {
        guard let recordID = coder.decodeObject(of: CKRecordID.self, forKey: "recordID"),
            let recordType = coder.decodeObject(of: NSString.self, forKey: "recordType")
        else { return nil }
        self.recordID = recordID
        self.recordType = recordType as String
        recordChangeTag = coder.decodeIfPresent(NSString.self, forKey: "recordChangeTag") as String?
        creationDate = coder.decodeIfPresent(NSDate.self, forKey: "creationDate") as Date?
        modificationDate = coder.decodeIfPresent(NSDate.self, forKey: "modificationDate") as Date?
        creatorUserRecordID = coder.decodeIfPresent(CKRecordID.self, forKey: "creatorUserRecordID")
        lastModifiedUserRecordID = coder.decodeIfPresent(CKRecordID.self, forKey: "lastModifiedUserRecordID")
        share = coder.decodeIfPresent(CKReference.self, forKey: "share")
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = CKRecord(recordType: recordType, recordID: recordID)
        copy.adopt(self)
        return copy
    }

    private func adopt(_ other: CKRecord) {
        values = other.values
        changed = other.changed
        encrypted.adopt(other.encrypted)
        parent = other.parent
        recordChangeTag = other.recordChangeTag
        creationDate = other.creationDate
        modificationDate = other.modificationDate
        creatorUserRecordID = other.creatorUserRecordID
        lastModifiedUserRecordID = other.lastModifiedUserRecordID
        share = other.share
    }

    // MARK: What the stand-in's server does

    /// The server's side of a record: what it sets on records it returns.
    package func setServerMetadata(
        changeTag: String?, creationDate: Date?, modificationDate: Date?, creator: CKRecord.ID?, lastModifier: CKRecord.ID?, share: CKRecord.Reference?
    ) {
        recordChangeTag = changeTag
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        creatorUserRecordID = creator
        lastModifiedUserRecordID = lastModifier
        self.share = share
    }

    /// A record as the server returns it: nothing counts as changed.
    package func markUnchanged() {
        changed = []
        encrypted.markUnchanged()
    }
}

/// A record's encrypted values.
final class CKEncryptedValues: NSObject, CKRecordKeyValueSetting, @unchecked Sendable {
    private var values: [String: any __CKRecordObjCValue] = [:]
    private var changed: Set<String> = []

    func object(forKey key: String) -> (any __CKRecordObjCValue)? { values[key] }

    func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: String) {
        values[key] = object
        changed.insert(key)
    }

    func allKeys() -> [String] { values.keys.sorted() }

    func changedKeys() -> [String] { changed.sorted() }

    func adopt(_ other: CKEncryptedValues) {
        values = other.values
        changed = other.changed
    }

    func markUnchanged() { changed = [] }
}
#endif
