/// One schema file as written: the syntax tree the parser produces and the validator checks.
///
/// Names and enumerated words (types, scopes, index kinds...) are kept as the user spelt them, each
/// with its location; the validator interprets them, so that a misspelling is reported with a
/// suggestion at its exact place.
public struct SchemaDocument: Sendable, Equatable {
    public var file: String
    public var models: [ModelDeclaration]

    public init(file: String, models: [ModelDeclaration]) {
        self.file = file
        self.models = models
    }
}

/// A model as declared under `models:`.
public struct ModelDeclaration: Sendable, Equatable {
    public var name: Located<String>
    public var recordType: Located<String>?
    /// The `scopes` list (its own location, and each entry's).
    public var scopes: Located<[Located<String>]>?
    public var shareable: Located<Bool>?
    public var parent: Located<String>?
    public var publishAs: Located<String>?
    public var catalog: CatalogDeclaration?
    /// The `unique` keys, each a list of field names (`unique: [a, b]` is one key of two fields).
    public var unique: [Located<[Located<String>]>]
    /// The model's `merge` policy word.
    public var merge: Located<String>?
    public var fields: [FieldDeclaration]

    public init(
        name: Located<String>, recordType: Located<String>? = nil,
        scopes: Located<[Located<String>]>? = nil, shareable: Located<Bool>? = nil,
        parent: Located<String>? = nil, publishAs: Located<String>? = nil,
        catalog: CatalogDeclaration? = nil, unique: [Located<[Located<String>]>] = [],
        merge: Located<String>? = nil, fields: [FieldDeclaration] = []
    ) {
        self.name = name
        self.recordType = recordType
        self.scopes = scopes
        self.shareable = shareable
        self.parent = parent
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
public struct CatalogDeclaration: Sendable, Equatable {
    public enum DesiredKeys: Sendable, Equatable {
        /// `desiredKeys: auto`.
        case automatic(SourceLocation)
        case explicit([Located<String>])
    }

    public var location: SourceLocation
    public var desiredKeys: DesiredKeys?
    public var initialState: Located<String>?
    public var governed: Located<Bool>?

    public init(
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
public struct FieldDeclaration: Sendable, Equatable {
    public var name: Located<String>
    /// The type word; nil only when the long form omits `type` (already reported).
    public var type: Located<String>?
    public var optional: Located<Bool>?
    public var defaultValue: YAMLNode?
    public var to: Located<String>?
    public var onDelete: Located<String>?
    public var of: Located<String>?
    /// An `enum`'s case names, where the list was written.
    public var cases: Located<[Located<String>]>?
    public var encrypted: Located<Bool>?
    public var localOnly: Located<Bool>?
    public var serverOwned: Located<Bool>?
    public var index: [Located<String>]
    /// The field's `merge` policy word.
    public var merge: Located<String>?

    public init(
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

    var isOptional: Bool { optional?.value ?? false }
    var isEncrypted: Bool { encrypted?.value ?? false }
    var isLocalOnly: Bool { localOnly?.value ?? false }
    var isServerOwned: Bool { serverOwned?.value ?? false }

    /// How a diagnostic names the field: "field 'title' of model 'Note'".
    func subject(inModel model: String) -> String {
        "field '\(name.value)' of model '\(model)'"
    }
}
