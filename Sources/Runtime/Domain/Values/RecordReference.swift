/// A typed reference from one model to another, as generated model properties hold it: the target
/// record's name, and the type it must be.
public struct RecordReference<Target: SyncModel>: Hashable, Sendable, CustomStringConvertible {
    public var recordName: String

    public init(recordName: String) {
        self.recordName = recordName
    }

    public init(_ target: Target) {
        self.recordName = target.recordName
    }

    /// The placeholder a required reference holds before a value arrives: encoded as no value.
    public static var unset: RecordReference { RecordReference(recordName: "") }

    public var isSet: Bool { !recordName.isEmpty }

    public var description: String { "\(Target.recordType)/\(recordName)" }
}
