/// The record keys one asset field travels under in CloudKit: its contents (a CKAsset) and the
/// markers beside them (suffix, size, SHA-256 digest), which pulls read instead of the contents.
///
/// One rule for every layer (the runtime's upload and download, the `.ckdb` export, the catalog's
/// desired keys, the names a schema field may not take): a model's first asset field keeps the
/// keys every record carried while a model could hold only one asset (`assetData`,
/// `assetSuffix`, `assetSize`, `assetDigest`), so records already in the cloud keep their files;
/// each further asset field travels under its own name before them (`thumbnailAssetData`, ...).
public struct AssetRecordKeys: Sendable, Hashable, CustomStringConvertible {
    /// The contents, a CKAsset.
    public let contents: String
    /// The file name suffix ("jpg"), so a new device can name its cached copy.
    public let suffix: String
    /// The size in bytes.
    public let size: String
    /// The SHA-256 of the contents (hex): with the size, the fingerprint that tells another device
    /// its copy is stale without downloading anything.
    public let digest: String

    /// The keys of a model's first asset field, the ones records carried before a model could
    /// hold several.
    public static let first = AssetRecordKeys(prefix: "asset")

    /// The keys of an asset field that is not its model's first.
    public init(field: String) {
        self.init(prefix: field + "Asset")
    }

    private init(prefix: String) {
        contents = prefix + "Data"
        suffix = prefix + "Suffix"
        size = prefix + "Size"
        digest = prefix + "Digest"
    }

    /// The keys of each of a model's asset fields, given in schema order.
    public static func of(assetFields names: [String]) -> [AssetRecordKeys] {
        names.indices.map { $0 == 0 ? .first : AssetRecordKeys(field: names[$0]) }
    }

    /// The markers beside the contents: what pulls and catalog queries read.
    public var markers: [String] { [suffix, size, digest] }
    /// Every key: contents and markers, cleared together when the file is detached.
    public var all: [String] { [contents] + markers }

    public var description: String { all.joined(separator: ", ") }
}
