/// How a field both sides changed is settled.
public enum ConflictPolicy: Sendable, Hashable {
    /// The later edit (by `clientModifiedAt`) wins; a tie goes to the server.
    case lastWriterWins
    /// The server's value always wins.
    case serverWins
    /// This device's value always wins.
    case clientWins

    /// Whether this device's side wins, its edit being the later or not.
    func localWins(localIsLater: Bool) -> Bool {
        switch self {
        case .lastWriterWins: localIsLater
        case .serverWins: false
        case .clientWins: true
        }
    }
}

/// How concurrent edits of one field combine: the schema's `merge:` on a field.
public enum FieldMerge: Sendable, Hashable {
    /// As the model's policy says (`SyncModel.conflictPolicy`, else the configuration's).
    case model
    /// The later edit wins, whatever the model's policy.
    case lastWriterWins
    /// The server's value wins.
    case serverWins
    /// This device's value wins.
    case clientWins
    /// A list: the elements either side added are kept, the ones either side removed are
    /// removed (a three-way merge against the value both started from).
    case union
    /// A number or a date: the larger value.
    case max
    /// A number or a date: the smaller value.
    case min
    /// The model's own rule (`CustomMergingModel.merge(_:ancestor:local:server:into:)`).
    case custom
    /// An `int` or `double` that counts: concurrent changes add up. The merged value is the
    /// server's plus this device's change since the version both started from, so two devices
    /// that each take one of twelve eggs end at ten.
    case counter
    /// A `string` whose edits merge (``TextMerge``): edits to different parts are all kept; a
    /// part both sides changed keeps the later edit's text, and is kept for review as a conflict.
    case text
}

/// How one record type's fields combine when both sides changed them: the model's policy, each
/// field's own way, and the model's custom rule. Read from the model (`SyncModel.mergeRules`).
package struct MergeRules: Sendable {
    /// Settles a field the schema marks `merge: custom`, given the ancestor (if known), the local
    /// and server records and the record merged so far; returns the field's value.
    package typealias Custom = @Sendable (_ field: String, _ ancestor: SyncRecord?, _ local: SyncRecord, _ server: SyncRecord, _ merged: SyncRecord) -> SyncFieldValue?

    /// The policy of fields that state none.
    package var policy: ConflictPolicy
    /// Each field's own way, by record key; a field not listed follows `policy`.
    package var fields: [String: FieldMerge]
    /// The model's rule for `custom` fields.
    package var custom: Custom?
    /// The value each field has in a model nobody gave it (the model's empty record): what a
    /// device reads for a key its record lacks (written by an older app version, or a copy made
    /// elsewhere), which `max` and `min` must not take for a value.
    package var defaults: RecordFields

    package init(policy: ConflictPolicy, fields: [String: FieldMerge] = [:], custom: Custom? = nil, defaults: RecordFields = [:]) {
        self.policy = policy
        self.fields = fields
        self.custom = custom
        self.defaults = defaults
    }
}
