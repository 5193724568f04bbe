/// What a model uploads: its field values, plain and encrypted. A field without a value is absent;
/// the engine clears it on the server record, so "absent" always means "no value".
public struct EncodedFields: Hashable, Sendable {
    public var values: RecordFields
    public var encryptedValues: RecordFields

    public init(values: RecordFields = [:], encryptedValues: RecordFields = [:]) {
        self.values = values
        self.encryptedValues = encryptedValues
    }

    /// Room for `count` plain values, so encoding a model allocates once.
    public init(capacity count: Int) {
        self.values = RecordFields(minimumCapacity: count)
        self.encryptedValues = [:]
    }
}
