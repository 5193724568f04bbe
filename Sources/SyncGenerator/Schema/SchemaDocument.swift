/// One schema file as written: the syntax tree the parser produces and the validator checks.
///
/// Names and enumerated words (types, scopes, index kinds...) are kept as the user spelt them, each
/// with its location; the validator interprets them, so that a misspelling is reported with a
/// suggestion at its exact place.
package struct SchemaDocument: Sendable, Equatable {
    package var file: String
    package var models: [ModelDeclaration]

    package init(file: String, models: [ModelDeclaration]) {
        self.file = file
        self.models = models
    }
}

/// A model as declared under `models:`.
package struct ModelDeclaration: Sendable, Equatable {
    package var name: Located<String>
    package var recordType: Located<String>?
    /// The `scopes` list (its own location, and each entry's).
    package var scopes: Located<[Located<String>]>?
    package var shareable: Located<Bool>?
    package var parent: Located<String>?
    /// The zone the model's private and shared records live in; none for the app's sync zone.
    package var zone: Located<String>?
    package var publishAs: Located<String>?
    package var catalog: CatalogDeclaration?
    /// The `unique` keys, each a list of field names (`unique: [a, b]` is one key of two fields).
    package var unique: [Located<[Located<String>]>]
    /// The model's `merge` policy word.
    package var merge: Located<String>?
    package var fields: [FieldDeclaration]
    /// What the model is, in the schema's words (`description:`): its Swift type's doc comment.
    package var documentation: Located<String>?

    package init(
        name: Located<String>, recordType: Located<String>? = nil,
        scopes: Located<[Located<String>]>? = nil, shareable: Located<Bool>? = nil,
        parent: Located<String>? = nil, zone: Located<String>? = nil, publishAs: Located<String>? = nil,
        catalog: CatalogDeclaration? = nil, unique: [Located<[Located<String>]>] = [],
        merge: Located<String>? = nil, fields: [FieldDeclaration] = []
    ) {
        self.name = name
        self.recordType = recordType
        self.scopes = scopes
        self.shareable = shareable
        self.parent = parent
        self.zone = zone
        self.publishAs = publishAs
        self.catalog = catalog
        self.unique = unique
        self.merge = merge
        self.fields = fields
    }

    /// Each field name to the position of its first declaration.
    var fieldIndexByName: [String: Int] {
        var indexes: [String: Int] = [:]
        for (index, field) in fields.enumerated() where indexes[field.name.value] == nil {
            indexes[field.name.value] = index
        }
        return indexes
    }
}

/// A public model's `catalog:` block.
package struct CatalogDeclaration: Sendable, Equatable {
    package enum DesiredKeys: Sendable, Equatable {
        /// `desiredKeys: auto`.
        case automatic(SourceLocation)
        case explicit([Located<String>])
    }

    package var location: SourceLocation
    package var desiredKeys: DesiredKeys?
    package var initialState: Located<String>?
    package var governed: Located<Bool>?

    package init(
        location: SourceLocation, desiredKeys: DesiredKeys? = nil,
        initialState: Located<String>? = nil, governed: Located<Bool>? = nil
    ) {
        self.location = location
        self.desiredKeys = desiredKeys
        self.initialState = initialState
        self.governed = governed
    }
}

/// A field as declared under `fields:`, in long form or as the `name: type` shorthand.
package struct FieldDeclaration: Sendable, Equatable {
    package var name: Located<String>
    /// The type word; nil only when the long form omits `type` (already reported).
    package var type: Located<String>?
    package var optional: Located<Bool>?
    package var defaultValue: YAMLNode?
    package var to: Located<String>?
    package var onDelete: Located<String>?
    package var of: Located<String>?
    /// An `enum`'s case names, where the list was written.
    package var cases: Located<[Located<String>]>?
    package var encrypted: Located<Bool>?
    package var localOnly: Located<Bool>?
    package var serverOwned: Located<Bool>?
    package var index: [Located<String>]
    /// The field's `merge` policy word.
    package var merge: Located<String>?
    /// What the field holds, in the schema's words (`description:`): its property's doc comment.
    package var documentation: Located<String>?
    /// What each `enum` case means, by case name (a case written `- urgent: Needed today`).
    package var caseDocumentation: [String: Located<String>] = [:]
    /// The key the field is stored under in records and on the device (`recordKey:`), when it is
    /// not the field's name: a field renamed in Swift keeps its deployed key.
    package var recordKey: Located<String>?
    /// The most bytes a `data` field (or each element of a list of data) holds (`maxBytes:`):
    /// what says its values are small enough to live in the record.
    package var maxBytes: Located<Int64>?
    /// `deprecated: true`, or `deprecated: <what to use instead>` (the message is the text).
    package var deprecated: Located<Bool>?
    package var deprecationMessage: Located<String>?

    package init(
        name: Located<String>, type: Located<String>?, optional: Located<Bool>? = nil,
        defaultValue: YAMLNode? = nil, to: Located<String>? = nil, onDelete: Located<String>? = nil,
        of: Located<String>? = nil, encrypted: Located<Bool>? = nil,
        localOnly: Located<Bool>? = nil, serverOwned: Located<Bool>? = nil,
        index: [Located<String>] = [], merge: Located<String>? = nil
    ) {
        self.name = name
        self.type = type
        self.optional = optional
        self.defaultValue = defaultValue
        self.to = to
        self.onDelete = onDelete
        self.of = of
        self.encrypted = encrypted
        self.localOnly = localOnly
        self.serverOwned = serverOwned
        self.index = index
        self.merge = merge
    }

    /// The key the field is stored under: its `recordKey`, or else its name.
    package var storedKey: Located<String> { recordKey ?? name }
    var isOptional: Bool { optional?.value ?? false }
    var isEncrypted: Bool { encrypted?.value ?? false }
    var isLocalOnly: Bool { localOnly?.value ?? false }
    var isServerOwned: Bool { serverOwned?.value ?? false }

    /// How a diagnostic names the field: "field 'title' of model 'Note'".
    func subject(inModel model: String) -> String {
        "field '\(name.value)' of model '\(model)'"
    }
}
