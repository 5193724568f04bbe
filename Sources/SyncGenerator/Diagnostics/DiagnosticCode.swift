/// Every diagnostic syncgen can report, with its stable code.
///
/// Codes read `SG` + rule number (two digits, as numbered in the schema-language contract) + a
/// running number. A code never changes meaning once released; retired codes are not reused.
/// docs/SchemaReference.md lists them all (a test keeps the two in step).
package enum DiagnosticCode: String, CaseIterable, Sendable, Hashable, Comparable {
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
    case invalidZoneName = "SG0306"
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
    // SG0613 (more than one asset field in a model) is retired: a model may hold several.
    case defaultNotSupported = "SG0614"
    case referenceAcrossDatabases = "SG0615"
    case referenceAcrossScopes = "SG0616"
    case missingEnumCases = "SG0617"
    case invalidEnumCase = "SG0618"
    case casesOnNonEnum = "SG0619"
    case referenceAcrossZones = "SG0620"
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
    case childZoneMismatch = "SG0806"
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
    case publicModelZone = "SG1403"
    // Schema evolution (against a baseline: CloudKit's production schema only grows).
    case recordTypeRemoved = "SG1501"
    case fieldRemoved = "SG1502"
    case fieldTypeChanged = "SG1503"
    case databaseChanged = "SG1504"
    case encryptionChanged = "SG1505"
    case requiredFieldAdded = "SG1506"
    case uniqueKeyAdded = "SG1507"
    case enumCaseRemoved = "SG1508"
    case fieldNarrowed = "SG1509"
    case assetKeysMoved = "SG1510"
    case zoneChanged = "SG1511"
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
    case mergeOnKeyField = "SG1610"
    // Rule 17: CloudKit's limits.
    case dataFieldUnbounded = "SG1701"
    case maxBytesInvalid = "SG1702"
    case recordMayExceedLimit = "SG1703"

    package static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Warnings are problems that do not stop generation; notes are advice on a schema that is
    /// fine as it is, which a schema silences by saying what it wants; everything else is an
    /// error.
    package var severity: Severity { facts.severity }

    /// One line saying what the code is about, for the reference table and `--help`-style listings.
    package var summary: String { facts.summary }

    /// What syncgen says of the code: one record each, in `Codes/`, grouped as the rules are. The
    /// compiler asks for one for every code.
    var facts: DiagnosticFacts {
        switch self {
        case .yamlSyntax: .yamlSyntax
        case .fileNotMapping: .fileNotMapping
        case .wrongValueKind: .wrongValueKind
        case .duplicateKey: .duplicateKey
        case .mergeKeyUnsupported: .mergeKeyUnsupported
        case .tagUnsupported: .tagUnsupported
        case .multipleDocuments: .multipleDocuments
        case .nestingTooDeep: .nestingTooDeep
        case .emptyFile: .emptyFile
        case .unsupportedVersion: .unsupportedVersion
        case .missingRequiredKey: .missingRequiredKey
        case .aliasExpansionTooLarge: .aliasExpansionTooLarge
        case .unknownAnchor: .unknownAnchor
        case .unknownKey: .unknownKey
        case .invalidModelName: .invalidModelName
        case .modelNameNotCapitalized: .modelNameNotCapitalized
        case .invalidRecordTypeName: .invalidRecordTypeName
        case .invalidFieldName: .invalidFieldName
        case .childNameHiddenInParent: .childNameHiddenInParent
        case .invalidZoneName: .invalidZoneName
        case .reservedFieldName: .reservedFieldName
        case .reservedRecordTypeName: .reservedRecordTypeName
        case .duplicateModel: .duplicateModel
        case .duplicateRecordType: .duplicateRecordType
        case .duplicateField: .duplicateField
        case .unknownReferenceTarget: .unknownReferenceTarget
        case .unknownType: .unknownType
        case .modelNameUsedAsType: .modelNameUsedAsType
        case .defaultTypeMismatch: .defaultTypeMismatch
        case .missingReferenceTarget: .missingReferenceTarget
        case .referenceTargetOnNonReference: .referenceTargetOnNonReference
        case .missingListElementType: .missingListElementType
        case .elementTypeOnNonList: .elementTypeOnNonList
        case .nestedList: .nestedList
        case .listOfAssets: .listOfAssets
        case .onDeleteOnNonReference: .onDeleteOnNonReference
        case .unknownDeleteAction: .unknownDeleteAction
        case .defaultNotSupported: .defaultNotSupported
        case .referenceAcrossDatabases: .referenceAcrossDatabases
        case .referenceAcrossScopes: .referenceAcrossScopes
        case .missingEnumCases: .missingEnumCases
        case .invalidEnumCase: .invalidEnumCase
        case .casesOnNonEnum: .casesOnNonEnum
        case .referenceAcrossZones: .referenceAcrossZones
        case .invalidScopeSet: .invalidScopeSet
        case .privateAndPublicScopes: .privateAndPublicScopes
        case .unknownScope: .unknownScope
        case .repeatedScope: .repeatedScope
        case .shareableWithoutSharedScope: .shareableWithoutSharedScope
        case .unknownParent: .unknownParent
        case .parentScopeMismatch: .parentScopeMismatch
        case .publicParent: .publicParent
        case .parentCycle: .parentCycle
        case .childZoneMismatch: .childZoneMismatch
        case .unknownProjection: .unknownProjection
        case .projectionNotPublic: .projectionNotPublic
        case .projectionIsDraft: .projectionIsDraft
        case .draftNotPrivate: .draftNotPrivate
        case .projectionFieldMissingInDraft: .projectionFieldMissingInDraft
        case .projectionFieldTypeMismatch: .projectionFieldTypeMismatch
        case .projectionFieldOptionalityMismatch: .projectionFieldOptionalityMismatch
        case .projectionSharedByDrafts: .projectionSharedByDrafts
        case .catalogOnNonPublicModel: .catalogOnNonPublicModel
        case .unknownDesiredKey: .unknownDesiredKey
        case .assetAsDesiredKey: .assetAsDesiredKey
        case .unknownInitialState: .unknownInitialState
        case .localOnlyDesiredKey: .localOnlyDesiredKey
        case .initialStateWithoutGovernance: .initialStateWithoutGovernance
        case .encryptedReference: .encryptedReference
        case .encryptedIndexed: .encryptedIndexed
        case .encryptedAssetRedundant: .encryptedAssetRedundant
        case .encryptedInPublicModel: .encryptedInPublicModel
        case .localOnlyAndServerOwned: .localOnlyAndServerOwned
        case .deviceFieldEncrypted: .deviceFieldEncrypted
        case .deviceFieldIndexed: .deviceFieldIndexed
        case .searchableNonString: .searchableNonString
        case .sortableUnsupported: .sortableUnsupported
        case .unknownIndex: .unknownIndex
        case .publicShareable: .publicShareable
        case .publicWithParent: .publicWithParent
        case .publicModelZone: .publicModelZone
        case .recordTypeRemoved: .recordTypeRemoved
        case .fieldRemoved: .fieldRemoved
        case .fieldTypeChanged: .fieldTypeChanged
        case .databaseChanged: .databaseChanged
        case .encryptionChanged: .encryptionChanged
        case .requiredFieldAdded: .requiredFieldAdded
        case .uniqueKeyAdded: .uniqueKeyAdded
        case .enumCaseRemoved: .enumCaseRemoved
        case .fieldNarrowed: .fieldNarrowed
        case .assetKeysMoved: .assetKeysMoved
        case .zoneChanged: .zoneChanged
        case .unknownKeyField: .unknownKeyField
        case .keyFieldNotShared: .keyFieldNotShared
        case .keyFieldNotComparable: .keyFieldNotComparable
        case .uniqueOnPublicModel: .uniqueOnPublicModel
        case .repeatedKeyField: .repeatedKeyField
        case .unknownMergePolicy: .unknownMergePolicy
        case .mergePolicyNotForType: .mergePolicyNotForType
        case .mergeOnDeviceField: .mergeOnDeviceField
        case .listWithoutMerge: .listWithoutMerge
        case .mergeOnKeyField: .mergeOnKeyField
        case .dataFieldUnbounded: .dataFieldUnbounded
        case .maxBytesInvalid: .maxBytesInvalid
        case .recordMayExceedLimit: .recordMayExceedLimit
        }
    }
}
