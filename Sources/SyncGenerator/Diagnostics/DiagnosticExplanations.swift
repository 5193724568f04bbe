/// What each diagnostic code's rule is for, in one table: what it protects against, the fact
/// behind it, and a schema that breaks it beside the same schema fixed. `syncgen explain` prints
/// it, docs/Diagnostics.md is generated from it, and tests hold each example to its word (the
/// failing one is reported with the code, the fixed one is not, and validates).
extension DiagnosticCode {
    public var explanation: DiagnosticExplanation {
        switch self {
        case .yamlSyntax:
            DiagnosticExplanation(
                protects: "A file syncgen cannot read at all: nothing of it can be checked or generated, and a model it declares would seem missing to the others.",
                fact: "syncgen reads YAML with libyaml, which stops at the first syntax error (an unclosed bracket, a tab for indentation, a key longer than 1,024 characters) or at bytes that are not UTF-8 text.",
                failing: """
                models:
                  Note:
                    fields: { title: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .fileNotMapping:
            DiagnosticExplanation(
                protects: "A file whose top level is a list or a word: it holds no `models` to read.",
                fact: "A schema file is a mapping whose `models` key holds the models.",
                failing: """
                - Note
                - Tag
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .wrongValueKind:
            DiagnosticExplanation(
                protects: "A value of the wrong kind silently meaning something else: `shareable: yes` is text in the YAML 1.2 syncgen reads, not true.",
                fact: "Only unquoted `true`/`false` are booleans, only unquoted numbers are numbers; a key that takes a mapping, a list or a name takes nothing else.",
                failing: """
                models:
                  List:
                    scopes: [private, shared]
                    shareable: yes
                    fields: {}
                """,
                fixed: """
                models:
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields: {}
                """)
        case .duplicateKey:
            DiagnosticExplanation(
                protects: "A key given twice, whose first value YAML would silently drop.",
                fact: "A YAML mapping holds each key once; libyaml keeps both, and syncgen refuses to guess which was meant.",
                failing: """
                models:
                  Note:
                    scopes: [private]
                    scopes: [private, shared]
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    scopes: [private, shared]
                    fields: {}
                """)
        case .mergeKeyUnsupported:
            DiagnosticExplanation(
                protects: "Merge keys (`<<`), a YAML 1.1 feature whose rules differ between parsers: the same file would mean different models to different tools.",
                fact: "syncgen reads YAML 1.2, which has no merge keys. An alias of a whole value works the same everywhere.",
                failing: """
                x-text: &text { type: string, optional: true }
                models:
                  Note:
                    fields:
                      title:
                        <<: *text
                        optional: false
                """,
                fixed: """
                x-text: &text { type: string, optional: true }
                models:
                  Note:
                    fields:
                      title: string
                      subtitle: *text
                """)
        case .tagUnsupported:
            DiagnosticExplanation(
                protects: "Tags (`!!str`, `!custom`) that change what a value means in ways a reader of the file cannot see.",
                fact: "syncgen takes every value as YAML 1.2's core schema reads it; quoting a value makes it text.",
                failing: """
                models:
                  Note:
                    recordType: !!str Note
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    recordType: "Note"
                    fields: {}
                """)
        case .multipleDocuments:
            DiagnosticExplanation(
                protects: "A second YAML document (after `---`) in one file, which would be ignored.",
                fact: "A schema file is one document; split models into more files of the folder instead.",
                failing: """
                models:
                  Note:
                    fields: {}
                ---
                models:
                  Tag:
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    fields: {}
                  Tag:
                    fields: {}
                """)
        case .nestingTooDeep:
            DiagnosticExplanation(
                protects: "A file nested deeper than any schema needs, which would make reading it slow or exhaust memory.",
                fact: "syncgen reads at most 64 levels of mappings and lists; a schema needs five.",
                failing: """
                models: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .emptyFile:
            DiagnosticExplanation(
                protects: "A schema file that holds nothing, usually one left empty by mistake.",
                fact: "An empty file, or one of comments only, contributes no models; it is valid, and said so.",
                failing: """
                # Notes will go here.
                """,
                fixed: """
                # Notes.
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .unsupportedVersion:
            DiagnosticExplanation(
                protects: "A file written for a schema language this syncgen does not speak, read as if it did.",
                fact: "This syncgen reads version 1 of the schema language; `version` may be left out.",
                failing: """
                version: 2
                models:
                  Note:
                    fields:
                      title: string
                """,
                fixed: """
                version: 1
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .missingRequiredKey:
            DiagnosticExplanation(
                protects: "A model without `fields`, a field without `type`, a file without `models`: nothing to generate from.",
                fact: "`models` in a file, `fields` in a model (empty: `fields: {}`) and `type` in a long-form field are required.",
                failing: """
                models:
                  Note:
                    scopes: [private]
                """,
                fixed: """
                models:
                  Note:
                    scopes: [private]
                    fields: {}
                """)
        case .aliasExpansionTooLarge:
            DiagnosticExplanation(
                protects: "A file of nested aliases that expands to billions of nodes (the \"billion laughs\" attack) and would exhaust memory.",
                fact: "An alias stands for a copy of its anchored value; syncgen expands at most 5,000,000 nodes.",
                failing: """
                a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]
                b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
                c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
                d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
                e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
                f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
                g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
                h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
                models: {}
                """,
                fixed: """
                x-text: &text { type: string, optional: true }
                models:
                  Note:
                    fields:
                      subtitle: *text
                """)
        case .unknownAnchor:
            DiagnosticExplanation(
                protects: "An alias to an anchor that does not exist (yet): a typo that would leave a field without its type.",
                fact: "An alias (`*name`) refers to an anchor (`&name`) written before it in the same file.",
                failing: """
                models:
                  Note:
                    fields:
                      subtitle: *optionalText
                x-optional-text: &optionalText { type: string, optional: true }
                """,
                fixed: """
                x-optional-text: &optionalText { type: string, optional: true }
                models:
                  Note:
                    fields:
                      subtitle: *optionalText
                """)
        case .unknownKey:
            DiagnosticExplanation(
                protects: "A misspelt key (`sharable`, `optinal`) silently ignored, so the option it meant is never set.",
                fact: "Every key of the schema language is known; anything else is refused, with the closest known key.",
                failing: """
                models:
                  Note:
                    fields:
                      subtitle: { type: string, optinal: true }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      subtitle: { type: string, optional: true }
                """)
        case .invalidModelName:
            DiagnosticExplanation(
                protects: "A model name that cannot be a Swift type, or that would hide a name the generated code needs (`SyncSchema`, `SyncCore`, `ID`, `Projection`, `models`): the generated code would not compile, or would mean another type.",
                fact: "A model becomes a Swift struct of its name: an ASCII identifier that is no keyword and no name generated code keeps.",
                failing: """
                models:
                  Shopping-List:
                    fields: {}
                """,
                fixed: """
                models:
                  ShoppingList:
                    fields: {}
                """)
        case .modelNameNotCapitalized:
            DiagnosticExplanation(
                protects: "Swift code that reads oddly: a type named like a value.",
                fact: "Swift type names start with an upper-case letter by convention; a lower-case one still compiles.",
                failing: """
                models:
                  note:
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    fields: {}
                """)
        case .invalidRecordTypeName:
            DiagnosticExplanation(
                protects: "A record type CloudKit refuses when the schema is deployed.",
                fact: "CloudKit record type names start with a letter, hold only letters, digits and underscores, and are at most 255 characters long.",
                failing: """
                models:
                  _Draft:
                    fields: {}
                """,
                fixed: """
                models:
                  _Draft:
                    recordType: Draft
                    fields: {}
                """)
        case .invalidFieldName:
            DiagnosticExplanation(
                protects: "A field CloudKit refuses when the schema is deployed.",
                fact: "CloudKit field names start with a letter, hold only ASCII letters, digits and underscores, and are at most 255 characters long.",
                failing: """
                models:
                  Note:
                    fields:
                      título: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      titulo: string
                """)
        case .childNameHiddenInParent:
            DiagnosticExplanation(
                protects: "Generated code that cannot name a child model: the parent lists its children (`childTypes`) inside its own code, where its field of the same name stands for the child.",
                fact: "Inside a Swift type, a member hides a type of the same name.",
                failing: """
                models:
                  List:
                    fields:
                      Item: string
                  Item:
                    parent: List
                    fields: {}
                """,
                fixed: """
                models:
                  List:
                    fields:
                      item: string
                  Item:
                    parent: List
                    fields: {}
                """)
        case .reservedFieldName:
            DiagnosticExplanation(
                protects: "A field that collides with a CloudKit system field, a field the runtime adds, or a member every generated model has: the record, or the generated code, would have two meanings for one name.",
                fact: "CloudKit keeps `recordName`, `creationDate`, `parent`... for itself; the runtime adds `ownerName`, `clientModifiedAt`, `syncgenVersions`, `syncgenMergedInto` and an asset's markers; every model has `id`, `hashValue`, `Self`.",
                failing: """
                models:
                  Note:
                    fields:
                      id: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      identifier: string
                """)
        case .reservedRecordTypeName:
            DiagnosticExplanation(
                protects: "A record type that collides with one CloudKit defines itself.",
                fact: "`Users` is CloudKit's record type of user records, `cloudkit.share` that of shares.",
                failing: """
                models:
                  Users:
                    fields: {}
                """,
                fixed: """
                models:
                  Users:
                    recordType: Member
                    fields: {}
                """)
        case .duplicateModel:
            DiagnosticExplanation(
                protects: "Two models of one name, of which only one could be generated.",
                fact: "All files of a schema folder form one schema: a model name is declared once in all of them.",
                failing: """
                models:
                  Note:
                    fields:
                      title: string
                  Note:
                    fields:
                      body: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      body: string
                """)
        case .duplicateRecordType:
            DiagnosticExplanation(
                protects: "Two models writing into one record type, each reading the other's records as its own.",
                fact: "A CloudKit record type is one kind of record; each model has its own.",
                failing: """
                models:
                  Note:
                    fields: {}
                  Memo:
                    recordType: Note
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    fields: {}
                  Memo:
                    fields: {}
                """)
        case .duplicateField:
            DiagnosticExplanation(
                protects: "Two fields of one name in a model: one record key for two values.",
                fact: "A record holds one value per key.",
                failing: """
                x-text: &text { type: string }
                models:
                  Note:
                    fields:
                      title: *text
                      title: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      subtitle: string
                """)
        case .unknownReferenceTarget:
            DiagnosticExplanation(
                protects: "A reference to a model that does not exist, usually a typo.",
                fact: "A reference holds the record name of a record of the model `to` names.",
                failing: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Persn }
                """,
                fixed: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """)
        case .unknownType:
            DiagnosticExplanation(
                protects: "A misspelt or Swift-cased type (`String`, `Int`) that would give the field no type.",
                fact: "Field types are the schema's words: string, int, double, bool, date, data, asset, location, reference, list.",
                failing: """
                models:
                  Note:
                    fields:
                      title: String
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .modelNameUsedAsType:
            DiagnosticExplanation(
                protects: "`author: Person`, which reads like a reference but is not one.",
                fact: "A reference names its type and its target: `{ type: reference, to: Person }`.",
                failing: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: Person
                """,
                fixed: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """)
        case .defaultTypeMismatch:
            DiagnosticExplanation(
                protects: "A default the generated code could not hold, or would change: text for a number, a date that does not exist (2024-02-30 rolled over to March), a number a Double cannot hold (1e-400 silently 0).",
                fact: "A default is a literal of the field's type, generated as a Swift literal that reads back exactly.",
                failing: """
                models:
                  Note:
                    fields:
                      due: { type: date, default: 2024-02-30 }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      due: { type: date, default: 2024-02-29 }
                """)
        case .missingReferenceTarget:
            DiagnosticExplanation(
                protects: "A reference to nothing: the generated code needs the target's type.",
                fact: "A reference, or a list of references, names its target model with `to`.",
                failing: """
                models:
                  Note:
                    fields:
                      author: { type: reference }
                """,
                fixed: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """)
        case .referenceTargetOnNonReference:
            DiagnosticExplanation(
                protects: "A `to` that does nothing, on a field meant to be a reference.",
                fact: "Only a reference, or a list of references, has a target.",
                failing: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: string, to: Person }
                """,
                fixed: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """)
        case .missingListElementType:
            DiagnosticExplanation(
                protects: "A list of nothing: the generated code needs the element type.",
                fact: "A list names its element type with `of`.",
                failing: """
                models:
                  Note:
                    fields:
                      tags: { type: list }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string }
                """)
        case .elementTypeOnNonList:
            DiagnosticExplanation(
                protects: "An `of` that does nothing, on a field meant to be a list.",
                fact: "Only a list has an element type.",
                failing: """
                models:
                  Note:
                    fields:
                      tags: { type: string, of: string }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string }
                """)
        case .nestedList:
            DiagnosticExplanation(
                protects: "A list of lists, which CloudKit cannot store.",
                fact: "A CloudKit list holds values of one scalar type (or references); never lists.",
                failing: """
                models:
                  Grid:
                    fields:
                      rows: { type: list, of: list }
                """,
                fixed: """
                models:
                  Grid:
                    fields:
                      cells: { type: list, of: string }
                      width: int
                """)
        case .listOfAssets:
            DiagnosticExplanation(
                protects: "A list of files, which the asset cache cannot track and CloudKit stores only as separate assets.",
                fact: "syncgen gives a model at most one asset; several files are several records of a child model.",
                failing: """
                models:
                  Album:
                    fields:
                      photos: { type: list, of: asset }
                """,
                fixed: """
                models:
                  Album:
                    fields:
                      title: string
                  Photo:
                    parent: Album
                    fields:
                      image: asset
                """)
        case .onDeleteOnNonReference:
            DiagnosticExplanation(
                protects: "An `onDelete` that does nothing, on a field that is not a reference.",
                fact: "A delete action belongs to a reference: what CloudKit does to this record when its target is deleted.",
                failing: """
                models:
                  Note:
                    fields:
                      title: { type: string, onDelete: deleteSelf }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                """)
        case .unknownDeleteAction:
            DiagnosticExplanation(
                protects: "A delete action CloudKit does not have (`cascade`).",
                fact: "CloudKit's reference actions are `none` and `deleteSelf` (the referencing record is deleted with its target).",
                failing: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person, onDelete: cascade }
                """,
                fixed: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person, onDelete: deleteSelf }
                """)
        case .multipleAssetFields:
            DiagnosticExplanation(
                protects: "Two files in one record, which the asset cache keys by record.",
                fact: "syncgen's asset cache holds one file per record; more files are records of a child model.",
                failing: """
                models:
                  Note:
                    fields:
                      cover: asset
                      attachment: asset
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      cover: asset
                  Attachment:
                    parent: Note
                    fields:
                      file: asset
                """)
        case .defaultNotSupported:
            DiagnosticExplanation(
                protects: "A default for a value that has no literal: bytes, a file, a place, a reference.",
                fact: "Defaults exist for string, int, double, bool, date and lists of them.",
                failing: """
                models:
                  Note:
                    fields:
                      blob: { type: data, default: abc }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      blob: data
                """)
        case .referenceAcrossDatabases:
            DiagnosticExplanation(
                protects: "A reference that can never resolve: a public record and a private one live in different databases.",
                fact: "A CloudKit reference points at a record in the same zone, and the public database has no zones of the user's.",
                failing: """
                models:
                  Author:
                    scopes: [public]
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Author }
                """,
                fixed: """
                models:
                  Author:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Author }
                """)
        case .referenceAcrossScopes:
            DiagnosticExplanation(
                protects: "A reference that works in the owner's private zone but not once the record is shared: its target stays behind.",
                fact: "A shared zone holds the records of one share hierarchy; a reference cannot leave its zone.",
                failing: """
                models:
                  Tag:
                    fields: {}
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields:
                      tag: { type: reference, to: Tag }
                """,
                fixed: """
                models:
                  Tag:
                    scopes: [private, shared]
                    fields: {}
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields:
                      tag: { type: reference, to: Tag }
                """)
        case .invalidScopeSet:
            DiagnosticExplanation(
                protects: "A set of databases no record can live in (`[shared]` alone: a shared record is always someone's private one first).",
                fact: "A model lives in `[private]`, `[private, shared]` or `[public]`.",
                failing: """
                models:
                  Note:
                    scopes: [shared]
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    scopes: [private, shared]
                    fields: {}
                """)
        case .privateAndPublicScopes:
            DiagnosticExplanation(
                protects: "A model meant to be both private and public, which routes records by owner and sends private data to the public database (trap T7.3).",
                fact: "The private and public databases are told apart by zone, never by owner; a public copy of private data is a projection.",
                failing: """
                models:
                  Note:
                    scopes: [private, public]
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """)
        case .unknownScope:
            DiagnosticExplanation(
                protects: "A misspelt database (`privat`), which would leave the model's routing undefined.",
                fact: "The databases are `private`, `shared` and `public`.",
                failing: """
                models:
                  Note:
                    scopes: [privat]
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    scopes: [private]
                    fields: {}
                """)
        case .repeatedScope:
            DiagnosticExplanation(
                protects: "A database named twice, usually a leftover of an edit.",
                fact: "Scopes are a set.",
                failing: """
                models:
                  Note:
                    scopes: [private, private]
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    scopes: [private]
                    fields: {}
                """)
        case .shareableWithoutSharedScope:
            DiagnosticExplanation(
                protects: "A share root whose records could never be read by anyone it is shared with.",
                fact: "Shared records live in the participants' shared database: the model needs `shared` in its scopes.",
                failing: """
                models:
                  List:
                    shareable: true
                    fields: {}
                """,
                fixed: """
                models:
                  List:
                    scopes: [private, shared]
                    shareable: true
                    fields: {}
                """)
        case .unknownParent:
            DiagnosticExplanation(
                protects: "A parent that does not exist, usually a typo.",
                fact: "A parent is a model of the schema.",
                failing: """
                models:
                  List:
                    fields: {}
                  Item:
                    parent: Lst
                    fields: {}
                """,
                fixed: """
                models:
                  List:
                    fields: {}
                  Item:
                    parent: List
                    fields: {}
                """)
        case .parentScopeMismatch:
            DiagnosticExplanation(
                protects: "A child that cannot follow its parent into a shared zone.",
                fact: "A child lives in its parent's zone (CKRecord.parent), so both need the same scopes.",
                failing: """
                models:
                  List:
                    scopes: [private, shared]
                    fields: {}
                  Item:
                    parent: List
                    fields: {}
                """,
                fixed: """
                models:
                  List:
                    scopes: [private, shared]
                    fields: {}
                  Item:
                    scopes: [private, shared]
                    parent: List
                    fields: {}
                """)
        case .publicParent:
            DiagnosticExplanation(
                protects: "A share hierarchy under a public record, which has none.",
                fact: "Public records live in the public database's one zone and are never shared.",
                failing: """
                models:
                  Feed:
                    scopes: [public]
                    fields: {}
                  Post:
                    parent: Feed
                    fields: {}
                """,
                fixed: """
                models:
                  Feed:
                    fields: {}
                  Post:
                    parent: Feed
                    fields: {}
                """)
        case .parentCycle:
            DiagnosticExplanation(
                protects: "Parents that are each other's ancestors: no record could be uploaded first.",
                fact: "A child is uploaded after its parent; a chain of parents must end.",
                failing: """
                models:
                  A:
                    parent: B
                    fields: {}
                  B:
                    parent: A
                    fields: {}
                """,
                fixed: """
                models:
                  A:
                    fields: {}
                  B:
                    parent: A
                    fields: {}
                """)
        case .unknownProjection:
            DiagnosticExplanation(
                protects: "A draft publishing into a model that does not exist, usually a typo.",
                fact: "`publishAs` names the public model the draft is copied into.",
                failing: """
                models:
                  Note:
                    publishAs: PublishedNot
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """)
        case .projectionNotPublic:
            DiagnosticExplanation(
                protects: "Publishing into a private model, which nobody else can read.",
                fact: "A projection is what everyone reads: it lives in the public database, and only there.",
                failing: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """)
        case .projectionIsDraft:
            DiagnosticExplanation(
                protects: "A chain of publications, which a projection's record name cannot carry.",
                fact: "A draft and its projection share a record name; a projection is not a draft itself.",
                failing: """
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
                """,
                fixed: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields: {}
                  PublishedNote:
                    scopes: [public]
                    fields: {}
                """)
        case .draftNotPrivate:
            DiagnosticExplanation(
                protects: "A public model publishing into another: it is public already.",
                fact: "A draft is private data with a public copy.",
                failing: """
                models:
                  Post:
                    scopes: [public]
                    publishAs: Feed
                    fields: {}
                  Feed:
                    scopes: [public]
                    fields: {}
                """,
                fixed: """
                models:
                  Post:
                    publishAs: Feed
                    fields: {}
                  Feed:
                    scopes: [public]
                    fields: {}
                """)
        case .projectionFieldMissingInDraft:
            DiagnosticExplanation(
                protects: "A projection field the draft lacks: it would never be published (the seed library's silent bug).",
                fact: "A projection is copied field by field from its draft.",
                failing: """
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
                """,
                fixed: """
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
                """)
        case .projectionFieldTypeMismatch:
            DiagnosticExplanation(
                protects: "A projection field that cannot hold the draft's value.",
                fact: "A field is copied as it is: the same type on both sides (a reference may point at the projection of the draft's target).",
                failing: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: int
                """,
                fixed: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                """)
        case .projectionFieldOptionalityMismatch:
            DiagnosticExplanation(
                protects: "A draft's nil copied into a required projection field, or a projection that can never be cleared.",
                fact: "A field is copied as it is: optional on both sides or on neither.",
                failing: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: { type: string, optional: true }
                """,
                fixed: """
                models:
                  Note:
                    publishAs: PublishedNote
                    fields:
                      title: string
                  PublishedNote:
                    scopes: [public]
                    fields:
                      title: string
                """)
        case .projectionSharedByDrafts:
            DiagnosticExplanation(
                protects: "Two drafts overwriting each other's public copies.",
                fact: "A projection shares its draft's record name, so it has one draft.",
                failing: """
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
                """,
                fixed: """
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
                """)
        case .catalogOnNonPublicModel:
            DiagnosticExplanation(
                protects: "Catalog settings on a private model, which is read from its zone's change feed, never queried.",
                fact: "Only public records are read by queries (the public database has no change feed).",
                failing: """
                models:
                  Note:
                    catalog: { governed: true }
                    fields: {}
                """,
                fixed: """
                models:
                  Note:
                    scopes: [public]
                    catalog: { governed: true }
                    fields: {}
                """)
        case .unknownDesiredKey:
            DiagnosticExplanation(
                protects: "A catalog query asking for a field that does not exist, usually a typo.",
                fact: "Desired keys are the fields a catalog query fetches.",
                failing: ExampleSchemas.catalog("{ desiredKeys: [titel] }"),
                fixed: ExampleSchemas.catalog("{ desiredKeys: [title] }"))
        case .assetAsDesiredKey:
            DiagnosticExplanation(
                protects: "Every catalog query downloading every file: slow, and paid for in the user's bandwidth.",
                fact: "Catalog queries fetch an asset's markers (suffix, size, digest); readers download the file when they open it.",
                failing: ExampleSchemas.catalog("{ desiredKeys: [title, cover] }"),
                fixed: ExampleSchemas.catalog("{ desiredKeys: [title] }"))
        case .unknownInitialState:
            DiagnosticExplanation(
                protects: "A publication state the runtime does not have.",
                fact: "A governed record starts `listed` (visible at once) or `delisted` (waiting for review).",
                failing: ExampleSchemas.catalog("{ initialState: hidden, governed: true }"),
                fixed: ExampleSchemas.catalog("{ initialState: delisted, governed: true }"))
        case .localOnlyDesiredKey:
            DiagnosticExplanation(
                protects: "A catalog query asking for a field that is never uploaded: it always comes back empty.",
                fact: "A local-only field stays on the device that wrote it.",
                failing: ExampleSchemas.catalog("{ desiredKeys: [title, draft] }"),
                fixed: ExampleSchemas.catalog("{ desiredKeys: [title] }"))
        case .initialStateWithoutGovernance:
            DiagnosticExplanation(
                protects: "An initial state that does nothing: only governed catalogs keep a publication state.",
                fact: "`governed: true` adds the publication-lifecycle fields the state lives in.",
                failing: ExampleSchemas.catalog("{ initialState: delisted }"),
                fixed: ExampleSchemas.catalog("{ initialState: delisted, governed: true }"))
        case .encryptedReference:
            DiagnosticExplanation(
                protects: "An encrypted reference, which CloudKit refuses: it must read references on the server (for parents, sharing and deleteSelf).",
                fact: "CloudKit encrypts values, never references.",
                failing: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person, encrypted: true }
                """,
                fixed: """
                models:
                  Person:
                    fields: {}
                  Note:
                    fields:
                      author: { type: reference, to: Person }
                """)
        case .encryptedIndexed:
            DiagnosticExplanation(
                protects: "An index on an encrypted field, which CloudKit refuses: it cannot index what it cannot read.",
                fact: "CloudKit indexes plain values only.",
                failing: """
                models:
                  Note:
                    fields:
                      pin: { type: string, encrypted: true, index: [queryable] }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      pin: { type: string, encrypted: true }
                """)
        case .encryptedAssetRedundant:
            DiagnosticExplanation(
                protects: "A setting that does nothing.",
                fact: "CloudKit always encrypts assets.",
                failing: """
                models:
                  Note:
                    fields:
                      cover: { type: asset, encrypted: true }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      cover: asset
                """)
        case .encryptedInPublicModel:
            DiagnosticExplanation(
                protects: "A public field meant to be secret: everyone reads the public database.",
                fact: "The public database stores no encrypted values.",
                failing: """
                models:
                  Post:
                    scopes: [public]
                    fields:
                      body: { type: string, encrypted: true }
                """,
                fixed: """
                models:
                  Post:
                    scopes: [public]
                    fields:
                      body: string
                """)
        case .localOnlyAndServerOwned:
            DiagnosticExplanation(
                protects: "A field both never uploaded and always taken from the server: it can have no value.",
                fact: "`localOnly` keeps a field on the device; `serverOwned` takes it from the cloud.",
                failing: """
                models:
                  Note:
                    fields:
                      views: { type: int, localOnly: true, serverOwned: true }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      views: { type: int, serverOwned: true }
                """)
        case .deviceFieldEncrypted:
            DiagnosticExplanation(
                protects: "Encryption of a value that is never uploaded.",
                fact: "Encryption is how CloudKit stores an uploaded value.",
                failing: """
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true, encrypted: true }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true }
                """)
        case .deviceFieldIndexed:
            DiagnosticExplanation(
                protects: "A CloudKit index of a value the device never uploads.",
                fact: "CloudKit indexes what it stores.",
                failing: """
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true, index: [queryable] }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      draft: { type: string, localOnly: true }
                """)
        case .searchableNonString:
            DiagnosticExplanation(
                protects: "A full-text index CloudKit refuses on anything but text.",
                fact: "CloudKit's SEARCHABLE index tokenizes strings and lists of strings.",
                failing: """
                models:
                  Note:
                    fields:
                      count: { type: int, index: [searchable] }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      count: { type: int, index: [sortable] }
                """)
        case .sortableUnsupported:
            DiagnosticExplanation(
                protects: "A sort index CloudKit refuses on values without an order.",
                fact: "CloudKit sorts strings, numbers and dates; not bytes, files, places, references or lists.",
                failing: """
                models:
                  Note:
                    fields:
                      place: { type: location, index: [sortable] }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      place: { type: location, index: [queryable] }
                """)
        case .unknownIndex:
            DiagnosticExplanation(
                protects: "A misspelt index, which would never be created.",
                fact: "CloudKit's indexes are QUERYABLE, SORTABLE and SEARCHABLE.",
                failing: """
                models:
                  Note:
                    fields:
                      title: { type: string, index: [fast] }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: { type: string, index: [queryable] }
                """)
        case .publicShareable:
            DiagnosticExplanation(
                protects: "A public record offered as a share root: it is public already, and the public database has no shares.",
                fact: "CloudKit shares records of a private zone.",
                failing: """
                models:
                  Post:
                    scopes: [public]
                    shareable: true
                    fields: {}
                """,
                fixed: """
                models:
                  Post:
                    scopes: [public]
                    fields: {}
                """)
        case .publicWithParent:
            DiagnosticExplanation(
                protects: "A public record under a parent: the public database has no share hierarchy.",
                fact: "A parent places a record in its parent's zone; public records have no zones of their own.",
                failing: """
                models:
                  Feed:
                    fields: {}
                  Post:
                    scopes: [public]
                    parent: Feed
                    fields: {}
                """,
                fixed: """
                models:
                  Feed:
                    fields: {}
                  Post:
                    scopes: [public]
                    fields: {}
                """)
        case .recordTypeRemoved:
            DiagnosticExplanation(
                protects: "A record type deployed to production disappearing from the schema: production keeps it, and older app versions still use it.",
                fact: "CloudKit's production schema only grows.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Memo:
                    fields:
                      title: string
                      size: int
                """,
                fixed: """
                models:
                  Memo:
                    recordType: Note
                    fields:
                      title: string
                      size: int
                """)
        case .fieldRemoved:
            DiagnosticExplanation(
                protects: "A deployed field disappearing (or turned local-only): production keeps it, and older app versions still write it.",
                fact: "CloudKit's production schema only grows.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Note:
                    fields:
                      title: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      size: { type: int, optional: true }
                """)
        case .fieldTypeChanged:
            DiagnosticExplanation(
                protects: "A deployed field changing type: deployed records keep the old one, and CloudKit refuses a field with two types.",
                fact: "A CloudKit field's type is fixed once deployed.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Note:
                    fields:
                      title: string
                      size: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      sizeLabel: { type: string, optional: true }
                """)
        case .databaseChanged:
            DiagnosticExplanation(
                protects: "A model moved between the public database and the private ones: its deployed records stay where they are.",
                fact: "The public and private databases are separate stores.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Note:
                    scopes: [public]
                    fields:
                      title: string
                      size: int
                """,
                fixed: """
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
                """)
        case .encryptionChanged:
            DiagnosticExplanation(
                protects: "A deployed field turning encrypted or plain, which CloudKit cannot do.",
                fact: "A CloudKit field's encryption is fixed once deployed.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Note:
                    fields:
                      title: { type: string, encrypted: true }
                      size: int
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      secretTitle: { type: string, encrypted: true, optional: true }
                """)
        case .requiredFieldAdded:
            DiagnosticExplanation(
                protects: "A new required field that records from before, and older app versions' saves, do not have: they read as the type's zero value.",
                fact: "A field a record lacks comes back empty.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      color: string
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                      color: { type: string, optional: true }
                """)
        case .uniqueKeyAdded:
            DiagnosticExplanation(
                protects: "A new natural key: records from before may already hold duplicates, which merge when the new version syncs, and older app versions keep creating them.",
                fact: "Keys live in the apps, not in CloudKit: only app versions that know a key merge its duplicates. A key on a model new in the same version has no records from before (the fixed example); on an existing one, ship it when most users run a version that has it.",
                baseline: ExampleSchemas.deployedNote,
                failing: """
                models:
                  Note:
                    unique: [title]
                    fields:
                      title: string
                      size: int
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: string
                      size: int
                  Tag:
                    unique: [name]
                    fields:
                      name: string
                """)
        case .unknownKeyField:
            DiagnosticExplanation(
                protects: "A natural key of a field that does not exist, usually a typo: no records would ever be one.",
                fact: "A key is made of fields of its model.",
                failing: """
                models:
                  List:
                    unique: [titel]
                    fields:
                      title: string
                """,
                fixed: """
                models:
                  List:
                    unique: [title]
                    fields:
                      title: string
                """)
        case .keyFieldNotShared:
            DiagnosticExplanation(
                protects: "A key other devices cannot compare: a local-only field they never see, a server-owned one a new record lacks, an encrypted one the cloud cannot query.",
                fact: "Devices find each other's copies by the key's values.",
                failing: """
                models:
                  List:
                    unique: [code]
                    fields:
                      code: { type: string, localOnly: true }
                """,
                fixed: """
                models:
                  List:
                    unique: [code]
                    fields:
                      code: string
                """)
        case .keyFieldNotComparable:
            DiagnosticExplanation(
                protects: "A key whose values two devices may not see as equal: a double's last bit, bytes, a file, a place, a list.",
                fact: "Keys are made of strings, ints, bools, dates and references.",
                failing: """
                models:
                  Point:
                    unique: [weight]
                    fields:
                      weight: double
                """,
                fixed: """
                models:
                  Point:
                    unique: [code]
                    fields:
                      weight: double
                      code: string
                """)
        case .uniqueOnPublicModel:
            DiagnosticExplanation(
                protects: "Merging public records of different users: no device may delete another user's public record.",
                fact: "Each public record belongs to the user who created it.",
                failing: """
                models:
                  Post:
                    scopes: [public]
                    unique: [title]
                    fields:
                      title: string
                """,
                fixed: """
                models:
                  Post:
                    scopes: [public]
                    fields:
                      title: string
                """)
        case .repeatedKeyField:
            DiagnosticExplanation(
                protects: "A key written twice, or a field named twice in one, usually a leftover of an edit.",
                fact: "A key is a set of fields; keys are a set of keys.",
                failing: """
                models:
                  List:
                    unique: [title, title]
                    fields:
                      title: string
                """,
                fixed: """
                models:
                  List:
                    unique: [title]
                    fields:
                      title: string
                """)
        case .unknownMergePolicy:
            DiagnosticExplanation(
                protects: "A misspelt merge policy, which would leave concurrent edits to the default.",
                fact: "The policies are lastWriterWins, serverWins, clientWins, union, max, min and custom.",
                failing: """
                models:
                  Note:
                    fields:
                      visits: { type: int, merge: maximum }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      visits: { type: int, merge: max }
                """)
        case .mergePolicyNotForType:
            DiagnosticExplanation(
                protects: "A merge that cannot combine the field's values (a union of two strings, the larger of two bools), or a field's merge given to a whole model.",
                fact: "`union` merges lists; `max` and `min` numbers and dates; a model's policy is lastWriterWins, serverWins or clientWins.",
                failing: """
                models:
                  Note:
                    fields:
                      title: { type: string, merge: union }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      title: { type: string, merge: lastWriterWins }
                """)
        case .mergeOnDeviceField:
            DiagnosticExplanation(
                protects: "A merge of a field that is never merged: a pull never changes a local-only field, and a server-owned one is always the server's.",
                fact: "Only fields both a device and the cloud write can conflict.",
                failing: """
                models:
                  Note:
                    fields:
                      views: { type: int, serverOwned: true, merge: max }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      views: { type: int, serverOwned: true }
                """)
        case .listWithoutMerge:
            DiagnosticExplanation(
                protects: "An element lost without a word: two devices add to one list at once, and the conflict keeps one device's whole list, so what the other added is gone. It is a note: keeping one side's list may be what the app wants, and saying so silences it.",
                fact: "Without a field's `merge`, a conflict settles a list like any value, by the model's policy (`lastWriterWins` unless the model or the app's configuration says otherwise). `merge: union` keeps every element either side added and none either side removed.",
                failing: """
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string }
                      history: { type: list, of: string }
                """,
                fixed: """
                models:
                  Note:
                    fields:
                      tags: { type: list, of: string, merge: union }
                      history: { type: list, of: string, merge: lastWriterWins }
                """)
        }
    }
}

/// Schemas several explanations share.
private enum ExampleSchemas {
    /// The deployed schema the evolution codes' examples are compared with.
    static let deployedNote = """
        models:
          Note:
            fields:
              title: string
              size: int
        """

    /// A public model with an asset and a local-only field, its catalog `block`.
    static func catalog(_ block: String) -> String {
        """
        models:
          Feed:
            scopes: [public]
            catalog: \(block)
            fields:
              title: string
              cover: asset
              draft: { type: string, localOnly: true }
        """
    }
}
