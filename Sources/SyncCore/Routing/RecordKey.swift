/// A local model's identity: its record type and name, the store's primary key. A draft and its
/// public projection share a name and are two models. (``AssetKey`` names an asset the same way.)
public struct RecordKey: Hashable, Sendable {
    /// The model's record type.
    public var recordType: String
    /// The model's record name.
    public var recordName: String

    /// The model of this type and name.
    public init(_ recordType: String, _ recordName: String) {
        self.recordType = recordType
        self.recordName = recordName
    }
}
