import Testing
import SyncCore
import SyncGenerator

/// One broken rule: a schema that breaks it, and exactly the diagnostics it must produce.
struct FailingCase: CustomTestStringConvertible, Sendable {
    var code: DiagnosticCode
    var yaml: String
    var expected: [Finding]

    init(_ code: DiagnosticCode, _ yaml: String, _ expected: Finding...) {
        self.code = code
        self.yaml = yaml
        self.expected = expected
    }

    var testDescription: String { "\(code.rawValue) \(code)" }
}

extension Finding: @unchecked Sendable {}

/// A field declaration inside a one-model schema (`models: A: fields:` on lines 1-3, the field on
/// line 4), so that columns in the table below read straight off the field line.
private func field(_ line: String) -> String {
    "models:\n  A:\n    fields:\n" + line + "\n"
}

/// A model whose extra keys sit on line 3.
private func model(_ keys: String, fields: String = "    fields: {}") -> String {
    "models:\n  A:\n" + keys + "\n" + fields + "\n"
}

let failingCases: [FailingCase] = [
    // Rule 1: YAML and file structure.
    FailingCase(.yamlSyntax, "models:\n  A:\n    fields: [a\n", Finding(.yamlSyntax, line: 4, column: 1)),
    FailingCase(.fileNotMapping, "- a\n- b\n", Finding(.fileNotMapping, line: 1, column: 1)),
    FailingCase(.wrongValueKind, model("    shareable: yes"), Finding(.wrongValueKind, line: 3, column: 16)),
    // A description is text, not a list, and not empty; a case is a name, or a name and its words.
    FailingCase(.wrongValueKind, model("    description: [a]"), Finding(.wrongValueKind, line: 3, column: 18)),
    FailingCase(.wrongValueKind, field("      a: { type: string, description: \"\" }"), Finding(.wrongValueKind, line: 4, column: 39)),
    FailingCase(.wrongValueKind, field("      a: { type: enum, cases: [a, [x]] }"), Finding(.wrongValueKind, line: 4, column: 35)),
    // `deprecated` is true, false, or what to use instead.
    FailingCase(.wrongValueKind, field("      a: { type: string, deprecated: [x] }"), Finding(.wrongValueKind, line: 4, column: 38)),
    FailingCase(.duplicateKey, "models:\n  A:\n    fields: {}\n    fields: {}\n", Finding(.duplicateKey, line: 4, column: 5)),
    FailingCase(.mergeKeyUnsupported, "x-base: &b {}\nmodels:\n  A:\n    <<: *b\n    fields: {}\n", Finding(.mergeKeyUnsupported, line: 4, column: 5)),
    FailingCase(.tagUnsupported, model("    recordType: !!str B"), Finding(.tagUnsupported, line: 3, column: 17)),
    FailingCase(.multipleDocuments, "models: {}\n---\nmodels: {}\n", Finding(.multipleDocuments, line: 2, column: 1)),
    FailingCase(.nestingTooDeep, "models: " + String(repeating: "[", count: 100), Finding(.nestingTooDeep, line: 1, column: 72)),
    FailingCase(.emptyFile, "", Finding(.emptyFile, .warning, line: 1, column: 1)),
    FailingCase(.unsupportedVersion, "version: 2\nmodels: {}\n", Finding(.unsupportedVersion, line: 1, column: 10)),
    FailingCase(.missingRequiredKey, "models:\n  A:\n    scopes: [private]\n", Finding(.missingRequiredKey, line: 2, column: 3)),
    FailingCase(.aliasExpansionTooLarge, billionLaughs, Finding(.aliasExpansionTooLarge, line: 8, column: 12)),
    FailingCase(.unknownAnchor, "models:\n  A:\n    fields: *nope\n", Finding(.unknownAnchor, line: 3, column: 13)),
    // Rule 2: keys.
    FailingCase(.unknownKey, model("    sharable: true"), Finding(.unknownKey, line: 3, column: 5)),
    // Rule 3: names.
    FailingCase(.invalidModelName, "models:\n  My-Model:\n    recordType: MyModel\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    FailingCase(.invalidModelName, "models:\n  SyncSchema:\n    recordType: Schema\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    // Generated code qualifies with the rules module's name: a model of that name would shadow it.
    FailingCase(.invalidModelName, "models:\n  SyncCore:\n    recordType: Core\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    // Words Swift reads as keywords where a type is written: `extension each:` does not parse.
    FailingCase(.invalidModelName, "models:\n  each:\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    FailingCase(.invalidModelName, "models:\n  some:\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    // Member types of generated models: a model of that name is what they would mean inside other
    // models' code (a reference to a model `Projection` in a draft would point at its projection).
    FailingCase(.invalidModelName, "models:\n  ID:\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    FailingCase(.invalidModelName, "models:\n  Projection:\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    // `SyncSchema.models` lists the models: `[models.self]` there would be the list itself.
    FailingCase(.invalidModelName, "models:\n  models:\n    fields: {}\n", Finding(.invalidModelName, line: 2, column: 3)),
    FailingCase(.modelNameNotCapitalized, "models:\n  note:\n    fields: {}\n", Finding(.modelNameNotCapitalized, .warning, line: 2, column: 3)),
    FailingCase(.invalidRecordTypeName, model("    recordType: 1A"), Finding(.invalidRecordTypeName, line: 3, column: 17)),
    FailingCase(.invalidFieldName, field("      _x: string"), Finding(.invalidFieldName, line: 4, column: 7)),
    // A record key is a field name as CloudKit sees it: the same rules, said at the key.
    FailingCase(.invalidFieldName, field("      x: { type: string, recordKey: my-key }"), Finding(.invalidFieldName, line: 4, column: 37)),
    // The parent's field would be what `[Item.self]` means inside the generated `List`.
    FailingCase(.childNameHiddenInParent, "models:\n  List:\n    fields:\n      Item: string\n  Item:\n    parent: List\n    fields: {}\n", Finding(.childNameHiddenInParent, line: 5, column: 3)),
    FailingCase(.invalidZoneName, model("    zone: _Personal"), Finding(.invalidZoneName, line: 3, column: 11)),
    // A lower-case child could be hidden by a member every model has (`recordType`).
    FailingCase(.childNameHiddenInParent, "models:\n  List:\n    fields: {}\n  recordType:\n    recordType: Entry\n    parent: List\n    fields: {}\n", Finding(.modelNameNotCapitalized, .warning, line: 4, column: 3), Finding(.childNameHiddenInParent, line: 4, column: 3)),
    FailingCase(.reservedFieldName, field("      Type: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    // Inside the model's code, `\Self.title` would mean the field.
    FailingCase(.reservedFieldName, field("      Self: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    // `\Self.ID` means the member type `ID` (Identifiable's), never a field.
    FailingCase(.reservedFieldName, field("      ID: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    // Hashable's synthesized `hashValue`: a field of that name redeclares it.
    FailingCase(.reservedFieldName, field("      hashValue: int"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      Protocol: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      Foundation: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      Swift: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      SyncCore: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    // Rule 4: reserved names.
    FailingCase(.reservedFieldName, field("      ownerName: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      shareTitle: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      id: string"), Finding(.reservedFieldName, line: 4, column: 7)),
    FailingCase(.reservedFieldName, field("      x: { type: string, recordKey: clientModifiedAt }"), Finding(.reservedFieldName, line: 4, column: 37)),
    FailingCase(.reservedFieldName, field("      x: { type: string, recordKey: assetData }"), Finding(.reservedFieldName, line: 4, column: 37)),
    FailingCase(.reservedRecordTypeName, "models:\n  Users:\n    fields: {}\n", Finding(.reservedRecordTypeName, line: 2, column: 3)),
    FailingCase(.reservedRecordTypeName, "models:\n  SyncgenZoneMove:\n    fields: {}\n", Finding(.reservedRecordTypeName, line: 2, column: 3)),
    // Rule 5: duplicates.
    FailingCase(.duplicateModel, "models:\n  A:\n    fields: {}\n  A:\n    fields: {}\n", Finding(.duplicateModel, line: 4, column: 3)),
    FailingCase(.duplicateRecordType, "models:\n  A:\n    fields: {}\n  B:\n    recordType: A\n    fields: {}\n", Finding(.duplicateRecordType, line: 5, column: 17)),
    FailingCase(.duplicateField, field("      x: string\n      x: int"), Finding(.duplicateField, line: 5, column: 7)),
    // Two fields stored under one key, said at the key that was written.
    FailingCase(.duplicateField, field("      x: string\n      y: { type: string, recordKey: x }"), Finding(.duplicateField, line: 5, column: 37)),
    FailingCase(.duplicateField, field("      y: { type: string, recordKey: x }\n      x: string"), Finding(.duplicateField, line: 4, column: 37)),
    // Rule 6: types.
    FailingCase(.unknownReferenceTarget, field("      b: { type: reference, to: C }"), Finding(.unknownReferenceTarget, line: 4, column: 33)),
    FailingCase(.unknownType, field("      x: text"), Finding(.unknownType, line: 4, column: 10)),
    FailingCase(.modelNameUsedAsType, field("      x: A"), Finding(.modelNameUsedAsType, line: 4, column: 10)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: int, default: 1.5 }"), Finding(.defaultTypeMismatch, line: 4, column: 32)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: double, default: 1e-400 }"), Finding(.defaultTypeMismatch, line: 4, column: 35)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: double, default: -2.5e400 }"), Finding(.defaultTypeMismatch, line: 4, column: 35)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: date, default: 2024-02-30 }"), Finding(.defaultTypeMismatch, line: 4, column: 33)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: date, default: 2023-02-29T25:61:61Z }"), Finding(.defaultTypeMismatch, line: 4, column: 33)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: date, default: 2024-13-01 }"), Finding(.defaultTypeMismatch, line: 4, column: 33)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: date, default: 2024-04-31T10:00:00Z }"), Finding(.defaultTypeMismatch, line: 4, column: 33)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: date, default: 2024-05-01T12:00:00+24:00 }"), Finding(.defaultTypeMismatch, line: 4, column: 33)),
    FailingCase(.missingReferenceTarget, field("      x: { type: reference }"), Finding(.missingReferenceTarget, line: 4, column: 18)),
    FailingCase(.referenceTargetOnNonReference, field("      x: { type: string, to: A }"), Finding(.referenceTargetOnNonReference, line: 4, column: 30)),
    FailingCase(.missingListElementType, field("      x: { type: list }"), Finding(.missingListElementType, line: 4, column: 18)),
    FailingCase(.elementTypeOnNonList, field("      x: { type: string, of: int }"), Finding(.elementTypeOnNonList, line: 4, column: 30)),
    FailingCase(.nestedList, field("      x: { type: list, of: list }"), Finding(.nestedList, line: 4, column: 28)),
    FailingCase(.listOfAssets, field("      x: { type: list, of: asset }"), Finding(.listOfAssets, line: 4, column: 28)),
    FailingCase(.onDeleteOnNonReference, field("      x: { type: int, onDelete: none }"), Finding(.onDeleteOnNonReference, line: 4, column: 33)),
    FailingCase(.unknownDeleteAction, field("      x: { type: reference, to: A, onDelete: cascade }"), Finding(.unknownDeleteAction, line: 4, column: 46)),
    // A second asset field travels under its own name before the deployed keys: a field of
    // such a name is refused in its model, and so is an asset field whose keys grow too long.
    FailingCase(.reservedFieldName, field("      a: asset\n      b: asset\n      bAssetSize: int"), Finding(.reservedFieldName, line: 6, column: 7)),
    // A renamed asset travels under its record key's keys; a field stored under one is refused.
    FailingCase(.reservedFieldName, field("      a: asset\n      b: { type: asset, recordKey: c }\n      n: { type: int, recordKey: cAssetSize }"), Finding(.reservedFieldName, line: 6, column: 34)),
    FailingCase(.invalidFieldName, field("      a: asset\n      b\(String(repeating: "x", count: 249)): asset"), Finding(.invalidFieldName, line: 5, column: 7)),
    FailingCase(.defaultNotSupported, field("      x: { type: data, default: abc, maxBytes: 8 }"), Finding(.defaultNotSupported, line: 4, column: 33)),
    FailingCase(.defaultNotSupported, field("      x: { type: url, default: \"https://example.com\" }"), Finding(.defaultNotSupported, line: 4, column: 32)),
    FailingCase(.missingEnumCases, field("      x: enum"), Finding(.missingEnumCases, line: 4, column: 10)),
    FailingCase(.missingEnumCases, field("      x: { type: list, of: enum, cases: [], merge: union }"), Finding(.missingEnumCases, line: 4, column: 41)),
    FailingCase(.invalidEnumCase, field("      x: { type: enum, cases: [in-progress] }"), Finding(.invalidEnumCase, line: 4, column: 32)),
    FailingCase(.invalidEnumCase, field("      x: { type: enum, cases: [a, unknown] }"), Finding(.invalidEnumCase, line: 4, column: 35)),
    FailingCase(.invalidEnumCase, field("      x: { type: enum, cases: [a, b, a] }"), Finding(.invalidEnumCase, line: 4, column: 38)),
    FailingCase(.casesOnNonEnum, field("      x: { type: string, cases: [a] }"), Finding(.casesOnNonEnum, line: 4, column: 33)),
    FailingCase(.referenceAcrossZones, "models:\n  B:\n    fields: {}\n  A:\n    zone: Personal\n    fields:\n      b: { type: reference, to: B }\n", Finding(.referenceAcrossZones, line: 7, column: 33)),
    FailingCase(.defaultTypeMismatch, field("      x: { type: enum, cases: [a, b], default: c }"), Finding(.defaultTypeMismatch, line: 4, column: 48)),
    FailingCase(.defaultNotSupported, field("      x: { type: list, of: uuid, merge: union, default: [] }"), Finding(.defaultNotSupported, line: 4, column: 57)),
    FailingCase(.referenceAcrossDatabases, "models:\n  P:\n    scopes: [public]\n    fields: {}\n  A:\n    fields:\n      x: { type: reference, to: P }\n", Finding(.referenceAcrossDatabases, line: 7, column: 33)),
    FailingCase(.referenceAcrossScopes, "models:\n  P:\n    scopes: [private, shared]\n    fields: {}\n  A:\n    fields:\n      x: { type: reference, to: P }\n", Finding(.referenceAcrossScopes, .warning, line: 7, column: 33)),
    // Rule 7: scopes.
    FailingCase(.invalidScopeSet, model("    scopes: [shared]"), Finding(.invalidScopeSet, line: 3, column: 13)),
    // trap: T7.3
    FailingCase(.privateAndPublicScopes, model("    scopes: [private, public]"), Finding(.privateAndPublicScopes, line: 3, column: 13)),
    FailingCase(.unknownScope, model("    scopes: [privat]"), Finding(.unknownScope, line: 3, column: 14)),
    FailingCase(.repeatedScope, model("    scopes: [private, private]"), Finding(.repeatedScope, .warning, line: 3, column: 23)),
    // Rule 8: sharing.
    FailingCase(.shareableWithoutSharedScope, model("    shareable: true"), Finding(.shareableWithoutSharedScope, line: 3, column: 16)),
    FailingCase(.unknownParent, model("    parent: B"), Finding(.unknownParent, line: 3, column: 13)),
    FailingCase(.parentScopeMismatch, "models:\n  Root:\n    scopes: [private, shared]\n    fields: {}\n  Child:\n    parent: Root\n    fields: {}\n", Finding(.parentScopeMismatch, line: 6, column: 13)),
    FailingCase(.publicParent, "models:\n  Pub:\n    scopes: [public]\n    fields: {}\n  Child:\n    parent: Pub\n    fields: {}\n", Finding(.publicParent, line: 6, column: 13)),
    FailingCase(.parentCycle, "models:\n  A:\n    parent: B\n    fields: {}\n  B:\n    parent: A\n    fields: {}\n", Finding(.parentCycle, line: 3, column: 13)),
    FailingCase(.childZoneMismatch, "models:\n  Root:\n    zone: Personal\n    fields: {}\n  Child:\n    parent: Root\n    fields: {}\n", Finding(.childZoneMismatch, line: 6, column: 13)),
    // Rule 9: publishing.
    FailingCase(.unknownProjection, model("    publishAs: Nope"), Finding(.unknownProjection, line: 3, column: 16)),
    FailingCase(.projectionNotPublic, "models:\n  Draft:\n    publishAs: Other\n    fields: {}\n  Other:\n    fields: {}\n", Finding(.projectionNotPublic, line: 3, column: 16)),
    FailingCase(
        .projectionIsDraft,
        "models:\n  Draft:\n    publishAs: Proj\n    fields: {}\n  Proj:\n    scopes: [public]\n    publishAs: Pub2\n    fields: {}\n  Pub2:\n    scopes: [public]\n    fields: {}\n",
        Finding(.projectionIsDraft, line: 3, column: 16), Finding(.draftNotPrivate, line: 7, column: 16)),
    FailingCase(.draftNotPrivate, "models:\n  Pub:\n    scopes: [public]\n    publishAs: Pub2\n    fields: {}\n  Pub2:\n    scopes: [public]\n    fields: {}\n", Finding(.draftNotPrivate, line: 4, column: 16)),
    FailingCase(.projectionFieldMissingInDraft, publishing(projectionFields: "      title: string\n      summary: string"), Finding(.projectionFieldMissingInDraft, line: 10, column: 7)),
    FailingCase(.projectionFieldTypeMismatch, publishing(projectionFields: "      title: int"), Finding(.projectionFieldTypeMismatch, line: 9, column: 14)),
    FailingCase(.projectionFieldOptionalityMismatch, publishing(projectionFields: "      title: { type: string, optional: true }"), Finding(.projectionFieldOptionalityMismatch, line: 9, column: 40)),
    FailingCase(.projectionSharedByDrafts, "models:\n  D1:\n    publishAs: P\n    fields: {}\n  D2:\n    publishAs: P\n    fields: {}\n  P:\n    scopes: [public]\n    fields: {}\n", Finding(.projectionSharedByDrafts, line: 6, column: 16)),
    // Rule 10: catalogs.
    FailingCase(.catalogOnNonPublicModel, model("    catalog: { initialState: listed }"), Finding(.catalogOnNonPublicModel, line: 3, column: 5)),
    FailingCase(.unknownDesiredKey, catalog("{ desiredKeys: [titel] }"), Finding(.unknownDesiredKey, line: 4, column: 30)),
    FailingCase(.assetAsDesiredKey, catalog("{ desiredKeys: [cover] }"), Finding(.assetAsDesiredKey, line: 4, column: 30)),
    FailingCase(.unknownInitialState, catalog("{ initialState: hidden, governed: true }"), Finding(.unknownInitialState, line: 4, column: 30)),
    FailingCase(.initialStateWithoutGovernance, catalog("{ initialState: delisted }"), Finding(.initialStateWithoutGovernance, .warning, line: 4, column: 30)),
    FailingCase(.localOnlyDesiredKey, catalog("{ desiredKeys: [draft] }"), Finding(.localOnlyDesiredKey, .warning, line: 4, column: 30)),
    // Rule 11: encryption.
    FailingCase(.encryptedReference, field("      x: { type: reference, to: A, encrypted: true }"), Finding(.encryptedReference, line: 4, column: 47)),
    FailingCase(.encryptedIndexed, field("      x: { type: string, encrypted: true, index: [queryable] }"), Finding(.encryptedIndexed, line: 4, column: 51)),
    FailingCase(.encryptedAssetRedundant, field("      x: { type: asset, encrypted: true }"), Finding(.encryptedAssetRedundant, .warning, line: 4, column: 36)),
    FailingCase(.encryptedInPublicModel, "models:\n  P:\n    scopes: [public]\n    fields:\n      x: { type: string, encrypted: true }\n", Finding(.encryptedInPublicModel, line: 5, column: 37)),
    // Rule 12: local-only and server-owned fields.
    FailingCase(.localOnlyAndServerOwned, field("      x: { type: string, localOnly: true, serverOwned: true }"), Finding(.localOnlyAndServerOwned, line: 4, column: 56)),
    FailingCase(.deviceFieldEncrypted, field("      x: { type: string, localOnly: true, encrypted: true }"), Finding(.deviceFieldEncrypted, line: 4, column: 54)),
    FailingCase(.deviceFieldIndexed, field("      x: { type: string, serverOwned: true, index: [queryable] }"), Finding(.deviceFieldIndexed, line: 4, column: 53)),
    // Rule 13: indexes.
    FailingCase(.searchableNonString, field("      x: { type: int, index: [searchable] }"), Finding(.searchableNonString, line: 4, column: 31)),
    FailingCase(.sortableUnsupported, field("      x: { type: location, index: [sortable] }"), Finding(.sortableUnsupported, line: 4, column: 36)),
    FailingCase(.unknownIndex, field("      x: { type: int, index: [fast] }"), Finding(.unknownIndex, line: 4, column: 31)),
    // Rule 14: public models.
    FailingCase(.publicShareable, "models:\n  P:\n    scopes: [public]\n    shareable: true\n    fields: {}\n", Finding(.publicShareable, line: 4, column: 16)),
    FailingCase(.publicWithParent, "models:\n  R:\n    fields: {}\n  P:\n    scopes: [public]\n    parent: R\n    fields: {}\n", Finding(.publicWithParent, line: 6, column: 13)),
    FailingCase(.publicModelZone, model("    scopes: [public]\n    zone: Recipes"), Finding(.publicModelZone, line: 4, column: 11)),
    // Rule 16: natural keys and merges.
    FailingCase(.unknownKeyField, model("    unique: [title, colour]", fields: "    fields:\n      title: string\n      color: string"), Finding(.unknownKeyField, line: 3, column: 21)),
    FailingCase(.unknownKeyField, model("    unique: [[]]", fields: "    fields:\n      title: string"), Finding(.unknownKeyField, line: 3, column: 14)),
    FailingCase(.keyFieldNotShared, model("    unique: [code]", fields: "    fields:\n      code: { type: string, localOnly: true }"), Finding(.keyFieldNotShared, line: 3, column: 14)),
    FailingCase(.keyFieldNotShared, model("    unique: [code]", fields: "    fields:\n      code: { type: string, encrypted: true }"), Finding(.keyFieldNotShared, line: 3, column: 14)),
    FailingCase(.keyFieldNotComparable, model("    unique: [weight]", fields: "    fields:\n      weight: double"), Finding(.keyFieldNotComparable, line: 3, column: 14)),
    FailingCase(.keyFieldNotComparable, model("    unique: [[tags]]", fields: "    fields:\n      tags: { type: list, of: string, merge: union }"), Finding(.keyFieldNotComparable, line: 3, column: 15)),
    FailingCase(.uniqueOnPublicModel, model("    scopes: [public]\n    unique: [title]", fields: "    fields:\n      title: string"), Finding(.uniqueOnPublicModel, line: 4, column: 13)),
    FailingCase(.repeatedKeyField, model("    unique: [title, title]", fields: "    fields:\n      title: string"), Finding(.repeatedKeyField, .warning, line: 3, column: 21)),
    FailingCase(.repeatedKeyField, model("    unique: [[title, kind], [kind, title]]", fields: "    fields:\n      title: string\n      kind: int"), Finding(.repeatedKeyField, .warning, line: 3, column: 29)),
    FailingCase(.wrongValueKind, model("    unique: [title, [kind]]", fields: "    fields:\n      title: string\n      kind: int"), Finding(.wrongValueKind, line: 3, column: 14)),
    FailingCase(.unknownMergePolicy, field("      x: { type: int, merge: maximum }"), Finding(.unknownMergePolicy, line: 4, column: 30)),
    FailingCase(.unknownMergePolicy, model("    merge: lastWriter"), Finding(.unknownMergePolicy, line: 3, column: 12)),
    FailingCase(.mergePolicyNotForType, field("      x: { type: string, merge: union }"), Finding(.mergePolicyNotForType, line: 4, column: 33)),
    FailingCase(.mergePolicyNotForType, field("      x: { type: bool, merge: max }"), Finding(.mergePolicyNotForType, line: 4, column: 31)),
    FailingCase(.mergePolicyNotForType, field("      x: { type: uuid, merge: min }"), Finding(.mergePolicyNotForType, line: 4, column: 31)),
    FailingCase(.searchableNonString, field("      x: { type: url, index: [searchable] }"), Finding(.searchableNonString, line: 4, column: 31)),
    FailingCase(.mergePolicyNotForType, model("    merge: union"), Finding(.mergePolicyNotForType, line: 3, column: 12)),
    FailingCase(.mergeOnDeviceField, field("      x: { type: int, serverOwned: true, merge: max }"), Finding(.mergeOnDeviceField, line: 4, column: 49)),
    FailingCase(.listWithoutMerge, field("      x: { type: list, of: string }"), Finding(.listWithoutMerge, .note, line: 4, column: 7)),
    FailingCase(.mergePolicyNotForType, field("      x: { type: string, merge: counter }"), Finding(.mergePolicyNotForType, line: 4, column: 33)),
    FailingCase(.mergePolicyNotForType, field("      x: { type: list, of: int, merge: counter }"), Finding(.mergePolicyNotForType, line: 4, column: 40)),
    FailingCase(.mergePolicyNotForType, model("    merge: counter"), Finding(.mergePolicyNotForType, line: 3, column: 12)),
    FailingCase(.mergePolicyNotForType, field("      x: { type: int, merge: text }"), Finding(.mergePolicyNotForType, line: 4, column: 30)),
    FailingCase(.mergeOnKeyField, model("    unique: [title]", fields: "    fields:\n      title: { type: string, merge: text }"), Finding(.mergeOnKeyField, line: 5, column: 37)),
    FailingCase(.mergeOnKeyField, model("    unique: [[label, count]]", fields: "    fields:\n      label: string\n      count: { type: int, merge: counter }"), Finding(.mergeOnKeyField, line: 6, column: 34)),
    // Rule 17: CloudKit's limits.
    FailingCase(.dataFieldUnbounded, field("      photo: data"), Finding(.dataFieldUnbounded, .warning, line: 4, column: 7)),
    FailingCase(.dataFieldUnbounded, field("      photos: { type: list, of: data, merge: union }"), Finding(.dataFieldUnbounded, .warning, line: 4, column: 7)),
    FailingCase(.maxBytesInvalid, field("      title: { type: string, maxBytes: 200 }"), Finding(.maxBytesInvalid, line: 4, column: 40)),
    FailingCase(.maxBytesInvalid, field("      hash: { type: data, maxBytes: 0 }"), Finding(.maxBytesInvalid, line: 4, column: 37)),
    FailingCase(.maxBytesInvalid, field("      hash: { type: data, maxBytes: 2000000 }"), Finding(.maxBytesInvalid, line: 4, column: 37)),
    FailingCase(.wrongValueKind, field("      hash: { type: string, maxBytes: big }"), Finding(.wrongValueKind, line: 4, column: 39)),
    FailingCase(.recordMayExceedLimit, "models:\n  A:\n    fields:\n      a: { type: data, maxBytes: 600000 }\n      b: { type: data, maxBytes: 600000 }\n", Finding(.recordMayExceedLimit, .warning, line: 2, column: 3)),
]

/// A draft with one `title: string` field publishing into `Proj`, whose fields start on line 9.
private func publishing(projectionFields: String) -> String {
    "models:\n  Draft:\n    publishAs: Proj\n    fields:\n      title: string\n  Proj:\n    scopes: [public]\n    fields:\n" + projectionFields + "\n"
}

/// A public model with an asset and a local-only field, whose catalog sits on line 4.
private func catalog(_ block: String) -> String {
    "models:\n  P:\n    scopes: [public]\n    catalog: " + block + "\n    fields:\n      title: string\n      cover: asset\n      draft: { type: string, localOnly: true }\n"
}

/// Nine levels of nine aliases each: 9^9 nodes once expanded.
let billionLaughs = "a: &a [1, 2]\n" + (0..<8).map { level -> String in
    let name = String(UnicodeScalar(UInt8(98 + level)))
    let previous = String(UnicodeScalar(UInt8(97 + level)))
    return "\(name): &\(name) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ", ") + "]\n"
}.joined()

@Suite("Validator rules: each broken rule reports its code at its place")
struct ValidationRuleTests {
    @Test(arguments: failingCases)
    func brokenRuleIsReported(_ rule: FailingCase) {
        let result = validate(rule.yaml)
        #expect(result.findings == rule.expected, "\(result.rendered)")
        if rule.expected.contains(where: { $0.severity == .error }) {
            #expect(result.schema == nil)
        }
    }

    /// A description in each of its places, in each form YAML writes text, is valid: the
    /// passing side of the rule above.
    @Test func descriptionsInEveryPlaceAreValid() {
        let result = validate("""
            models:
              A:
                description: "Quoted: with a colon."
                fields:
                  b: { type: string, description: Plain words. }
                  c:
                    type: enum
                    cases: [x, { y: What y means. }]
                    description: |
                      A block,
                      of two lines.
                  d: { type: int, description: 42, deprecated: Use b instead. }
                  e: { type: int, deprecated: true }
            """)
        #expect(result.findings.isEmpty, "\(result.rendered)")
        let fields = result.schema?.models.first?.fields ?? []
        #expect(result.schema?.models.first?.documentation == "Quoted: with a colon.")
        #expect(fields.map(\.documentation) == ["Plain words.", "A block,\nof two lines.", "42", nil])
        #expect(fields[1].enumeration?.documentation == ["y": "What y means."])
        #expect(fields.map(\.deprecation) == [nil, nil, "Use b instead.", ""])
    }

    /// A default refused for its value says what is wrong with it, not only that it is wrong:
    /// the day a month lacks, the part out of range, a number too small or too large.
    @Test(arguments: [
        ("      x: { type: date, default: 2024-02-30 }", "is not a date: February 2024 has 29 days"),
        ("      x: { type: date, default: 2023-02-29T25:61:61Z }", "is not a date: February 2023 has 28 days"),
        ("      x: { type: date, default: 2024-02-29T25:00:00Z }", "is not a date: an hour is 00 to 23"),
        ("      x: { type: double, default: 1e-400 }", "is too small for a Double (the smallest is 4.9e-324) and would be 0"),
        ("      x: { type: double, default: 1e400 }", "is too large for a Double"),
    ])
    func aRefusedDefaultSaysWhy(_ line: String, _ reason: String) {  // trap: T21.8
        let result = validate(field(line))
        #expect(result.rendered.contains(reason), "\(result.rendered)")
    }

    /// A key longer than libyaml's 1,024 characters reads as a value whose ':' is out of place;
    /// the error says the key is too long, and how long it is. One of 1,024 is a key. Breaking it:
    /// passing libyaml's own words through says only "mapping values are not allowed".
    @Test func anOverlongKeySaysItIsTooLong() {
        let long = validate("models:\n  " + String(repeating: "A", count: 1_025) + ":\n    fields: {}\n")
        #expect(long.findings == [Finding(.yamlSyntax, line: 2, column: 1_028)])
        #expect(long.rendered.contains("this mapping key is 1025 characters long, and a key is at most 1024"), "\(long.rendered)")
        let longest = validate("x-" + String(repeating: "a", count: 1_022) + ": 1\nmodels:\n  A:\n    fields: {}\n")
        #expect(longest.findings.isEmpty, "\(longest.rendered)")
    }

    /// Several asset fields in one model are valid (SG0613, which refused them, is retired); a
    /// field beside them is too when its name is no asset's record key.
    @Test func aModelHoldsSeveralAssetFields() {
        let result = validate(field("      cover: asset\n      thumbnail: asset\n      bAssetSize: int\n      assetCount: int"))
        #expect(result.findings.isEmpty, "\(result.rendered)")
        let model = result.schema?.model(named: "A")
        #expect(model?.assetFields.map(\.recordKeys) == [.first, AssetRecordKeys(field: "thumbnail")])
        #expect(model?.assetFields.last?.recordKeys.all == ["thumbnailAssetData", "thumbnailAssetSuffix", "thumbnailAssetSize", "thumbnailAssetDigest"])
    }

    /// An unknown type that is another schema language's word for one of ours, or a misspelling of
    /// that word, suggests ours; a misspelling of ours suggests it. Breaking it (issue 57): the
    /// nearest spelling among our types alone, which for these is none.
    @Test(arguments: [("integer", "int"), ("integr", "int"), ("text", "string"), ("Boolean", "bool"), ("timestamp", "date"), ("strng", "string")])
    func anUnknownTypeSuggestsTheOneMeant(_ written: String, _ meant: String) {
        let result = validate(field("      x: \(written)"))
        #expect(result.findings == [Finding(.unknownType, line: 4, column: 10)])
        #expect(result.rendered.contains("did you mean '\(meant)'?"), "\(result.rendered)")
    }

    /// A merge policy a field's type does not take says which it does. Breaking it (issue 57):
    /// the message says only why not.
    @Test func aMergePolicyTheTypeDoesNotTakeNamesThoseItDoes() {
        let result = validate(field("      x: { type: int, merge: union }"))
        #expect(result.findings.map(\.code) == [.mergePolicyNotForType])
        #expect(result.rendered.contains("an int takes 'lastWriterWins', 'serverWins', 'clientWins', 'max', 'min', 'counter' or 'custom'"), "\(result.rendered)")
    }

    /// Validation codes are covered here, schema-evolution codes by `evolutionCases`.
    @Test func everyCodeHasAFailingCase() {
        let covered = Set(failingCases.flatMap { $0.expected.map(\.code) } + evolutionCases.flatMap(\.codes))
        let missing = DiagnosticCode.allCases.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "codes without a failing case: \(missing.map(\.rawValue))")
    }
}
