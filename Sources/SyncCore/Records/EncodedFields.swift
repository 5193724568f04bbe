/// What a model uploads: its field values, plain and encrypted. A field without a value is absent;
/// the engine clears it on the server record, so "absent" always means "no value".
public struct EncodedFields: Hashable, Sendable {
    /// Plain field values.
    public var values: RecordFields
    /// Field values CloudKit stores encrypted (`encryptedValues`).
    public var encryptedValues: RecordFields

    /// Encoded fields.
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
