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
