/// A local model's identity: its record type and name, the store's primary key. A draft and its
/// public projection share a name and are two models. (`AssetKey` names an asset the same way.)
public struct RecordKey: Hashable, Sendable {
    public var recordType: String
    public var recordName: String

    public init(_ recordType: String, _ recordName: String) {
        self.recordType = recordType
        self.recordName = recordName
    }
}
