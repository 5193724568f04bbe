/// A model's asset as the model holds it: which file type it is and how large. The file itself lives
/// in the asset cache, keyed by record type and record name; these two markers travel with the record
/// (`assetSuffix`, `assetSize`) so that any device can name the file and tell whether its copy is
/// stale, without downloading it.
public struct AssetReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file name suffix, without a dot: "jpg".
    public var suffix: String
    /// The size in bytes: the fingerprint of the contents.
    public var byteSize: Int64

    public init(suffix: String, byteSize: Int64) {
        self.suffix = suffix
        self.byteSize = byteSize
    }

    public var description: String { "\(suffix), \(byteSize) bytes" }
}

/// In the device's own store an asset reference is kept as `[suffix, size]`.
extension AssetReference: SyncFieldConvertible {
    public var syncFieldValue: SyncFieldValue { .list([.string(suffix), .int64(byteSize)]) }

    public static func fromSyncFieldValue(_ value: SyncFieldValue) -> AssetReference? {
        guard case .list(let items) = value, items.count == 2, case .string(let suffix) = items[0], case .int64(let size) = items[1] else { return nil }
        return AssetReference(suffix: suffix, byteSize: size)
    }

    public static var syncTypeName: String { "asset reference" }
}
