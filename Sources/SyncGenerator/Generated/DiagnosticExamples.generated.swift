// Generated from docs/DiagnosticExamples by ExplanationTests: do not edit. Edit those files,
// then run `SYNCGEN_UPDATE_GOLDENS=1 swift test --filter ExplanationTests`.

extension DiagnosticCode {
    /// The code's example schemas (``DiagnosticExamples``).
    var examples: DiagnosticExamples {
        switch self {
        case .yamlSyntax:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields: { title: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .fileNotMapping:
            DiagnosticExamples(
                failing: #"""
                - Note
                - Tag
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .wrongValueKind:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    scopes: [private, shared]
                    shareable: yes
                    fields: {}
                """#,
                fixed: #"""
                models:
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields: {}
                """#)
        case .duplicateKey:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    scopes: [private]
                    scopes: [private, shared]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    scopes: [private, shared]
                    fields: {}
                """#)
        case .mergeKeyUnsupported:
            DiagnosticExamples(
                failing: #"""
                x-text: &text { type: string, optional: true }
                models:
                  Note:
                    fields:
                      title:
                        <<: *text
                        optional: false
                """#,
                fixed: #"""
                x-text: &text { type: string, optional: true }
                models:
                  Note:
                    fields:
                      title: string
                      subtitle: *text
                """#)
        case .tagUnsupported:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    recordType: !!str Note
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    recordType: "Note"
                    fields: {}
                """#)
        case .multipleDocuments:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields: {}
                ---
                models:
                  Tag:
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    fields: {}
                  Tag:
                    fields: {}
                """#)
        case .nestingTooDeep:
            DiagnosticExamples(
                failing: #"""
                models: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .emptyFile:
            DiagnosticExamples(
                failing: #"""
                # Notes will go here.
                """#,
                fixed: #"""
                # Notes.
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .unsupportedVersion:
            DiagnosticExamples(
                failing: #"""
                version: 2
                models:
                  Note:
                    fields:
                      title: string
                """#,
                fixed: #"""
                version: 1
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .missingRequiredKey:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    scopes: [private]
                """#,
                fixed: #"""
                models:
                  Note:
                    scopes: [private]
                    fields: {}
                """#)
        case .aliasExpansionTooLarge:
            DiagnosticExamples(
                failing: #"""
                a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]
                b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
                c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
                d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
                e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
                f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
                g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
                h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
                models: {}
                """#,
                fixed: #"""
                x-text: &text { type: string, optional: true }
                models:
                  Note:
                    fields:
                      subtitle: *text
                """#)
        case .unknownAnchor:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      subtitle: *optionalText
                x-optional-text: &optionalText { type: string, optional: true }
                """#,
                fixed: #"""
                x-optional-text: &optionalText { type: string, optional: true }
                models:
                  Note:
                    fields:
                      subtitle: *optionalText
                """#)
        case .unknownKey:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      subtitle: { type: string, optinal: true }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      subtitle: { type: string, optional: true }
                """#)
        case .invalidModelName:
            DiagnosticExamples(
                failing: #"""
                models:
                  Shopping-List:
                    fields: {}
                """#,
                fixed: #"""
                models:
                  ShoppingList:
                    fields: {}
                """#)
        case .modelNameNotCapitalized:
            DiagnosticExamples(
                failing: #"""
                models:
                  note:
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    fields: {}
                """#)
        case .invalidRecordTypeName:
            DiagnosticExamples(
                failing: #"""
                models:
                  _Draft:
                    fields: {}
                """#,
                fixed: #"""
                models:
                  _Draft:
                    recordType: Draft
                    fields: {}
                """#)
        case .invalidFieldName:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      título: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      titulo: string
                """#)
        case .childNameHiddenInParent:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    fields:
                      Item: string
                  Item:
                    parent: List
                    fields: {}
                """#,
                fixed: #"""
                models:
                  List:
                    fields:
                      item: string
                  Item:
                    parent: List
                    fields: {}
                """#)
        case .invalidZoneName:
            DiagnosticExamples(
                failing: #"""
                models:
                  Diary:
                    zone: _Personal
                    fields:
                      text: string
                """#,
                fixed: #"""
                models:
                  Diary:
                    zone: Personal
                    fields:
                      text: string
                """#)
        case .reservedFieldName:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      id: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      identifier: string
                """#)
        case .reservedRecordTypeName:
            DiagnosticExamples(
                failing: #"""
                models:
                  Users:
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Users:
                    recordType: Member
                    fields: {}
                """#)
        case .duplicateModel:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      title: string
                  Note:
                    fields:
                      body: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      body: string
                """#)
        case .duplicateRecordType:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields: {}
                  Memo:
                    recordType: Note
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    fields: {}
                  Memo:
                    fields: {}
                """#)
        case .duplicateField:
            DiagnosticExamples(
                failing: #"""
                x-text: &text { type: string }
                models:
                  Note:
                    fields:
                      title: *text
                      title: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      subtitle: string
                """#)
        case .unknownReferenceTarget:
            DiagnosticExamples(
                failing: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Persn }
                """#,
                fixed: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """#)
        case .unknownType:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      title: String
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .modelNameUsedAsType:
            DiagnosticExamples(
                failing: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: Person
                """#,
                fixed: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """#)
        case .defaultTypeMismatch:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      due: { type: date, default: 2024-02-30 }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      due: { type: date, default: 2024-02-29 }
                """#)
        case .missingReferenceTarget:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      author: { type: reference }
                """#,
                fixed: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """#)
        case .referenceTargetOnNonReference:
            DiagnosticExamples(
                failing: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: string, to: Person }
                """#,
                fixed: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """#)
        case .missingListElementType:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      tags: { type: list }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string }
                """#)
        case .elementTypeOnNonList:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      tags: { type: string, of: string }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string }
                """#)
        case .nestedList:
            DiagnosticExamples(
                failing: #"""
                models:
                  Grid:
                    fields:
                      rows: { type: list, of: list }
                """#,
                fixed: #"""
                models:
                  Grid:
                    fields:
                      cells: { type: list, of: string }
                      width: int
                """#)
        case .listOfAssets:
            DiagnosticExamples(
                failing: #"""
                models:
                  Album:
                    fields:
                      photos: { type: list, of: asset }
                """#,
                fixed: #"""
                models:
                  Album:
                    fields:
                      title: string
                  Photo:
                    parent: Album
                    fields:
                      image: asset
                """#)
        case .onDeleteOnNonReference:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      title: { type: string, onDelete: deleteSelf }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                """#)
        case .unknownDeleteAction:
            DiagnosticExamples(
                failing: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person, onDelete: cascade }
                """#,
                fixed: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person, onDelete: deleteSelf }
                """#)
        case .defaultNotSupported:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      blob: { type: data, default: abc, maxBytes: 64 }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      blob: { type: data, maxBytes: 64 }
                """#)
        case .referenceAcrossDatabases:
            DiagnosticExamples(
                failing: #"""
                models:
                  Author:
                    scopes: [public]
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Author }
                """#,
                fixed: #"""
                models:
                  Author:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Author }
                """#)
        case .referenceAcrossScopes:
            DiagnosticExamples(
                failing: #"""
                models:
                  Tag:
                    fields: {}
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields:
                      tag: { type: reference, to: Tag }
                """#,
                fixed: #"""
                models:
                  Tag:
                    scopes: [private, shared]
                    fields: {}
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields:
                      tag: { type: reference, to: Tag }
                """#)
        case .missingEnumCases:
            DiagnosticExamples(
                failing: #"""
                models:
                  Task:
                    fields:
                      status: enum
                """#,
                fixed: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, doing, done] }
                """#)
        case .invalidEnumCase:
            DiagnosticExamples(
                failing: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, in-progress, done, todo] }
                """#,
                fixed: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, inProgress, done] }
                """#)
        case .casesOnNonEnum:
            DiagnosticExamples(
                failing: #"""
                models:
                  Task:
                    fields:
                      status: { type: string, cases: [todo, done] }
                """#,
                fixed: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, done] }
                """#)
        case .referenceAcrossZones:
            DiagnosticExamples(
                failing: #"""
                models:
                  Member:
                    fields:
                      name: string
                  Diary:
                    zone: Personal
                    fields:
                      author: { type: reference, to: Member }
                """#,
                fixed: #"""
                models:
                  Member:
                    zone: Personal
                    fields:
                      name: string
                  Diary:
                    zone: Personal
                    fields:
                      author: { type: reference, to: Member }
                """#)
        case .invalidScopeSet:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    scopes: [shared]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    scopes: [private, shared]
                    fields: {}
                """#)
        case .privateAndPublicScopes:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    scopes: [private, public]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """#)
        case .unknownScope:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    scopes: [privat]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    scopes: [private]
                    fields: {}
                """#)
        case .repeatedScope:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    scopes: [private, private]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    scopes: [private]
                    fields: {}
                """#)
        case .shareableWithoutSharedScope:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    shareable: true
                    fields: {}
                """#,
                fixed: #"""
                models:
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields: {}
                """#)
        case .unknownParent:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    fields: {}
                  Item:
                    parent: Lst
                    fields: {}
                """#,
                fixed: #"""
                models:
                  List:
                    fields: {}
                  Item:
                    parent: List
                    fields: {}
                """#)
        case .parentScopeMismatch:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    scopes: [private, shared]
                    fields: {}
                  Item:
                    parent: List
                    fields: {}
                """#,
                fixed: #"""
                models:
                  List:
                    scopes: [private, shared]
                    fields: {}
                  Item:
                    scopes: [private, shared]
                    parent: List
                    fields: {}
                """#)
        case .publicParent:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    scopes: [public]
                    fields: {}
                  Post:
                    parent: Feed
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Feed:
                    fields: {}
                  Post:
                    parent: Feed
                    fields: {}
                """#)
        case .parentCycle:
            DiagnosticExamples(
                failing: #"""
                models:
                  A:
                    parent: B
                    fields: {}
                  B:
                    parent: A
                    fields: {}
                """#,
                fixed: #"""
                models:
                  A:
                    fields: {}
                  B:
                    parent: A
                    fields: {}
                """#)
        case .childZoneMismatch:
            DiagnosticExamples(
                failing: #"""
                models:
                  Journal:
                    zone: Personal
                    fields:
                      title: string
                  Entry:
                    parent: Journal
                    fields:
                      text: string
                """#,
                fixed: #"""
                models:
                  Journal:
                    zone: Personal
                    fields:
                      title: string
                  Entry:
                    parent: Journal
                    zone: Personal
                    fields:
                      text: string
                """#)
        case .unknownProjection:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: PublishedNot
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """#)
        case .projectionNotPublic:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """#)
        case .projectionIsDraft:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    publishAs: Archive
                    fields: {}
                  Archive:
                    scopes: [public]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """#)
        case .draftNotPrivate:
            DiagnosticExamples(
                failing: #"""
                models:
                  Post:
                    scopes: [public]
                    publishAs: Feed
                    fields: {}
                  Feed:
                    scopes: [public]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Post:
                    publishAs: Feed
                    fields: {}
                  Feed:
                    scopes: [public]
                    fields: {}
                """#)
        case .projectionFieldMissingInDraft:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                      summary: string
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                      summary: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                      summary: string
                """#)
        case .projectionFieldTypeMismatch:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: int
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                """#)
        case .projectionFieldOptionalityMismatch:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: { type: string, optional: true }
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                """#)
        case .projectionSharedByDrafts:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    publishAs: Feed
                    fields: {}
                  Photo:
                    publishAs: Feed
                    fields: {}
                  Feed:
                    scopes: [public]
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  Photo:
                    publishAs: PublishedPhoto
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                  PublishedPhoto:
                    scopes: [public]
                    fields: {}
                """#)
        case .catalogOnNonPublicModel:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    catalog: { governed: true }
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Note:
                    scopes: [public]
                    catalog: { governed: true }
                    fields: {}
                """#)
        case .unknownDesiredKey:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { desiredKeys: [titel] }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#,
                fixed: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { desiredKeys: [title] }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#)
        case .assetAsDesiredKey:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { desiredKeys: [title, cover] }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#,
                fixed: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { desiredKeys: [title] }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#)
        case .unknownInitialState:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { initialState: hidden, governed: true }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#,
                fixed: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { initialState: delisted, governed: true }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#)
        case .localOnlyDesiredKey:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { desiredKeys: [title, draft] }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#,
                fixed: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { desiredKeys: [title] }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#)
        case .initialStateWithoutGovernance:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { initialState: delisted }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#,
                fixed: #"""
                models:
                  Feed:
                    scopes: [public]
                    catalog: { initialState: delisted, governed: true }
                    fields:
                      title: string
                      cover: asset
                      draft: { type: string, localOnly: true }
                """#)
        case .encryptedReference:
            DiagnosticExamples(
                failing: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person, encrypted: true }
                """#,
                fixed: #"""
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """#)
        case .encryptedIndexed:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      pin: { type: string, encrypted: true, index: [queryable] }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      pin: { type: string, encrypted: true }
                """#)
        case .encryptedAssetRedundant:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      cover: { type: asset, encrypted: true }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      cover: asset
                """#)
        case .encryptedInPublicModel:
            DiagnosticExamples(
                failing: #"""
                models:
                  Post:
                    scopes: [public]
                    fields:
                      body: { type: string, encrypted: true }
                """#,
                fixed: #"""
                models:
                  Post:
                    scopes: [public]
                    fields:
                      body: string
                """#)
        case .localOnlyAndServerOwned:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      views: { type: int, localOnly: true, serverOwned: true }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      views: { type: int, serverOwned: true }
                """#)
        case .deviceFieldEncrypted:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true, encrypted: true }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true }
                """#)
        case .deviceFieldIndexed:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true, index: [queryable] }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true }
                """#)
        case .searchableNonString:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      count: { type: int, index: [searchable] }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      count: { type: int, index: [sortable] }
                """#)
        case .sortableUnsupported:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      place: { type: location, index: [sortable] }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      place: { type: location, index: [queryable] }
                """#)
        case .unknownIndex:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      title: { type: string, index: [fast] }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: { type: string, index: [queryable] }
                """#)
        case .publicShareable:
            DiagnosticExamples(
                failing: #"""
                models:
                  Post:
                    scopes: [public]
                    shareable: true
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Post:
                    scopes: [public]
                    fields: {}
                """#)
        case .publicWithParent:
            DiagnosticExamples(
                failing: #"""
                models:
                  Feed:
                    fields: {}
                  Post:
                    scopes: [public]
                    parent: Feed
                    fields: {}
                """#,
                fixed: #"""
                models:
                  Feed:
                    fields: {}
                  Post:
                    scopes: [public]
                    fields: {}
                """#)
        case .publicModelZone:
            DiagnosticExamples(
                failing: #"""
                models:
                  Recipe:
                    scopes: [public]
                    zone: Recipes
                    fields:
                      title: string
                """#,
                fixed: #"""
                models:
                  Recipe:
                    scopes: [public]
                    fields:
                      title: string
                """#)
        case .recordTypeRemoved:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Memo:
                    fields:
                      title: string
                      size: int
                """#,
                fixed: #"""
                models:
                  Memo:
                    recordType: Note
                    fields:
                      title: string
                      size: int
                """#)
        case .fieldRemoved:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Note:
                    fields:
                      title: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: { type: int, optional: true }
                """#)
        case .fieldTypeChanged:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      sizeLabel: { type: string, optional: true }
                """#)
        case .databaseChanged:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Note:
                    scopes: [public]
                    fields:
                      title: string
                      size: int
                """#,
                fixed: #"""
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                      size: int
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                """#)
        case .encryptionChanged:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Note:
                    fields:
                      title: { type: string, encrypted: true }
                      size: int
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      secretTitle: { type: string, encrypted: true, optional: true }
                """#)
        case .requiredFieldAdded:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      color: string
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      color: { type: string, optional: true }
                """#)
        case .uniqueKeyAdded:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                """#,
                failing: #"""
                models:
                  Note:
                    unique: [title]
                    fields:
                      title: string
                      size: int
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                  Tag:
                    unique: [name]
                    fields:
                      name: string
                """#)
        case .enumCaseRemoved:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, doing, done] }
                """#,
                failing: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, active, done] }
                """#,
                fixed: #"""
                models:
                  Task:
                    fields:
                      status: { type: enum, cases: [todo, doing, done, archived] }
                """#)
        case .fieldNarrowed:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Bookmark:
                    fields:
                      title: string
                      address: string
                """#,
                failing: #"""
                models:
                  Bookmark:
                    fields:
                      title: string
                      address: url
                """#,
                fixed: #"""
                models:
                  Bookmark:
                    fields:
                      title: string
                      address: string
                      link: { type: url, optional: true }
                """#)
        case .assetKeysMoved:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Album:
                    fields:
                      cover: asset
                """#,
                failing: #"""
                models:
                  Album:
                    fields:
                      thumbnail: asset
                      cover: asset
                """#,
                fixed: #"""
                models:
                  Album:
                    fields:
                      cover: asset
                      thumbnail: asset
                """#)
        case .zoneChanged:
            DiagnosticExamples(
                baseline: #"""
                models:
                  Diary:
                    fields:
                      text: string
                """#,
                failing: #"""
                models:
                  Diary:
                    zone: Personal
                    fields:
                      text: string
                """#,
                fixed: #"""
                models:
                  Diary:
                    fields:
                      text: string
                  Note:
                    zone: Personal
                    fields:
                      text: string
                """#)
        case .unknownKeyField:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    unique: [titel]
                    fields:
                      title: string
                """#,
                fixed: #"""
                models:
                  List:
                    unique: [title]
                    fields:
                      title: string
                """#)
        case .keyFieldNotShared:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    unique: [code]
                    fields:
                      code: { type: string, localOnly: true }
                """#,
                fixed: #"""
                models:
                  List:
                    unique: [code]
                    fields:
                      code: string
                """#)
        case .keyFieldNotComparable:
            DiagnosticExamples(
                failing: #"""
                models:
                  Point:
                    unique: [weight]
                    fields:
                      weight: double
                """#,
                fixed: #"""
                models:
                  Point:
                    unique: [code]
                    fields:
                      weight: double
                      code: string
                """#)
        case .uniqueOnPublicModel:
            DiagnosticExamples(
                failing: #"""
                models:
                  Post:
                    scopes: [public]
                    unique: [title]
                    fields:
                      title: string
                """#,
                fixed: #"""
                models:
                  Post:
                    scopes: [public]
                    fields:
                      title: string
                """#)
        case .repeatedKeyField:
            DiagnosticExamples(
                failing: #"""
                models:
                  List:
                    unique: [title, title]
                    fields:
                      title: string
                """#,
                fixed: #"""
                models:
                  List:
                    unique: [title]
                    fields:
                      title: string
                """#)
        case .unknownMergePolicy:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      visits: { type: int, merge: maximum }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      visits: { type: int, merge: max }
                """#)
        case .mergePolicyNotForType:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      title: { type: string, merge: union }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      title: { type: string, merge: lastWriterWins }
                """#)
        case .mergeOnDeviceField:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      views: { type: int, serverOwned: true, merge: max }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      views: { type: int, serverOwned: true }
                """#)
        case .listWithoutMerge:
            DiagnosticExamples(
                failing: #"""
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string }
                      history: { type: list, of: string }
                """#,
                fixed: #"""
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string, merge: union }
                      history: { type: list, of: string, merge: lastWriterWins }
                """#)
        case .mergeOnKeyField:
            DiagnosticExamples(
                failing: #"""
                models:
                  Shelf:
                    unique: [[label, count]]
                    fields:
                      label: string
                      count: { type: int, merge: counter }
                """#,
                fixed: #"""
                models:
                  Shelf:
                    unique: [[label]]
                    fields:
                      label: string
                      count: { type: int, merge: counter }
                """#)
        case .dataFieldUnbounded:
            DiagnosticExamples(
                failing: #"""
                models:
                  Recipe:
                    fields:
                      title: string
                      photo: data
                """#,
                fixed: #"""
                models:
                  Recipe:
                    fields:
                      title: string
                      photo: asset
                      checksum: { type: data, maxBytes: 32 }
                """#)
        case .maxBytesInvalid:
            DiagnosticExamples(
                failing: #"""
                models:
                  Recipe:
                    fields:
                      title: { type: string, maxBytes: 200 }
                """#,
                fixed: #"""
                models:
                  Recipe:
                    fields:
                      title: string
                """#)
        case .recordMayExceedLimit:
            DiagnosticExamples(
                failing: #"""
                models:
                  Recipe:
                    fields:
                      photo: { type: data, maxBytes: 800000 }
                      sketch: { type: data, maxBytes: 800000 }
                """#,
                fixed: #"""
                models:
                  Recipe:
                    fields:
                      photo: asset
                      sketch: asset
                """#)
        }
    }
}
