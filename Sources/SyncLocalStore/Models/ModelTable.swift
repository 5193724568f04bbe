import Foundation
import SyncCore
import SyncStorage

/// One model type's table: a row per record, with the runtime's columns (`_name`, `_owner`,
/// `_parent`, `_modified`), one typed column per schema field, and `_extra` for what the device
/// keeps beside the fields (an asset's markers, a publication lifecycle, and the values of fields
/// a later schema no longer has). The parent reference is `_parent`'s (a store written before
/// kept it in `_extra` too, where it stays until the row is next written). Underscored names cannot clash with
/// fields: a CloudKit field name starts with a letter.
///
/// The columns are the store's own record of the table (`model_columns`), so a row reads back
/// into its fields without the Swift type: what parking an account's changes needs.
///
/// A class: every save hands its table around, and a copy is then one reference rather than
/// one for each of its names, columns and SQL texts. It never changes once made (`adding`
/// makes another).
final class ModelTable: Sendable, Hashable {
    /// How a column keeps its values: a scalar type's stored form (its facts'), or a reference.
    enum Kind: Sendable, Hashable {
        typealias Form = ScalarTypeFacts.StoredForm

        /// As the type's facts keep it (`ScalarTypeFacts.StoredForm`): text, an integer, a real,
        /// bytes, a date (seconds since 2001, as `Date` keeps them: exact), or the store's binary
        /// form for a location, a list or an asset (or any value, for a field the schema dropped
        /// whose values were not all of one kind).
        case form(Form)
        /// The target's record name; the action is the field's.
        case reference(ReferenceAction)

        /// The kind a value of a field no schema describes any more is kept in.
        init(of value: SyncFieldValue) {
            switch value {
            case .string: self = .form(.text)
            case .int64: self = .form(.integer)
            case .double: self = .form(.real)
            case .date: self = .form(.date)
            case .bytes: self = .form(.bytes)
            case .reference(let reference): self = .reference(reference.action)
            case .location, .asset, .list: self = .form(.encoded)
            }
        }

        /// The kind a field of the type is kept in: a scalar type's as its facts say.
        init(_ type: FieldDescriptor.ValueType) {
            switch type {
            case .scalar(let scalar): self = .form(scalar.facts.storedForm)
            case .reference(_, let action): self = .reference(action)
            case .list: self = .form(.encoded)
            }
        }

        /// How the catalog spells it: a form's word, or the reference's.
        var storedValue: String {
            switch self {
            case .form(let form): form.rawValue
            case .reference(let action): "reference." + (action == .deleteSelf ? "deleteSelf" : "none")
            }
        }

        init?(storedValue: String) {
            switch storedValue {
            case "reference.none": self = .reference(.none)
            case "reference.deleteSelf": self = .reference(.deleteSelf)
            default:
                guard let form = Form(rawValue: storedValue) else { return nil }
                self = .form(form)
            }
        }

        /// The column's declared SQL type.
        var sqlType: String {
            switch self {
            case .form(.text), .reference: "TEXT"
            case .form(.integer): "INTEGER"
            case .form(.real), .form(.date): "REAL"
            case .form(.bytes), .form(.encoded): "BLOB"
            }
        }

        /// The column's value for a field's value, or nil when the value is not of this kind
        /// (it is kept in `_extra` then: nothing is lost).
        func column(_ value: SyncFieldValue) -> SQLiteValue? {
            switch (self, value) {
            case (.form(.text), .string(let text)): .text(text)
            case (.form(.integer), .int64(let number)): .integer(number)
            case (.form(.real), .double(let number)): .real(number)
            case (.form(.date), .date(let date)): .real(date.timeIntervalSinceReferenceDate)
            case (.form(.bytes), .bytes(let data)): .blob(data)
            case (.reference(let action), .reference(let reference)) where reference.action == action: .text(reference.recordName)
            case (.form(.encoded), _): .blob(FieldsCodec.encode(value: value))
            default: nil
            }
        }

        /// Whether the column would give `value` back other than it went in: SQLite keeps a NaN
        /// as NULL and a negative zero as zero (a REAL column stores a whole number as an
        /// integer). Such a value goes to `_extra` too, and is read back from there; the column
        /// keeps what queries compare (`-0.0 == 0`, and a NaN equals nothing).
        func columnAlters(_ value: SyncFieldValue) -> Bool {
            switch (self, value) {
            case (.form(.real), .double(let number)): Self.realAlters(number)
            case (.form(.date), .date(let date)): Self.realAlters(date.timeIntervalSinceReferenceDate)
            default: false
            }
        }

        private static func realAlters(_ number: Double) -> Bool {
            number.isNaN || (number == 0 && number.sign == .minus)
        }

        /// The field's value in a row's column; nil for NULL.
        func value(_ row: SQLiteRow, _ column: Int32) throws -> SyncFieldValue? {
            let stored = row.value(column)
            if case .null = stored { return nil }
            switch self {
            case .form(.text): return .string(stored.text)
            case .form(.integer): return .int64(stored.integer)
            case .form(.real): return .double(stored.real)
            case .form(.date): return .date(Date(timeIntervalSinceReferenceDate: stored.real))
            case .form(.bytes): return .bytes(stored.blob)
            case .reference(let action): return .reference(SyncReference(recordName: stored.text, action: action))
            case .form(.encoded): return try FieldsCodec.decodeValue(stored.blob)
            }
        }
    }

    /// A field's column.
    struct Column: Sendable, Hashable {
        var name: String
        var kind: Kind

        /// The column's value in SQL: its quoted name, or, for the owner, the owner's name as
        /// `ownerSQL` gives it back.
        var sql: String { name == "_owner" ? ModelTable.ownerSQL : ModelTable.quoted(name) }
    }

    let recordType: String
    /// The field columns, in the order the table has them.
    let columns: [Column]
    /// Every column a row is written and read with: the runtime's, then the fields'.
    let selectList: String
    /// `selectList` for rows read only to become models: `_modified`, which no model holds, is
    /// NULL in its place (SQLite then reads a column fewer per row).
    let modelSelectList: String
    /// The upsert of a row: a new record's row, or the columns of an existing one rewritten
    /// (columns this table has beyond `columns`, of fields the schema dropped, keep their values).
    let upsert: String
    /// The row of one record, by name: made once, so each lookup finds its prepared statement by
    /// the text's identity.
    let selectByName: String
    /// The rows of the records named in a JSON array (`QuotedText.jsonArray`).
    let selectByNames: String
    private let columnIndex: [String: Int]
    /// The updates of some columns (`update`), made once per set of columns.
    private let updateStatements = UpdateStatements()

    init(recordType: String, columns: [Column]) {
        self.recordType = recordType
        self.columns = columns
        let all = Self.runtimeColumns + columns.map(\.name)
        selectList = all.map(Self.quoted).joined(separator: ", ")
        modelSelectList = (["_name", "_owner", "_parent", "NULL", "_extra"] + columns.map { Self.quoted($0.name) }).joined(separator: ", ")
        let updates = all.dropFirst().map { "\(Self.quoted($0)) = excluded.\(Self.quoted($0))" }.joined(separator: ", ")
        upsert = """
            INSERT INTO \(Self.sqlName(recordType)) (\(selectList)) VALUES (\(Array(repeating: "?", count: all.count).joined(separator: ", ")))
            ON CONFLICT(_name) DO UPDATE SET \(updates)
            """
        selectByName = "SELECT \(selectList) FROM \(Self.sqlName(recordType)) WHERE _name = ?"
        selectByNames = "SELECT \(selectList) FROM \(Self.sqlName(recordType)) WHERE _name IN (SELECT value FROM json_each(?))"
        columnIndex = Dictionary(columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Tables are equal when they have the same record type and columns: the rest follows.
    static func == (lhs: ModelTable, rhs: ModelTable) -> Bool {
        lhs.recordType == rhs.recordType && lhs.columns == rhs.columns
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(recordType)
        hasher.combine(columns)
    }

    /// The column of a field, if the table has one.
    func column(named name: String) -> Column? {
        columnIndex[name].map { columns[$0] }
    }

    /// The table with one more column.
    func adding(_ column: Column) -> ModelTable {
        ModelTable(recordType: recordType, columns: columns + [column])
    }

    /// The table's name in SQL (quoted): `model_` and the record type.
    var sqlName: String { Self.sqlName(recordType) }

    static func sqlName(_ recordType: String) -> String { "\"model_\(recordType)\"" }

    static func quoted(_ column: String) -> String { "\"\(column)\"" }

    /// `_owner` in SQL: the owner's name (`StoredOwner`).
    static let ownerSQL = StoredOwner.sql("_owner")

    /// The runtime's columns, first in every table, in this order.
    static let runtimeColumns = ["_name", "_owner", "_parent", "_modified", "_extra"]
    /// `_parent`'s and `_extra`'s places in a row read with `selectList`.
    static let parentColumn: Int32 = 2
    static let extraColumn: Int32 = 4

    /// Writes a record's row (`upsert`): each field in its column when its value is of the
    /// column's kind, the parent reference in `_parent` (`keepsParent`), everything else in
    /// `_extra` (and a value the column would alter in both: `Kind.columnAlters`). Each value is
    /// bound as it is found, with no array of them between.
    func write(name: String, owner: String, parent: String?, modified: Date, fields: RecordFields, to database: SQLiteDatabase) throws(SQLiteError) {
        try database.run(upsert) { (parameters: inout SQLiteParameters) throws(SQLiteError) in
            try parameters.set(1, .text(name))
            try parameters.set(2, .text(StoredOwner.column(owner)))
            if let parent { try parameters.set(3, .text(parent)) }
            try parameters.set(4, .real(modified.timeIntervalSince1970))
            let firstField = Int32(Self.runtimeColumns.count + 1)
            var extra = RecordFields()
            var next = 0
            for (key, value) in fields {
                let index = columnIndex(of: key, expectedAt: next)
                if let index { next = index + 1 }
                if let index, let column = columns[index].kind.column(value) {
                    try parameters.set(firstField + Int32(index), column)
                    if columns[index].kind.columnAlters(value) { extra.append(key, value) }
                } else if index == nil, Self.keepsParent(key, value, parent) {
                    continue
                } else {
                    extra.append(key, value)
                }
            }
            if !extra.isEmpty { try parameters.set(Self.extraColumn + 1, .blob(FieldsCodec.encode(extra))) }
        }
    }

    /// Writes the columns of the fields `names` of a stored row, and its modification time, when
    /// the row is the record as given (same owner and parent) and every value fits its column as
    /// it is (nothing kept in `_extra`, before or after); whether it did. The rest of the row, and
    /// the indexes of other columns, are left as they are.
    func update(name: String, owner: String, parent: String?, modified: Date, fields: RecordFields, only names: Set<String>, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        let statement = updateStatements.statement(for: names, of: self)
        var values: [SQLiteValue] = []
        for index in statement.places {
            guard let value = fields[columns[index].name] else {
                values.append(.null)
                continue
            }
            guard let column = columns[index].kind.column(value), !columns[index].kind.columnAlters(value) else { return false }
            values.append(column)
        }
        try database.run(statement.sql) { (parameters: inout SQLiteParameters) throws(SQLiteError) in
            try parameters.set(1, .real(modified.timeIntervalSince1970))
            for (offset, value) in values.enumerated() { try parameters.set(Int32(offset + 2), value) }
            let at = Int32(values.count + 2)
            try parameters.set(at, .text(name))
            try parameters.set(at + 1, .text(StoredOwner.column(owner)))
            if let parent { try parameters.set(at + 2, .text(parent)) }
        }
        return database.changes > 0
    }

    /// Where the column of the field `key` is among `columns`, if the table has one, looked for
    /// first at `position` (the one after the last found): a model's fields come in schema order,
    /// which is the columns' order for a table the schema made, so the lookup is mostly one
    /// comparison of two short names (equal short names share their bits) rather than a hash.
    func columnIndex(of key: String, expectedAt position: Int) -> Int? {
        if position < columns.count, columns[position].name == key { return position }
        return columnIndex[key]
    }

    /// Where a reference a model of this table holds is kept: the parent in `_parent`, a
    /// reference field in its column, a list of references in its column (`isList`); nil for a
    /// key path that is none of them. What joins and related conditions compare record names
    /// with.
    func referenceColumn<Model: SyncModel>(_ keyPath: AnyKeyPath, of model: Model.Type) -> (sql: String, isList: Bool)? {
        if Model.isParent(keyPath) { return ("_parent", false) }
        guard let name = Model.fieldName(for: keyPath), let column = column(named: name) else { return nil }
        switch column.kind {
        case .reference: return (column.sql, false)
        case .form(.encoded): return (column.sql, true)
        default: return nil
        }
    }

    /// Whether the stored field `key` is the parent reference that `_parent` holds as it is
    /// (`parent`, no action), so that `_extra` need not: the parent field reads back from
    /// `_parent` (`record`, and `StoreReader`'s columns).
    static func keepsParent(_ key: String, _ value: SyncFieldValue, _ parent: String?) -> Bool {
        guard key == RecordFieldNames.storedParent, let parent, case .reference(let reference) = value else { return false }
        return reference.recordName == parent && reference.action == parentAction
    }

    /// The parent field `_parent` holds, as the model keeps it (`keepsParent`).
    static func parentField(_ recordName: String) -> SyncFieldValue {
        .reference(SyncReference(recordName: recordName, action: parentAction))
    }

    /// `_parent` read as a field column: the parent reference, which carries no action (the
    /// cloud's parent is no reference field).
    static let parentAction = ReferenceAction.none

    /// A row read with `selectList` (from column `offset` on): its runtime values and fields.
    func record(_ row: SQLiteRow, offset: Int = 0) throws -> StoredRow {
        let at = { (column: Int) in Int32(offset + column) }
        let hasExtra = !row.isNull(at(Int(Self.extraColumn)))
        let parent = row.optionalText(at(Int(Self.parentColumn)))
        var fields = hasExtra ? try FieldsCodec.decode(row.blob(at(Int(Self.extraColumn)))) : RecordFields(minimumCapacity: columns.count + 1)
        // A row written before `_parent` held the parent alone keeps it in `_extra` too.
        if let parent, fields[RecordFieldNames.storedParent] == nil {
            fields.append(RecordFieldNames.storedParent, Self.parentField(parent))
        }
        for (index, column) in columns.enumerated() {
            guard let value = try column.kind.value(row, at(Self.runtimeColumns.count + index)) else { continue }
            // A column's key is in `_extra` only for a value the column alters, which `_extra`
            // holds exactly: it wins.
            if !hasExtra {
                fields.append(column.name, value)
            } else if fields[column.name] == nil {
                fields[column.name] = value
            }
        }
        return StoredRow(
            name: row.text(at(0)), owner: StoredOwner.name(row.text(at(1))), parent: parent,
            modified: Date(timeIntervalSince1970: row.real(at(3))), fields: fields)
    }

    /// The table as a model writes it: only the columns of `names` (a column of a field the
    /// model no longer has is left as it is).
    func writing(_ names: Set<String>) -> ModelTable {
        ModelTable(recordType: recordType, columns: columns.filter { names.contains($0.name) })
    }
}

/// A record's row as the store keeps it.
struct StoredRow {
    var name: String
    var owner: String
    var parent: String?
    var modified: Date
    var fields: RecordFields
}

/// A table's updates of some of its columns, by the fields they write: a batch of edits of one
/// field finds its columns and its statement's text (and so the prepared statement) without
/// working them out again.
final class UpdateStatements: Sendable {
    /// The update of some fields: their columns' places, in table order, and its SQL.
    struct Statement: Sendable {
        let places: [Int]
        let sql: String
    }

    private let statements = Locked<[Set<String>: Statement]>([:])

    /// The update of the columns of the fields `names` and `_modified` (parameters: the time, the
    /// values in column order, then the name, owner and parent the row must have), found by the
    /// names: a batch of edits of one field finds its columns once.
    func statement(for names: Set<String>, of table: ModelTable) -> Statement {
        if let statement = statements.withLock({ $0[names] }) { return statement }
        let places = table.columns.indices.filter { names.contains(table.columns[$0].name) }
        let sets = (["_modified"] + places.map { table.columns[$0].name }).map { "\(ModelTable.quoted($0)) = ?" }.joined(separator: ", ")
        let statement = Statement(places: places, sql: "UPDATE \(table.sqlName) SET \(sets) WHERE _name = ? AND _owner = ? AND _parent IS ? AND _extra IS NULL")
        statements.withLock { $0[names] = statement }
        return statement
    }
}
