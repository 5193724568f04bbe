import Foundation

/// Which asset: a record type, a record name and the asset field. All three, always: a draft and
/// its public projection share one recordName, and a model may hold several asset fields, each
/// with a file of its own.
public struct AssetKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The record type of the model the asset belongs to.
    public var recordType: String
    /// The record name of that model.
    public var recordName: String
    /// The schema name of the asset field.
    public var field: String

    /// The asset of a record type, name and field.
    public init(recordType: String, recordName: String, field: String) {
        self.recordType = recordType
        self.recordName = recordName
        self.field = field
    }

    /// The asset a model's property holds, for the record of this name: `AssetKey(\Note.cover,
    /// recordName: id)`. A property that is not one of the model's asset fields names no asset
    /// the cache keeps (``AssetError/notAnAssetField(_:)`` where a call is refused for it).
    public init<Model: CacheableModel>(_ field: KeyPath<Model, AssetReference?> & Sendable, recordName: String) {
        self.init(recordType: Model.recordType, recordName: recordName, field: Model.assetFieldName(field) ?? "\(field)")
    }

    public var description: String { "\(recordType).\(field) of '\(recordName)'" }

    public static func < (lhs: AssetKey, rhs: AssetKey) -> Bool {
        (lhs.recordType, lhs.recordName, lhs.field) < (rhs.recordType, rhs.recordName, rhs.field)
    }
}

/// What the cache keeps about one asset.
public struct AssetCacheEntry: Sendable, Hashable {
    /// Which asset.
    public var key: AssetKey
    /// Where the asset's file stands (see ``AssetCacheState``).
    public var state: AssetCacheState
    /// The file name suffix ("jpg"), as the record's marker says.
    public var suffix: String
    /// The contents' size: of the local file when the device has one, else the cloud's marker.
    public var byteSize: Int64
    /// The SHA-256 of the contents (hex), known the same way; empty when not known.
    public var digest: String
    /// Pinned files are never evicted, and are downloaded as soon as the cloud has them.
    public var isPinned: Bool
    /// When the app last read the file: the least recently used are evicted first.
    public var lastAccess: Date

    /// An entry; the cache builds them, tests compare against them.
    public init(
        key: AssetKey, state: AssetCacheState, suffix: String, byteSize: Int64, digest: String = "", isPinned: Bool = false,
        lastAccess: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.key = key
        self.state = state
        self.suffix = suffix
        self.byteSize = byteSize
        self.digest = digest
        self.isPinned = isPinned
        self.lastAccess = lastAccess
    }

    /// The markers of the contents this entry knows.
    public var reference: AssetReference { AssetReference(suffix: suffix, byteSize: byteSize, digest: digest) }
}
