/// A model's asset as the model holds it: which file type it is, how large, and a digest of its
/// contents. The file itself lives in the asset cache, keyed by record type and record name; these
/// markers travel with the record (`assetSuffix`, `assetSize`, `assetDigest`) so that any device
/// can name the file and tell whether its copy is stale, without downloading it.
public struct AssetReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file name suffix, without a dot: "jpg".
    public var suffix: String
    /// The size in bytes.
    public var byteSize: Int64
    /// The SHA-256 of the contents, as hex; empty when not known (a record written before digests
    /// travelled with it). With the size, the fingerprint of the contents: a file replaced by
    /// another of the same size is told apart.
    public var digest: String

    /// The markers of a file: its suffix, size and (when known) digest.
    public init(suffix: String, byteSize: Int64, digest: String = "") {
        self.suffix = suffix
        self.byteSize = byteSize
        self.digest = digest
    }

    public var description: String { digest.isEmpty ? "\(suffix), \(byteSize) bytes" : "\(suffix), \(byteSize) bytes, sha256 \(digest.prefix(12))" }

    /// Whether `other` names other contents. An unknown digest on either side leaves the size to
    /// tell.
    package func differs(from other: AssetReference) -> Bool {
        suffix != other.suffix || byteSize != other.byteSize || (!digest.isEmpty && !other.digest.isEmpty && digest != other.digest)
    }
}

/// In the device's own store an asset reference is kept as `[suffix, size, digest]` (a store
/// written before digests holds `[suffix, size]`).
extension AssetReference {
    package var storedValue: SyncFieldValue { .list([.string(suffix), .int64(byteSize), .string(digest)]) }

    package static func fromStoredValue(_ value: SyncFieldValue) -> AssetReference? {
        guard case .list(let items) = value, items.count == 2 || items.count == 3, case .string(let suffix) = items[0], case .int64(let size) = items[1] else { return nil }
        guard items.count == 3 else { return AssetReference(suffix: suffix, byteSize: size) }
        guard case .string(let digest) = items[2] else { return nil }
        return AssetReference(suffix: suffix, byteSize: size, digest: digest)
    }
}

extension SyncRecord {
    /// An asset reference as the device's own copy keeps it, under the field's name.
    package func decodeStoredAssetReference(_ field: String) throws(FieldDecodingError) -> AssetReference? {
        guard let value = self[field: field] else { return nil }
        guard let reference = AssetReference.fromStoredValue(value) else { throw mismatch(field, expected: "asset reference", found: value) }
        return reference
    }
}
