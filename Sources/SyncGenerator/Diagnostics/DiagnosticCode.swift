/// Every diagnostic syncgen can report, with its stable code.
///
/// Codes read `SG` + rule number (two digits, as numbered in the schema-language contract) + a
/// running number. A code never changes meaning once released; retired codes are not reused.
/// docs/SchemaReference.md lists them all (a test keeps the two in step).
public enum DiagnosticCode: String, CaseIterable, Sendable, Hashable, Comparable {
    // Rule 1: YAML and file structure.
    case yamlSyntax = "SG0101"
    case fileNotMapping = "SG0102"
    case wrongValueKind = "SG0103"
    case duplicateKey = "SG0104"
    case mergeKeyUnsupported = "SG0105"
    case tagUnsupported = "SG0106"
    case multipleDocuments = "SG0107"
    case nestingTooDeep = "SG0108"
    case emptyFile = "SG0109"
    case unsupportedVersion = "SG0110"
    case missingRequiredKey = "SG0111"
    case aliasExpansionTooLarge = "SG0112"
    case unknownAnchor = "SG0113"
    // Rule 2: keys.
    case unknownKey = "SG0201"
    // Rule 3: names.
    case invalidModelName = "SG0301"
    case modelNameNotCapitalized = "SG0302"
    case invalidRecordTypeName = "SG0303"
    case invalidFieldName = "SG0304"
    case childNameHiddenInParent = "SG0305"
    // Rule 4: reserved names.
    case reservedFieldName = "SG0401"
    case reservedRecordTypeName = "SG0402"
    // Rule 5: duplicates.
    case duplicateModel = "SG0501"
    case duplicateRecordType = "SG0502"
    case duplicateField = "SG0503"
    // Rule 6: types.
    case unknownReferenceTarget = "SG0601"
    case unknownType = "SG0602"
    case modelNameUsedAsType = "SG0603"
    case defaultTypeMismatch = "SG0604"
    case missingReferenceTarget = "SG0605"
    case referenceTargetOnNonReference = "SG0606"
    case missingListElementType = "SG0607"
    case elementTypeOnNonList = "SG0608"
    case nestedList = "SG0609"
    case listOfAssets = "SG0610"
    case onDeleteOnNonReference = "SG0611"
    case unknownDeleteAction = "SG0612"
    case multipleAssetFields = "SG0613"
    case defaultNotSupported = "SG0614"
    case referenceAcrossDatabases = "SG0615"
    case referenceAcrossScopes = "SG0616"
    // Rule 7: scopes.
    case invalidScopeSet = "SG0701"
    case privateAndPublicScopes = "SG0702"
    case unknownScope = "SG0703"
    case repeatedScope = "SG0704"
    // Rule 8: sharing.
    case shareableWithoutSharedScope = "SG0801"
    case unknownParent = "SG0802"
    case parentScopeMismatch = "SG0803"
    case publicParent = "SG0804"
    case parentCycle = "SG0805"
    // Rule 9: publishing.
    case unknownProjection = "SG0901"
    case projectionNotPublic = "SG0902"
    case projectionIsDraft = "SG0903"
    case draftNotPrivate = "SG0904"
    case projectionFieldMissingInDraft = "SG0905"
    case projectionFieldTypeMismatch = "SG0906"
    case projectionFieldOptionalityMismatch = "SG0907"
    case projectionSharedByDrafts = "SG0908"
    // Rule 10: catalogs.
    case catalogOnNonPublicModel = "SG1001"
    case unknownDesiredKey = "SG1002"
    case assetAsDesiredKey = "SG1003"
    case unknownInitialState = "SG1004"
    case localOnlyDesiredKey = "SG1005"
    case initialStateWithoutGovernance = "SG1006"
    // Rule 11: encryption.
    case encryptedReference = "SG1101"
    case encryptedIndexed = "SG1102"
    case encryptedAssetRedundant = "SG1103"
    case encryptedInPublicModel = "SG1104"
    // Rule 12: local-only and server-owned fields.
    case localOnlyAndServerOwned = "SG1201"
    case deviceFieldEncrypted = "SG1202"
    case deviceFieldIndexed = "SG1203"
    // Rule 13: indexes.
    case searchableNonString = "SG1301"
    case sortableUnsupported = "SG1302"
    case unknownIndex = "SG1303"
    // Rule 14: public models.
    case publicShareable = "SG1401"
    case publicWithParent = "SG1402"
    // Schema evolution (against a baseline: CloudKit's production schema only grows).
    case recordTypeRemoved = "SG1501"
    case fieldRemoved = "SG1502"
    case fieldTypeChanged = "SG1503"
    case databaseChanged = "SG1504"
    case encryptionChanged = "SG1505"
    case requiredFieldAdded = "SG1506"
    case uniqueKeyAdded = "SG1507"
    // Rule 16: natural keys and merges.
    case unknownKeyField = "SG1601"
    case keyFieldNotShared = "SG1602"
    case keyFieldNotComparable = "SG1603"
    case uniqueOnPublicModel = "SG1604"
    case repeatedKeyField = "SG1605"
    case unknownMergePolicy = "SG1606"
    case mergePolicyNotForType = "SG1607"
    case mergeOnDeviceField = "SG1608"
    case listWithoutMerge = "SG1609"

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Warnings are problems that do not stop generation; notes are advice on a schema that is
    /// fine as it is, which a schema silences by saying what it wants; everything else is an
    /// error.
    public var severity: Severity {
        switch self {
        case .listWithoutMerge:
            .note
        case .emptyFile, .modelNameNotCapitalized, .referenceAcrossScopes, .repeatedScope,
            .localOnlyDesiredKey, .initialStateWithoutGovernance, .encryptedAssetRedundant, .requiredFieldAdded,
            .uniqueKeyAdded, .repeatedKeyField:
            .warning
        default:
            .error
        }
    }

    /// One line saying what the code is about, for the reference table and `--help`-style listings.
    public var summary: String {
        switch self {
        case .yamlSyntax: "the file is not valid YAML (or not valid UTF-8 text)"
        case .fileNotMapping: "the top level of a file is not a mapping"
        case .wrongValueKind: "a value has the wrong kind (mapping, list, text, number, true/false)"
        case .duplicateKey: "a key appears twice in one mapping"
        case .mergeKeyUnsupported: "YAML merge keys (`<<`) are not supported"
        case .tagUnsupported: "YAML tags (`!!str`, `!custom`) are not supported"
        case .multipleDocuments: "a file holds more than one YAML document"
        case .nestingTooDeep: "the YAML nests deeper than syncgen reads"
        case .emptyFile: "the file is empty or only comments"
        case .unsupportedVersion: "`version` is not 1"
        case .missingRequiredKey: "a required key (`models`, `fields`, `type`) is missing"
        case .aliasExpansionTooLarge: "aliases expand to more nodes than syncgen reads"
        case .unknownAnchor: "an alias names an anchor that is not defined before it"
        case .unknownKey: "a key syncgen does not know, with a suggestion when one is close"
        case .invalidModelName: "a model name is not a Swift type identifier, or is one generated code keeps"
        case .modelNameNotCapitalized: "a model name does not start with an upper-case letter"
        case .invalidRecordTypeName: "a record type name breaks CloudKit's naming rules"
        case .invalidFieldName: "a field name breaks CloudKit's naming rules"
        case .childNameHiddenInParent: "a child model is named like a member of its parent (a field, or a lower-case name)"
        case .reservedFieldName: "a field name is a CloudKit system field or one the runtime adds"
        case .reservedRecordTypeName: "a record type name is one CloudKit reserves"
        case .duplicateModel: "two models have one name"
        case .duplicateRecordType: "two models have one record type"
        case .duplicateField: "two fields of one model have one name"
        case .unknownReferenceTarget: "`to` names no model"
        case .unknownType: "a field type is not one of the schema's types"
        case .modelNameUsedAsType: "a model name is used as a field type (write a reference)"
        case .defaultTypeMismatch: "a `default` is not a literal of the field's type"
        case .missingReferenceTarget: "a reference (or list of references) has no `to`"
        case .referenceTargetOnNonReference: "`to` on a field that is not a reference"
        case .missingListElementType: "a list has no `of`"
        case .elementTypeOnNonList: "`of` on a field that is not a list"
        case .nestedList: "a list of lists"
        case .listOfAssets: "a list of assets"
        case .onDeleteOnNonReference: "`onDelete` on a field that is not a reference"
        case .unknownDeleteAction: "`onDelete` is not `none` or `deleteSelf`"
        case .multipleAssetFields: "more than one asset field in one model"
        case .defaultNotSupported: "a `default` on a type that cannot have one"
        case .referenceAcrossDatabases: "a reference between a public and a non-public model"
        case .referenceAcrossScopes: "a reference to a model that cannot live in the same zones"
        case .invalidScopeSet: "`scopes` is not one of the allowed sets"
        case .privateAndPublicScopes: "`scopes: [private, public]` (use `publishAs`)"
        case .unknownScope: "a scope that is not `private`, `shared` or `public`"
        case .repeatedScope: "a scope listed twice"
        case .shareableWithoutSharedScope: "`shareable` without `shared` in scopes"
        case .unknownParent: "`parent` names no model"
        case .parentScopeMismatch: "a parent's scopes differ from its child's"
        case .publicParent: "a parent that is a public model"
        case .parentCycle: "parent chains form a cycle"
        case .unknownProjection: "`publishAs` names no model"
        case .projectionNotPublic: "a `publishAs` target whose scopes are not exactly `[public]`"
        case .projectionIsDraft: "a `publishAs` target that is itself a draft"
        case .draftNotPrivate: "a public model with `publishAs`"
        case .projectionFieldMissingInDraft: "a projection field the draft does not have (it would never be published)"
        case .projectionFieldTypeMismatch: "a projection field whose type differs from the draft's"
        case .projectionFieldOptionalityMismatch: "a projection field whose optionality differs from the draft's"
        case .projectionSharedByDrafts: "two drafts publish into one projection"
        case .catalogOnNonPublicModel: "`catalog` on a model that is not `[public]`"
        case .unknownDesiredKey: "a desired key names no field"
        case .assetAsDesiredKey: "an asset field as a desired key (asset contents are never fetched by catalog queries)"
        case .unknownInitialState: "`initialState` is not `listed` or `delisted`"
        case .localOnlyDesiredKey: "a desired key names a local-only field, which is never uploaded"
        case .initialStateWithoutGovernance: "`initialState` on a catalog that is not `governed`, which has no publication state"
        case .encryptedReference: "an encrypted reference or list of references"
        case .encryptedIndexed: "an encrypted field with an `index`"
        case .encryptedAssetRedundant: "`encrypted` on an asset, which is always encrypted"
        case .encryptedInPublicModel: "an encrypted field in a public model"
        case .localOnlyAndServerOwned: "a field both `localOnly` and `serverOwned`"
        case .deviceFieldEncrypted: "a `localOnly` or `serverOwned` field that is `encrypted`"
        case .deviceFieldIndexed: "a `localOnly` or `serverOwned` field with an `index`"
        case .searchableNonString: "`searchable` on a field that is not a string or list of strings"
        case .sortableUnsupported: "`sortable` on data, asset, location, reference or list fields"
        case .unknownIndex: "an index that is not `queryable`, `sortable` or `searchable`"
        case .publicShareable: "a public model that is `shareable`"
        case .publicWithParent: "a public model with a `parent`"
        case .recordTypeRemoved: "a record type of the baseline is gone (removed or renamed)"
        case .fieldRemoved: "a field of the baseline is gone, or no longer uploaded"
        case .fieldTypeChanged: "a field's type, list element type or reference target changed"
        case .databaseChanged: "a model moved between the public database and the private and shared ones"
        case .encryptionChanged: "a field turned encrypted or unencrypted"
        case .requiredFieldAdded: "a new required field: records and app versions from before lack it"
        case .uniqueKeyAdded: "a new natural key: older app versions still create the duplicates it merges"
        case .unknownKeyField: "a `unique` key names no field of the model, or no field at all"
        case .keyFieldNotShared: "a `unique` key field that is `localOnly`, `serverOwned` or `encrypted`"
        case .keyFieldNotComparable: "a `unique` key field of a type that does not compare (`double`, `data`, `asset`, `location`, `list`)"
        case .uniqueOnPublicModel: "`unique` on a public model"
        case .repeatedKeyField: "a field named twice in one key, or one key given twice"
        case .unknownMergePolicy: "`merge` is not a merge policy"
        case .mergePolicyNotForType: "a merge policy the field's type does not take, or a field's policy on a model"
        case .mergeOnDeviceField: "`merge` on a `localOnly` or `serverOwned` field, which is never merged"
        case .listWithoutMerge: "a list field without `merge`: a conflict keeps one side's whole list"
        }
    }
}
