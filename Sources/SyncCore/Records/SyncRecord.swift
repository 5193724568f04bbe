import Foundation

/// A record as it travels between the local store and the cloud: the shape of a CKRecord, without
/// CloudKit.
public struct SyncRecord: Hashable, Sendable, CustomStringConvertible {
    /// The CloudKit record type.
    public var recordType: String
    /// The record's name and zone (and so its database).
    public var id: RecordID
    /// Plain field values; a key absent here and in `clearedKeys` is left as the server has it.
    public var fields: RecordFields
    /// Values CloudKit stores end-to-end encrypted.
    public var encryptedFields: RecordFields
    /// The name of the CKRecord.parent (action none). A parent always lives in its child's zone,
    /// so moving a record to another zone moves its parent reference with it.
    public var parentRecordName: String?
    /// The server's version of the record, as the cloud reported it; nil for a record the server
    /// has not seen. Read only: a save is conditional on `systemFields`, never on this.
    public var changeTag: String?
    /// The server's metadata of the version this record is based on (its gateway's archive);
    /// nil for a record the server has not seen. What makes a save "over the version I know".
    public var systemFields: SystemFields?
    /// The record name of the share this record is the root of (CKRecord.share), set by the
    /// server.
    public var shareRecordName: String?
    /// When the server last saved the record.
    public var modificationDate: Date?
    /// Who created the record (CKRecord.creatorUserRecordID), set by the server:
    /// `__defaultOwner__` for the signed-in user, as CloudKit names them. Never sent.
    public var creatorUserRecordName: String?
    /// When the record was first saved to the server (CKRecord.creationDate). Never sent.
    public var creationDate: Date?
    /// Who saved the record last (CKRecord.lastModifiedUserRecordID), named as the creator is.
    /// Never sent.
    public var lastModifiedUserRecordName: String?
    /// Keys a save removes from the server's record: fields set to no value. A save carries only
    /// the keys it sets (`fields`, `encryptedFields`) and the keys it clears (these): every other
    /// key of the server's record stays as it is, as CloudKit keeps a key a client did not set
    /// (another app version's field, a key a fetch did not ask for). Only on records to save.
    public var clearedKeys: Set<String> = []
    /// Of `clearedKeys`, the fields CloudKit stores encrypted: a gateway clears them among the
    /// encrypted values (CloudKit keeps the two apart).
    public var clearedEncryptedKeys: Set<String> = []

    /// A record; change tag and server metadata are the cloud's to fill in.
    public init(
        recordType: String, id: RecordID, fields: RecordFields = [:],
        encryptedFields: RecordFields = [:], parentRecordName: String? = nil,
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

    /// A model's upload: its values, and the keys it clears (see `SyncModel.makeRecord`), made
    /// whole in one step (the upload of every change goes through here).
    @inlinable
    package init(recordType: String, id: RecordID, upload: consuming EncodedFields, parentRecordName: String?) {
        self.recordType = recordType
        self.id = id
        fields = upload.values
        encryptedFields = upload.encryptedValues
        clearedKeys = upload.emptyKeys
        clearedEncryptedKeys = upload.emptyEncryptedKeys
        self.parentRecordName = parentRecordName
    }

    /// Bases this record on `server`'s version (its change tag and system fields), or on none
    /// (a record the server has not seen): what the next save is conditional on.
    public mutating func base(onServerVersionOf server: SyncRecord?) {
        changeTag = server?.changeTag
        systemFields = server?.systemFields
    }

    /// Takes what the server says of `server`'s version beyond its fields: when it was made and
    /// last saved, and by whom.
    package mutating func takeServerMetadata(of server: SyncRecord) {
        modificationDate = server.modificationDate
        creationDate = server.creationDate
        creatorUserRecordName = server.creatorUserRecordName
        lastModifiedUserRecordName = server.lastModifiedUserRecordName
    }

    /// The uploads this version descends from, newest first (``RecordFieldNames/uploadVersions``).
    public var uploadVersions: [String] {
        guard case .list(let items) = fields[RecordFieldNames.uploadVersions] else { return [] }
        return items.compactMap { if case .string(let id) = $0 { id } else { nil } }
    }

    /// The record this copy of a natural key was merged into, when a device retired it
    /// (``RecordFieldNames/mergedInto``).
    public var mergedInto: String? {
        if case .string(let survivor) = fields[RecordFieldNames.mergedInto], !survivor.isEmpty { return survivor }
        return nil
    }

    /// How many uploads a version remembers: the newest one of each device that saved it, the
    /// devices that saved last first. A device finds its own last upload there however many saves
    /// of others followed it, as long as fewer than this many other devices saved the record
    /// since (past that, its reply counts as never received).
    public static let uploadVersionsKept = 16

    /// A device's ID among the uploads (`newUploadID(device:)`): 32 random bits as 8
    /// hexadecimal digits, made once per store.
    public static func newUploadDevice() -> String {
        var generator = SystemRandomNumberGenerator()
        return hexadecimal(generator.next() & 0xFFFF_FFFF, digits: 8)
    }

    /// A new upload's ID (`stampUpload`) by `device` (`newUploadDevice()`): the device's 8
    /// hexadecimal digits, then 8 random ones. Short, since a record keeps the IDs of its last
    /// uploads; made straight from the system's random numbers, since every push stamps one per
    /// record.
    public static func newUploadID(device: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return device + hexadecimal(generator.next() & 0xFFFF_FFFF, digits: 8)
    }

    /// The device an upload ID names (its first 8 digits); nil for an ID made before IDs named
    /// their device (12 random digits), which stands for a device of its own.
    package static func uploadDevice(of id: String) -> Substring? {
        id.utf8.count == 16 ? id.prefix(8) : nil
    }

    private static func hexadecimal(_ value: UInt64, digits count: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: count - digits.count) + digits
    }

    /// Names this record as upload `id`, following the uploads of `server`, the version it is
    /// saved over: the newest upload of each other device that saved it stays, this device's
    /// earlier one goes. CloudKit keeps a key a save leaves out, so an app version that writes
    /// no upload ID leaves the list as it was.
    public mutating func stampUpload(_ id: String, over server: SyncRecord?) {
        let device = Self.uploadDevice(of: id)
        let others = (server?.uploadVersions ?? []).lazy.filter { device == nil || Self.uploadDevice(of: $0) != device }
        fields[RecordFieldNames.uploadVersions] = .list(([id] + others.prefix(Self.uploadVersionsKept - 1)).map(SyncFieldValue.string))
    }

    /// The parent's full ID: same zone as this record.
    public var parentID: RecordID? {
        parentRecordName.map { RecordID(recordName: $0, zoneID: id.zoneID) }
    }

    /// When the device that last wrote the record edited it (`clientModifiedAt`), else when the
    /// server saved it: what last-writer-wins compares.
    public var clientModifiedAt: Date? {
        if case .date(let date) = fields[RecordFieldNames.clientModifiedAt] { return date }
        return modificationDate
    }

    /// Whether the signed-in user (`user`, their user record name) created the record: in the
    /// public database, only they may change or delete it.
    public func isCreated(byUser user: String?) -> Bool {
        guard let creator = creatorUserRecordName else { return false }
        return creator == SyncConstants.currentUserOwnerName || creator == user
    }

    /// An asset field's contents, if the record carries them.
    package func assetContents(_ keys: AssetRecordKeys) -> SyncAsset? {
        if case .asset(let asset) = fields[keys.contents] { return asset }
        return nil
    }

    /// A field's value, wherever it is stored (encrypted or not).
    @inlinable
    public subscript(field name: String) -> SyncFieldValue? {
        // Most records have no encrypted values: skip that lookup when there is nothing to find.
        encryptedFields.isEmpty ? fields[name] : encryptedFields[name] ?? fields[name]
    }

    public var description: String {
        let encrypted = encryptedFields.isEmpty ? "" : " encrypted \(encryptedFields)"
        return "\(recordType) \(id) \(fields)\(encrypted)"
    }
}
