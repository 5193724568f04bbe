/// A field of a model as a server query names it: its record key, the Swift type of its value,
/// and the CloudKit indexes the schema gives it (`Index`, one of `ServerIndexes`). Generated,
/// one per field, in the model's `ServerFields`; a query names them by key path
/// (`\.title == "Soup"`).
public struct ServerField<Model: ServerQueryable, Value: Sendable, Index>: Sendable {
    /// The field's key in the record.
    public let name: String

    /// The field of key `name` (generated code).
    public init(_ name: String) {
        self.name = name
    }
}

/// A list field as a server query names it, by the type of its elements: a condition on it asks
/// whether the list holds a value (`ServerPredicate.contains`), as CloudKit's `CONTAINS` does.
public struct ServerListField<Model: ServerQueryable, Element: Sendable, Index>: Sendable {
    /// The field's key in the record.
    public let name: String

    /// The field of key `name` (generated code).
    public init(_ name: String) {
        self.name = name
    }
}

/// What a condition reads of a server query's field, of either kind: its record key.
protocol NamedServerField {
    var name: String { get }
}

extension ServerField: NamedServerField {}
extension ServerListField: NamedServerField {}

/// A model CloudKit can search on the server (every generated model): its generated
/// `ServerFields` list the fields a server query may name, with their indexes.
public protocol ServerQueryable: SyncModel {
    /// The fields a server query may name, each a `ServerField` carrying its indexes.
    associatedtype ServerFields: Sendable
    /// The model's fields, for the key paths of a query to read.
    static var serverFields: ServerFields { get }
    /// The record keys a page of a query fetches: every field but asset contents.
    static var serverQueryKeys: [String] { get }
}

/// A model with a field the schema marks `searchable`: a `ServerQuery` of it may search its text
/// (`matching(_:)`).
public protocol ServerTextSearchable: ServerQueryable {}
