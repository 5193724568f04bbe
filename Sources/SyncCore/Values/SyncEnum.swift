/// The Swift type syncgen generates for a schema `enum` field: a case for each name the schema's
/// `cases` lists, and `unknown` for any other name, which a newer version of the app may have
/// written. Such a value is kept as it came and written back unchanged, never a decoding error
/// and never reset to a known case. A value travels and is stored as its name (`rawValue`).
///
/// A query orders and compares its values by name (`QueryComparable`), as it stores them.
public protocol SyncEnum: QueryComparable, RawRepresentable, Hashable, Sendable where RawValue == String {
    /// The case of this name, or `unknown` holding it.
    init(rawValue: String)
}

extension SyncEnum {
    /// The case's name, as a CloudKit string.
    @inlinable public var syncFieldValue: SyncFieldValue { .string(rawValue) }

    /// The case a string names (`unknown` for one this version does not know); nil for a value
    /// of another kind.
    @inlinable public static func fromSyncFieldValue(_ value: SyncFieldValue) -> Self? {
        if case .string(let name) = value { return Self(rawValue: name) }
        return nil
    }

    /// The type's name in a decoding error.
    public static var syncTypeName: String { "enum" }

    /// A schema `enum`.
    public static var syncValueType: FieldDescriptor.ValueType { .scalar(.enum) }
}
