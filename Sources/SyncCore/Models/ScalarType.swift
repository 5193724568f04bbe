/// A field type of the schema language that holds one value: every type but `reference` and
/// `list`, which are built from the others. Its raw value is the word a schema writes.
///
/// What every layer needs to know of a type (its Swift spelling, its CloudKit type, its store
/// column, the defaults and indexes it takes) is in ``facts``, one entry per type: the generator,
/// the validator, the exports and the store read it there, and no rule lists types. Adding a type
/// is adding a case and its facts (CONTRIBUTING.md, "Add a field type").
public enum ScalarType: String, CaseIterable, Hashable, Sendable {
    /// Text.
    case string
    /// A 64-bit signed integer.
    case int
    /// A 64-bit floating-point number.
    case double
    /// True or false, an integer 0 or 1 in CloudKit.
    case bool
    /// A moment.
    case date
    /// Bytes kept in the record.
    case data
    /// A file, uploaded and downloaded on its own (a `CKAsset`).
    case asset
    /// A latitude and a longitude.
    case location
    /// A URL, sent and stored as its absolute string.
    case url
    /// A UUID, sent and stored as its canonical string (lowercase, RFC 9562).
    case uuid
    /// One of the cases the field names (`cases:`), a Swift enum generated for the field, sent
    /// and stored as the case's name; a name this app version does not know is kept as it came.
    case `enum`

    /// Everything the layers know of the type, in one place.
    package var facts: ScalarTypeFacts {
        switch self {
        case .string:
            ScalarTypeFacts(
                swiftType: "Swift.String", zeroValue: "\"\"", cloudKitType: "STRING", storedForm: .text,
                defaultLiteral: .text, order: .utf8, isSearchable: true, isKeyComparable: true,
                documentation: "Text: a Swift String, a STRING in CloudKit.")
        case .int:
            ScalarTypeFacts(
                swiftType: "Swift.Int64", zeroValue: "0", cloudKitType: "INT64", storedForm: .integer,
                defaultLiteral: .integer, order: .numeric, isKeyComparable: true, mergesByExtreme: true, article: "an",
                documentation: "A 64-bit signed integer: Int64, INT64 in CloudKit.")
        case .double:
            ScalarTypeFacts(
                swiftType: "Swift.Double", zeroValue: "0", cloudKitType: "DOUBLE", storedForm: .real,
                defaultLiteral: .number, order: .numeric, mergesByExtreme: true,
                documentation: "A Double, DOUBLE in CloudKit.")
        case .bool:
            ScalarTypeFacts(
                swiftType: "Swift.Bool", zeroValue: "false", cloudKitType: "INT64", storedForm: .integer,
                defaultLiteral: .boolean, order: .numeric, isKeyComparable: true,
                narrowing: "a number other than 0 and 1 reads as true, and is saved back as 1",
                documentation: "A Bool, kept as INT64 0 or 1 in CloudKit.")
        case .date:
            ScalarTypeFacts(
                swiftType: "Foundation.Date", zeroValue: "Foundation.Date(timeIntervalSince1970: 0)", cloudKitType: "TIMESTAMP",
                storedForm: .date, defaultLiteral: .moment, order: .chronological, isKeyComparable: true, mergesByExtreme: true,
                documentation: "A Date, TIMESTAMP in CloudKit.")
        case .data:
            ScalarTypeFacts(
                swiftType: "Foundation.Data", zeroValue: "Foundation.Data()", cloudKitType: "BYTES", storedForm: .bytes,
                documentation: "Bytes: Data, BYTES in CloudKit.")
        case .asset:
            ScalarTypeFacts(
                swiftType: "SyncCore.AssetReference", zeroValue: "nil", cloudKitType: "ASSET", storedForm: .encoded,
                isAlwaysOptional: true, isListElement: false, article: "an",
                documentation: "A file, a CKAsset, kept in the asset cache: a model may hold several, never in a list.")
        case .location:
            ScalarTypeFacts(
                swiftType: "SyncCore.SyncLocation", zeroValue: "SyncCore.SyncLocation(latitude: 0, longitude: 0)", cloudKitType: "LOCATION",
                storedForm: .encoded,
                documentation: "Latitude and longitude: a LOCATION in CloudKit.")
        case .url:
            // No zero: a required url is given by the caller, as a required reference is.
            ScalarTypeFacts(
                swiftType: "Foundation.URL", zeroValue: nil, unsetValue: "Foundation.URL.unsetField", cloudKitType: "STRING",
                storedForm: .text, order: .utf8, isKeyComparable: true,
                narrowing: "a string that is no URL cannot be read: its record is set aside as unreadable",
                documentation: "A URL: Foundation.URL, its absolute string (a STRING) in CloudKit.")
        case .uuid:
            // The Nil UUID (RFC 9562, all zeros), as an int starts at 0: spelt with Foundation's
            // public API alone, since a public initializer's default argument may use no other.
            ScalarTypeFacts(
                swiftType: "Foundation.UUID", zeroValue: "Foundation.UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))",
                cloudKitType: "STRING", storedForm: .text,
                order: .utf8, isKeyComparable: true,
                narrowing: "a string that is no UUID cannot be read: its record is set aside as unreadable",
                documentation: "A UUID: Foundation.UUID, its lowercase string (a STRING) in CloudKit.")
        case .enum:
            // Its Swift type is generated for each field (ScalarTypeFacts.swiftType nil), and
            // starts at the first of the field's cases.
            ScalarTypeFacts(
                swiftType: nil, zeroValue: nil, cloudKitType: "STRING", storedForm: .text, defaultLiteral: .caseName, order: .utf8,
                isKeyComparable: true, article: "an",
                documentation: "One of the names 'cases' lists: a Swift enum, the case's name (a STRING) in CloudKit.")
        }
    }
}

/// What the layers know of one ``ScalarType``: the generator's Swift, the validator's rules, the
/// CloudKit schema and the store's column.
package struct ScalarTypeFacts: Sendable {
    /// The Swift type a generated property of it has, qualified (`Swift.String`): a model named
    /// like a library's type cannot capture it. Nil: a type generated for each field (an enum).
    package var swiftType: String?
    /// The Swift value a required field of it holds when the schema gives no default; nil:
    /// there is none that means nothing, and the caller gives one.
    package var zeroValue: String?
    /// What a required field of it without a zero value holds in a model decoded from a record
    /// that has no value of it (nil: the zero value).
    package var unsetValue: String?
    /// Its type in CloudKit's schema (a `.ckdb` file, the dashboard).
    package var cloudKitType: String
    /// How the local store keeps a value of it in the model's table.
    package var storedForm: StoredForm
    /// How a schema's `default:` for it is written; nil: it takes no default.
    package var defaultLiteral: DefaultLiteral?
    /// Optional in Swift whatever the schema says: nil is "none attached" (an asset).
    package var isAlwaysOptional: Bool
    /// A list may hold it.
    package var isListElement: Bool
    /// How two of its values compare, wherever they are compared (a query's sort and range, a
    /// group's order, `min` and `max` of a query, `merge: max`/`min`): nil, they do not. One
    /// order, which `QueryValueOrder` applies to the values as they are stored (`storedForm`:
    /// `utf8` is kept as text, `numeric` as an integer or a real, `chronological` as a date).
    package var order: Order?
    /// CloudKit can sort query results by it (`index: sortable`): a type that has an order.
    package var isSortable: Bool { order != nil }
    /// CloudKit can search its words (`index: searchable`), alone or in a list.
    package var isSearchable: Bool
    /// A `unique` key may hold it: its values compare exactly on every device.
    package var isKeyComparable: Bool
    /// `merge: max` and `merge: min` can combine two of its values.
    package var mergesByExtreme: Bool
    /// What a value of its CloudKit type that another schema type wrote (a field that changed
    /// type, both the same in CloudKit) becomes when read as this one; nil: every such value
    /// reads as it is.
    package var narrowing: String?
    /// "a" or "an", before its word in a message.
    package var article: String
    /// Its one line, in completion and hover.
    package var documentation: String

    init(
        swiftType: String?, zeroValue: String?, unsetValue: String? = nil, cloudKitType: String, storedForm: StoredForm,
        defaultLiteral: DefaultLiteral? = nil,
        isAlwaysOptional: Bool = false, isListElement: Bool = true, order: Order? = nil, isSearchable: Bool = false,
        isKeyComparable: Bool = false, mergesByExtreme: Bool = false, narrowing: String? = nil, article: String = "a", documentation: String
    ) {
        self.swiftType = swiftType
        self.zeroValue = zeroValue
        self.unsetValue = unsetValue
        self.cloudKitType = cloudKitType
        self.storedForm = storedForm
        self.defaultLiteral = defaultLiteral
        self.isAlwaysOptional = isAlwaysOptional
        self.isListElement = isListElement
        self.order = order
        self.isSearchable = isSearchable
        self.isKeyComparable = isKeyComparable
        self.mergesByExtreme = mergesByExtreme
        self.narrowing = narrowing
        self.article = article
        self.documentation = documentation
    }

    /// How a schema writes a default value of the type.
    package enum DefaultLiteral: Sendable, Hashable {
        /// A YAML string.
        case text
        /// A YAML integer that fits in 64 bits.
        case integer
        /// A YAML number, finite, that a Double holds.
        case number
        /// `true` or `false`.
        case boolean
        /// `now`, or an ISO 8601 date.
        case moment
        /// One of the field's case names.
        case caseName
    }

    /// How values of a type are ordered.
    package enum Order: Sendable, Hashable {
        /// Text, by its UTF-8 bytes: SQLite's default collation, and the order of a URL's absolute
        /// string, a UUID's lowercase string, an enum case's name.
        case utf8
        /// Numbers by value (an integer and a real compare as numbers; false before true).
        case numeric
        /// Moments by time.
        case chronological
    }

    /// How the store keeps a value in its model's table. The words are on disk (the table's
    /// catalog): a form is never renamed.
    package enum StoredForm: String, Sendable, Hashable {
        /// An SQLite `TEXT` column.
        case text
        /// An SQLite `INTEGER` column.
        case integer
        /// An SQLite `REAL` column, every bit kept.
        case real
        /// An SQLite `BLOB` column of the bytes themselves.
        case bytes
        /// Seconds since 2001, as `Date` keeps them: exact.
        case date
        /// The store's binary form (`FieldsCodec`), in a `BLOB` column.
        case encoded
    }
}
