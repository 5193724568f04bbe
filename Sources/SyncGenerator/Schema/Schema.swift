import SyncCore

/// A validated schema: every model of every file, resolved into plain values for the generator and
/// the exports. Only ``SchemaValidator`` builds one, and only from a schema without errors, so code
/// reading it can rely on every rule of the schema language holding.
package struct Schema: Sendable, Equatable {
    /// Models in file order (files sorted by path), then in the order each file declares them.
    package let models: [Model]
    /// Lookups made once, so that generating and exporting stay linear in the schema.
    private let modelIndexByName: [String: Int]
    private let draftIndexByProjection: [String: Int]
    private let childNamesByParent: [String: [String]]

    package init(models: [Model]) {
        self.models = models
        var byName: [String: Int] = [:]
        var drafts: [String: Int] = [:]
        var children: [String: [String]] = [:]
        for (index, model) in models.enumerated() {
            if byName[model.name] == nil { byName[model.name] = index }
            if let projection = model.publishAs, drafts[projection] == nil { drafts[projection] = index }
            if let parent = model.parent { children[parent, default: []].append(model.name) }
        }
        self.modelIndexByName = byName
        self.draftIndexByProjection = drafts
        self.childNamesByParent = children.mapValues { $0.sorted() }
    }

    package func model(named name: String) -> Model? {
        modelIndexByName[name].map { models[$0] }
    }

    /// The draft that publishes into `projection`, if any.
    package func draft(publishingInto projection: String) -> Model? {
        draftIndexByProjection[projection].map { models[$0] }
    }

    /// The names of the models whose parent is `parent`, sorted.
    package func childNames(of parent: String) -> [String] {
        childNamesByParent[parent] ?? []
    }

    package static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.models == rhs.models
    }
}

/// The databases a model's records may live in: one of the three allowed sets.
package enum ScopeSet: String, Sendable, Hashable, CaseIterable {
    case privateOnly = "[private]"
    case privateAndShared = "[private, shared]"
    case publicOnly = "[public]"

    package var scopes: [ScopeName] {
        switch self {
        case .privateOnly: [.private]
        case .privateAndShared: [.private, .shared]
        case .publicOnly: [.public]
        }
    }

    package var isPublic: Bool { self == .publicOnly }

    /// The set holding exactly `scopes`, or nil when they are not an allowed set.
    package init?(_ scopes: Set<ScopeName>) {
        guard let match = Self.allCases.first(where: { Set($0.scopes) == scopes }) else { return nil }
        self = match
    }
}

package struct Model: Sendable, Equatable {
    package var name: String
    package var recordType: String
    package var scopes: ScopeSet
    package var isShareable: Bool
    /// The model whose records are this model's CKRecord.parent.
    package var parent: String?
    /// The zone the model's private and shared records live in; nil for the app's sync zone
    /// (`SyncConfiguration.syncZoneName`).
    package var zone: String?
    /// The public model this draft projects into.
    package var publishAs: String?
    /// Set on every public model: public records are read through catalog queries.
    package var catalog: Catalog?
    /// The natural keys, each a list of field names; records of one zone equal on every field of a
    /// key are one record.
    package var uniqueKeys: [[String]]
    /// The model's policy for fields both sides changed; nil when the schema leaves it to the app's
    /// configuration.
    package var mergePolicy: MergePolicyName?
    package var fields: [Field]
    package var location: SourceLocation
    /// What the model is, in the schema's words: its Swift type's doc comment.
    package var documentation: String?

    package init(
        name: String, recordType: String, scopes: ScopeSet, isShareable: Bool, parent: String?, zone: String? = nil,
        publishAs: String?, catalog: Catalog?, uniqueKeys: [[String]] = [], mergePolicy: MergePolicyName? = nil,
        fields: [Field], location: SourceLocation
    ) {
        self.name = name
        self.recordType = recordType
        self.scopes = scopes
        self.isShareable = isShareable
        self.parent = parent
        self.zone = zone
        self.publishAs = publishAs
        self.catalog = catalog
        self.uniqueKeys = uniqueKeys
        self.mergePolicy = mergePolicy
        self.fields = fields
        self.location = location
    }

    /// The asset fields, in declaration order, each with the record keys it travels under (the
    /// first on the keys records carried before a model could hold several: `AssetRecordKeys`).
    package var assetFields: [(field: Field, recordKeys: AssetRecordKeys)] {
        let assets = fields.filter { $0.type == .scalar(.asset) }
        return Array(zip(assets, AssetRecordKeys.of(assetFields: assets.map(\.recordKey))))
    }

    package func field(named name: String) -> Field? {
        fields.first { $0.name == name }
    }

    /// The field stored under `recordKey`, if any.
    package func field(recordKey: String) -> Field? {
        fields.first { $0.recordKey == recordKey }
    }

    /// The natural keys as the records hold them: each field's record key.
    package var uniqueRecordKeys: [[String]] {
        uniqueKeys.map { key in key.map { name in field(named: name)?.recordKey ?? name } }
    }
}

/// How a public model is read: which keys catalog queries ask for, and how new records start.
package struct Catalog: Sendable, Equatable {
    /// Fields the catalog query asks for. The asset's suffix and size markers are added to these
    /// whenever the model has an asset; the asset's contents never are.
    package var desiredFields: [String]
    package var initialState: PublicationStateName
    /// Governed models carry the publication lifecycle fields the runtime owns.
    package var isGoverned: Bool

    package init(desiredFields: [String], initialState: PublicationStateName, isGoverned: Bool) {
        self.desiredFields = desiredFields
        self.initialState = initialState
        self.isGoverned = isGoverned
    }
}

package struct Field: Sendable, Equatable {
    /// The Swift property's name, and the name the schema's other keys (`unique`, `desiredKeys`)
    /// call the field by.
    package var name: String
    /// The key the field's value is stored under, in records and on the device: the field's name
    /// unless the schema says `recordKey:` (a field renamed in Swift keeps its deployed key). Every
    /// CloudKit view of the field reads it.
    package var recordKey: String
    package var type: FieldType
    package var isOptional: Bool
    /// The declared default; nil means the type's zero value (or nil for an optional).
    package var defaultValue: FieldDefault?
    package var isEncrypted: Bool
    package var isLocalOnly: Bool
    package var isServerOwned: Bool
    package var indexes: [IndexKind]
    /// How concurrent edits of the field combine; nil: as the model's policy says.
    package var mergePolicy: MergePolicyName?
    /// The cases of an `enum` field (or a list of one), and the Swift type generated for them.
    package var enumeration: FieldEnumeration?
    package var location: SourceLocation
    /// What the field holds, in the schema's words: its property's doc comment.
    package var documentation: String?
    /// Given up (`deprecated:`): kept in records and carried through every save, left out of the
    /// initializer, and marked deprecated in Swift with this message (`""`: none given).
    package var deprecation: String?

    /// Optional in Swift: declared so, or of a type that always is (an asset: nil is "no file").
    package var isOptionalInSwift: Bool { isOptional || type.scalar?.facts.isAlwaysOptional == true }

    package init(
        name: String, type: FieldType, isOptional: Bool = false, defaultValue: FieldDefault? = nil,
        isEncrypted: Bool = false, isLocalOnly: Bool = false, isServerOwned: Bool = false,
        indexes: [IndexKind] = [], mergePolicy: MergePolicyName? = nil, enumeration: FieldEnumeration? = nil,
        recordKey: String? = nil, location: SourceLocation
    ) {
        self.name = name
        self.recordKey = recordKey ?? name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isEncrypted = isEncrypted
        self.isLocalOnly = isLocalOnly
        self.isServerOwned = isServerOwned
        self.indexes = indexes
        self.mergePolicy = mergePolicy
        self.enumeration = enumeration
        self.location = location
    }
}

/// The cases an `enum` field lists, and the name of the Swift enum generated for them (a member
/// type of the model: `ListItem.Status`).
package struct FieldEnumeration: Sendable, Hashable {
    /// The Swift type's name, inside its model.
    package var typeName: String
    /// The case names, in the schema's order: the first is a required field's zero value.
    package var cases: [String]
    /// What each case means, in the schema's words, by case name: the case's doc comment.
    package var documentation: [String: String]

    package init(typeName: String, cases: [String], documentation: [String: String] = [:]) {
        self.typeName = typeName
        self.cases = cases
        self.documentation = documentation
    }
}

/// A field's resolved type.
package indirect enum FieldType: Sendable, Hashable, CustomStringConvertible {
    /// One value of a scalar type: its facts (SyncCore's `ScalarType.facts`) say the rest.
    case scalar(ScalarType)
    case reference(to: String, onDelete: DeleteActionName)
    case list(of: FieldType)

    package var description: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .reference(let target, _): "reference to \(target)"
        case .list(let element): "list of \(element)"
        }
    }

    /// The scalar type, when it is one.
    package var scalar: ScalarType? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The scalar type its values are of: its own, or its list's element's; nil for references.
    package var valueScalar: ScalarType? {
        switch self {
        case .scalar(let scalar): scalar
        case .list(let element): element.valueScalar
        case .reference: nil
        }
    }

    package var isReferenceOrListOfReferences: Bool {
        switch self {
        case .reference: true
        case .list(let element): element.isReferenceOrListOfReferences
        default: false
        }
    }

    /// The model a reference (or list of references) points at.
    package var referenceTarget: String? {
        switch self {
        case .reference(let target, _): target
        case .list(let element): element.referenceTarget
        default: nil
        }
    }
}

extension FieldType {
    /// The type's word in the schema language.
    var kind: FieldKind {
        switch self {
        case .scalar(let scalar): .scalar(scalar)
        case .reference: .reference
        case .list: .list
        }
    }

    /// "a" or "an", before the type's word.
    var article: String {
        scalar?.facts.article ?? "a"
    }
}

/// A field's declared default value.
package indirect enum FieldDefault: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// A fixed moment, in seconds since 1970-01-01T00:00:00Z.
    case date(secondsSince1970: Double)
    /// `default: now`: the moment the value is created.
    case now
    /// One of an `enum` field's cases, by its name.
    case enumCase(String)
    case list([FieldDefault])
}
