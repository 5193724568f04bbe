/// The record keys one asset field travels under in CloudKit: its contents (a CKAsset) and the
/// markers beside them (suffix, size, SHA-256 digest), which pulls read instead of the contents.
///
/// One rule for every layer (the runtime's upload and download, the `.ckdb` export, the catalog's
/// desired keys, the names a schema field may not take): a model's first asset field keeps the
/// keys every record carried while a model could hold only one asset (`assetData`,
/// `assetSuffix`, `assetSize`, `assetDigest`), so records already in the cloud keep their files;
/// each further asset field travels under its own name before them (`thumbnailAssetData`, ...).
@usableFromInline package struct AssetRecordKeys: Sendable, Hashable, CustomStringConvertible {
    /// The contents, a CKAsset.
    @usableFromInline package let contents: String
    /// The file name suffix ("jpg"), so a new device can name its cached copy.
    @usableFromInline package let suffix: String
    /// The size in bytes.
    @usableFromInline package let size: String
    /// The SHA-256 of the contents (hex): with the size, the fingerprint that tells another device
    /// its copy is stale without downloading anything.
    @usableFromInline package let digest: String

    /// The keys of a model's first asset field, the ones records carried before a model could
    /// hold several.
    package static let first = AssetRecordKeys(prefix: "asset")

    /// The keys of an asset field that is not its model's first.
    package init(field: String) {
        self.init(prefix: field + "Asset")
    }

    private init(prefix: String) {
        contents = prefix + "Data"
        suffix = prefix + "Suffix"
        size = prefix + "Size"
        digest = prefix + "Digest"
    }

    /// The keys of each of a model's asset fields, given in schema order.
    package static func of(assetFields names: [String]) -> [AssetRecordKeys] {
        names.indices.map { $0 == 0 ? .first : AssetRecordKeys(field: names[$0]) }
    }

    /// The markers beside the contents: what pulls and catalog queries read.
    @usableFromInline package var markers: [String] { [suffix, size, digest] }
    /// Every key: contents and markers, cleared together when the file is detached.
    @usableFromInline package var all: [String] { [contents] + markers }

    @usableFromInline package var description: String { all.joined(separator: ", ") }
}
