import Foundation
import SyncCore
import SyncStorage

/// A value of a row an app's own SQL reads (`SyncStore.read(sql:_:)`), or an argument bound to
/// one of its `?` parameters: SQLite's five kinds.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    var sqlite: SQLiteValue {
        switch self {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }
}

/// One row an app's own SQL read: its values by column name or place, typed as the store keeps
/// them (Runtime.md, "Reading with SQL").
public struct SQLRow: Sendable, Hashable {
    /// The statement's column names, in order.
    public let columns: [String]
    /// The row's values, in column order.
    public let values: [SQLValue]

    /// The value of the first column of that name (`.null` for a name the statement has none of).
    public subscript(_ column: String) -> SQLValue {
        columns.firstIndex(of: column).map { values[$0] } ?? .null
    }

    /// The column's text, or nil when it holds none.
    public func text(_ column: String) -> String? {
        if case .text(let text) = self[column] { text } else { nil }
    }

    /// The column's integer (a boolean field is 0 or 1), or nil when it holds none.
    public func integer(_ column: String) -> Int64? {
        if case .integer(let number) = self[column] { number } else { nil }
    }

    /// The column's number, integer or real, or nil when it holds none.
    public func double(_ column: String) -> Double? {
        switch self[column] {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    /// The rows of an app's statement that reads (`SQLiteDatabase.appStatement`), typed.
    static func read(_ sql: String, _ arguments: [SQLValue], in database: SQLiteDatabase) throws -> [SQLRow] {
        let (columns, rows) = try database.appStatement(sql, arguments.map(\.sqlite))
        return rows.map { row in SQLRow(columns: columns, values: (0..<columns.count).map { SQLValue(row.value(Int32($0))) }) }
    }

    /// A date field's column (seconds since 2001, as `Date` keeps them), or nil.
    public func date(_ column: String) -> Date? {
        double(column).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}

extension SyncStore {
    /// Runs one SQL statement of the app's own that reads rows over the store's tables, on a
    /// reader (it never waits for sync's writes), `arguments` bound to its `?` parameters. A
    /// statement that would write, or more than one, is refused. The tables and columns it may
    /// name are Runtime.md's "Reading with SQL"; use the typed API where it says what you need.
    ///
    /// ```swift
    /// let rows = try store.read(sql: """
    ///     SELECT l.title, COUNT(i._name) AS open FROM model_SharedList AS l
    ///     LEFT JOIN model_ListItem AS i ON i._parent = l._name AND i.done = 0
    ///     GROUP BY l._name HAVING open > ? ORDER BY open DESC
    ///     """, [.integer(2)])
    /// for row in rows { print(row.text("title") ?? "", row.integer("open") ?? 0) }
    /// ```
    public func read(sql: String, _ arguments: [SQLValue] = []) throws -> [SQLRow] {
        try reading { try SQLRow.read(sql, arguments, in: $0) }
    }
}
