/// A typed reference from one model to another, as generated model properties hold it: the target
/// record's name, and the type it must be.
public struct RecordReference<Target: SyncModel>: Hashable, Sendable, CustomStringConvertible {
    /// The target record's name.
    public var recordName: String

    /// A reference to the record of that name.
    public init(recordName: String) {
        self.recordName = recordName
    }

    /// A reference to `target`.
    public init(_ target: Target) {
        self.recordName = target.recordName
    }

    /// The placeholder a required reference holds before a value arrives: encoded as no value.
    public static var unset: RecordReference { RecordReference(recordName: "") }

    /// Whether it names a record (`unset` does not).
    public var isSet: Bool { !recordName.isEmpty }

    public var description: String { "\(Target.recordType)/\(recordName)" }
}
