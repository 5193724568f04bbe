/// The names random schemas draw from: the ones most likely to break generated Swift. Some are
/// refused by the validator (that is part of what the random run checks: a located error); the
/// rest must compile.
enum HostileNames {
    /// Types of the standard library, Foundation and Swift's concurrency: a model of one of
    /// these names must not capture what generated code means by it.
    static let standardTypes = [
        "String", "Int", "Int64", "Int32", "UInt", "Double", "Float", "Bool", "Character", "Substring",
        "Array", "Set", "Dictionary", "Optional", "Result", "Never", "Void", "Error", "Range",
        "Sendable", "Hashable", "Equatable", "Comparable", "Identifiable", "Codable", "Encodable",
        "Decodable", "Sequence", "Collection", "Hasher", "KeyPath", "AnyKeyPath", "PartialKeyPath",
        "WritableKeyPath", "AnyHashable", "AnyObject", "ObjectIdentifier", "Mirror", "Unicode",
        "CustomStringConvertible", "Element", "Index", "Iterator", "Wrapped", "Type", "Protocol",
        "Task", "Actor", "MainActor", "AsyncStream", "Date", "Data", "UUID", "URL", "Locale",
        "TimeZone", "Calendar", "Decimal", "NSObject", "Notification", "Measurement", "IndexSet",
        "JSONEncoder", "Bundle", "Thread", "FileManager",
    ]

    /// The runtime's public types and protocols, which generated code names through `SyncCore.`.
    static let runtimeTypes = [
        "SyncModel", "SyncRecord", "RecordReference", "AssetReference", "SyncLocation", "ModelFields",
        "ModelField", "TombstoneKeyPath", "DatabaseScope", "SyncConstants", "PublicationLifecycle",
        "PublicationState", "EncodedFields", "RecordFields", "FieldDecodingError", "FieldDescriptor",
        "ShareableModel", "CacheableModel", "PublicCatalogModel", "PublicationGovernedModel",
        "PublishableModel", "SyncSchemaDefinition", "SyncgenRuntimeAPIVersion1", "Query",
        "QueryPredicate", "RecordID", "ZoneID", "SyncFieldValue", "RecordFieldNames",
    ]

    /// What generated code declares or names itself: its schema type, the modules it qualifies
    /// with, its members, locals and parameters, the member types of the protocols it conforms to.
    static let generatedNames = [
        "SyncSchema", "SyncgenRuntimeVersionCheck", "SyncCore", "SyncRuntime", "Foundation", "Swift",
        "models", "ID", "Projection", "recordType", "syncScopes", "parentRecordType", "childTypes",
        "syncFields", "fieldTable", "tombstoneKeyPaths", "parentRecordName", "assetFieldName",
        "assetReference", "catalogDesiredKeys", "initialPublicationState", "publicationLifecycle",
        "shareTitle", "project", "projection", "makeProjection", "encodeRemoteFields",
        "applyRemoteFields", "encodeStoredFields", "applyStoredFields", "makeRecord", "zoneID",
        "resolvedScope", "fieldDescriptors", "storedKeys", "fieldName", "emptyRecordNamed", "id",
        "hash", "hashValue", "description", "fields", "record", "value", "values", "encryptedValues",
        "model", "newValue", "oldValue", "table", "rows", "pointer", "local", "server", "zone",
        "descriptor", "recordName", "ownerName", "parent", "init", "self", "Self", "super", "error",
    ]

    /// Swift's keywords and contextual keywords, as model and field names.
    static let keywords = [
        "class", "struct", "enum", "protocol", "extension", "func", "var", "let", "import", "default",
        "in", "is", "as", "if", "else", "for", "while", "return", "switch", "case", "where", "do",
        "try", "throw", "throws", "rethrows", "await", "async", "static", "public", "private",
        "internal", "open", "fileprivate", "package", "true", "false", "nil", "Any", "some", "any",
        "get", "set", "willSet", "didSet", "mutating", "nonmutating", "override", "lazy", "weak",
        "unowned", "final", "required", "optional", "convenience", "dynamic", "indirect", "actor",
        "macro", "isolated", "nonisolated", "each", "repeat", "consume", "copy", "borrowing",
        "consuming", "discard", "then", "associatedtype", "typealias", "operator", "subscript",
        "deinit", "inout", "defer", "guard", "break", "continue", "fallthrough", "catch",
    ]

    /// CloudKit's system fields and the fields the runtime adds: refused as field names.
    static let reservedFields = [
        "recordID", "creationDate", "creatorUserRecordID", "modificationDate", "recordChangeTag",
        "etag", "share", "clientModifiedAt", "assetData", "assetSuffix", "assetSize", "assetDigest",
        "publicationState", "publicationVersion", "publishedAt", "reviewState",
    ]

    /// Ordinary names, so that most of a schema reads like one people write.
    static let ordinaryModels = [
        "Note", "List", "Item", "Person", "Tag", "Photo", "Album", "Recipe", "Step", "Event", "Place",
        "Comment", "Project", "Folder", "Book", "Chapter", "Song", "Playlist", "Trip", "Invoice",
    ]

    static let ordinaryFields = [
        "title", "name", "body", "count", "done", "createdAt", "tags", "score", "cover", "author",
        "position", "color", "notes", "amount", "rating", "url", "email", "isPinned", "owner",
        "subtitle", "summary", "Title", "URL", "x", "a1", "snake_case", "camelCase", "ALLCAPS",
    ]

    /// Letters beyond ASCII, and the characters a diagnostic must escape: refused (CloudKit and
    /// Swift type names here are ASCII), each with a located error.
    static let unicodeNames = [
        "Café", "título", "naïve", "Δέλτα", "名前", "Ñandú", "Straße", "ﬁeld", "e\u{301}clair",
        "evil\u{202E}txt", "bell\u{7}", "tab\tname", "zero\u{200B}width",
    ]
}
