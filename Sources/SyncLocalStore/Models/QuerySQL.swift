import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// A query as SQL over its model's table: the same answers as the query run in Swift over every
/// row (`Query.apply`), by the same rules. Each comparison is two-valued (a column without a
/// value fails it, and `NOT` keeps it: `COALESCE(..., 0)` under a `NOT`); text compares by SQLite's default
/// collation, its UTF-8 bytes; an integer and a real compare as numbers; ties come by record name.
///
/// Nil when a part has no SQL form here (a list's elements, an order or range over a column kept
/// in binary form, a key path that is not a field): that query runs in Swift over the rows.
struct QuerySQL {
    /// `WHERE ...`, or empty.
    let filter: String
    /// `ORDER BY ...`, always ending with the record name.
    let order: String
    /// `LIMIT ? OFFSET ?`, or empty.
    let page: String
    let arguments: [SQLiteValue]

    init?<Model: SyncModel>(_ query: Query<Model>, table: ModelTable) {
        var arguments: [SQLiteValue] = []
        var filter = ""
        if let predicate = query.predicate {
            guard let condition = Self.condition(predicate.node, table, exact: false, &arguments) else { return nil }
            filter = "WHERE " + condition
        }
        var keys: [String] = []
        for key in query.sortKeys {
            guard let column = Self.column(key.field, of: Model.self, in: table), column.kind != .encoded else { return nil }
            keys.append("\(ModelTable.quoted(column.name)) \(key.direction == .ascending ? "ASC" : "DESC")")
        }
        keys.append("_name ASC")
        var page = ""
        if query.limit != nil || query.offset > 0 {
            page = "LIMIT ? OFFSET ?"
            arguments.append(.integer(Int64(query.limit ?? -1)))
            arguments.append(.integer(Int64(query.offset)))
        }
        self.filter = filter
        self.order = "ORDER BY " + keys.joined(separator: ", ")
        self.page = page
        self.arguments = arguments
    }

    /// The column a query's field reads: the record's name or owner, or a schema field's column.
    private static func column<Model: SyncModel>(_ field: QueryPredicate<Model>.Field, of type: Model.Type, in table: ModelTable) -> ModelTable.Column? {
        if let name = Model.fieldName(for: field.keyPath) { return table.columns.first { $0.name == name } }
        // The record's name and owner are the model's own properties, not the protocol's (whose
        // key paths differ): a model made with marked ones says which a key path reads.
        let probe = Model(emptyRecordNamed: "\u{1}name", ownerName: "\u{1}owner")
        switch probe[keyPath: field.keyPath as AnyKeyPath] as? String {
        case "\u{1}name": return ModelTable.Column(name: "_name", kind: .text)
        case "\u{1}owner": return ModelTable.Column(name: "_owner", kind: .text)
        default: return nil
        }
    }

    /// The node as an SQL condition. `exact`: under a `NOT`, where a comparison with NULL must
    /// be false rather than NULL (`COALESCE`); elsewhere a WHERE drops a NULL as it drops a false,
    /// and a bare comparison lets SQLite use the column's index.
    private static func condition<Model: SyncModel>(_ node: QueryPredicate<Model>.Node, _ table: ModelTable, exact: Bool, _ arguments: inout [SQLiteValue]) -> String? {
        func leaf(_ field: QueryPredicate<Model>.Field, orderable: Bool = false, _ sql: (String) -> String?) -> String? {
            guard let column = column(field, of: Model.self, in: table), !(orderable && column.kind == .encoded) else { return nil }
            return sql(ModelTable.quoted(column.name)).map { exact ? "COALESCE(\($0), 0)" : $0 }
        }
        func value(_ field: QueryPredicate<Model>.Field, _ value: SyncFieldValue) -> SQLiteValue? {
            guard let column = column(field, of: Model.self, in: table) else { return nil }
            // A number compares with an integer or a real column as a number.
            switch (column.kind, value) {
            case (.real, .int64(let number)): return .real(Double(number))
            case (.integer, .double(let number)): return .real(number)
            case (.reference(_), .string(let name)): return .text(name)
            case (.reference(_), .reference(let reference)): return .text(reference.recordName)
            default: return column.kind.column(value)
            }
        }
        switch node {
        case .compare(let field, let comparison, let target):
            guard let bound = value(field, target) else { return nil }
            let op = switch comparison {
            case .equal: "="
            case .less: "<"
            case .lessOrEqual: "<="
            case .greater: ">"
            case .greaterOrEqual: ">="
            }
            return leaf(field, orderable: comparison != .equal) { column in
                arguments.append(bound)
                return "\(column) \(op) ?"
            }
        case .isNil(let field):
            guard let column = column(field, of: Model.self, in: table) else { return nil }
            return "\(ModelTable.quoted(column.name)) IS NULL"
        case .isIn(let field, let targets):
            let bound = targets.map { value(field, $0) }
            guard !bound.contains(where: { $0 == nil }) else { return nil }
            guard !bound.isEmpty else { return "0" }
            return leaf(field) { column in
                arguments += bound.compactMap { $0 }
                return "\(column) IN (\(Array(repeating: "?", count: bound.count).joined(separator: ", ")))"
            }
        case .hasPrefix(let field, let prefix):
            guard column(field, of: Model.self, in: table)?.kind == .text else { return nil }
            // A prefix of bytes is a prefix of characters: UTF-8 never splits one. Compared as
            // bytes: SQLite's text functions stop at a NUL, which a string may hold.
            return leaf(field) { column in
                // Every text starts with nothing (and SQLite's substr of an empty blob is NULL).
                guard !prefix.isEmpty else { return "\(column) IS NOT NULL" }
                let bytes = Data(prefix.utf8)
                arguments += [.integer(Int64(bytes.count)), .blob(bytes)]
                return "substr(CAST(\(column) AS BLOB), 1, ?) = ?"
            }
        case .contains(let field, let part):
            guard column(field, of: Model.self, in: table)?.kind == .text else { return nil }
            // Bytes within bytes are characters within characters (UTF-8 is self-synchronizing),
            // compared as bytes for the same reason as a prefix.
            return leaf(field) { column in
                // Every text contains nothing (and SQLite's instr of an empty blob is NULL).
                guard !part.isEmpty else { return "\(column) IS NOT NULL" }
                arguments.append(.blob(Data(part.utf8)))
                return "instr(CAST(\(column) AS BLOB), ?) > 0"
            }
        case .references(let field, let recordName):
            guard case .reference? = column(field, of: Model.self, in: table)?.kind else { return nil }
            return leaf(field) { column in
                arguments.append(.text(recordName))
                return "\(column) = ?"
            }
        case .holds:
            return nil
        case .isChild(let parent):
            arguments.append(.text(parent))
            return exact ? "COALESCE(_parent = ?, 0)" : "_parent = ?"
        case .authoredBy(let role, let user):
            // The person from the record's server version; the signed-in user for a record the
            // cloud has not seen (`RecordAuthorship.notYetInTheCloud`), so never NULL.
            arguments += [.text(SyncConstants.currentUserOwnerName), .text(user)]
            return "COALESCE((\(RecordAuthorshipSQL.person(role))), ?) = ?"
        case .and(let left, let right):
            guard let left = condition(left, table, exact: exact, &arguments), let right = condition(right, table, exact: exact, &arguments) else { return nil }
            return "(\(left) AND \(right))"
        case .or(let left, let right):
            guard let left = condition(left, table, exact: exact, &arguments), let right = condition(right, table, exact: exact, &arguments) else { return nil }
            return "(\(left) OR \(right))"
        case .not(let inner):
            guard let inner = condition(inner, table, exact: true, &arguments) else { return nil }
            return "(NOT \(inner))"
        }
    }
}
