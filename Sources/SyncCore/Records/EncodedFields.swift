/// What a model uploads: its field values, plain and encrypted. A field without a value is absent;
/// the engine clears it on the server record, so "absent" always means "no value".
public struct EncodedFields: Hashable, Sendable {
    /// Plain field values.
    public var values: RecordFields
    /// Field values CloudKit stores encrypted (`encryptedValues`).
    public var encryptedValues: RecordFields
    /// The keys the model owns that have no value, noted by the encoder as it meets them (an
    /// upload clears them: `SyncModel.makeRecord`), so no one searches the values for what is
    /// missing afterwards.
    @usableFromInline package var emptyKeys: Set<String> = []
    /// Of `emptyKeys`, those CloudKit stores encrypted.
    @usableFromInline package var emptyEncryptedKeys: Set<String> = []

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
