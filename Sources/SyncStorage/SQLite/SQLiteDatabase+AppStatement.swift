import CSQLite
import Foundation

extension SQLiteDatabase {
    /// Runs one statement an app wrote, which must only read rows: SQLite's own judgement
    /// (`sqlite3_stmt_readonly`) that it writes nothing, and columns to read (so no transaction
    /// control, `ATTACH` or `DETACH`, which SQLite counts as reading). Prepared for this call
    /// alone (an app's statements never fill the connection's cache). Its columns' names, and
    /// its rows.
    package func appStatement(_ sql: String, _ arguments: [SQLiteValue]) throws(SQLiteError) -> (columns: [String], rows: [SQLiteRow]) {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let prepared = sql.withCString { text in
            let result = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            // What follows the first statement, if anything but whitespace and `;`.
            let rest = tail.map { String(cString: $0) } ?? ""
            return (result, rest.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))))
        }
        defer { sqlite3_finalize(statement) }
        guard prepared.0 == SQLITE_OK, let statement else {
            throw SQLiteError(code: prepared.0, message: "\(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
        }
        guard prepared.1.isEmpty else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "one statement at a time: the text goes on after the first (\(prepared.1.prefix(40)))")
        }
        let columnCount = sqlite3_column_count(statement)
        guard sqlite3_stmt_readonly(statement) != 0, columnCount > 0 else {
            throw SQLiteError(code: SQLITE_READONLY, message: "a statement of the app's own reads rows and writes nothing: \(sql.prefix(60))")
        }
        for (offset, argument) in arguments.enumerated() {
            let result = Self.bind(argument, at: Int32(offset + 1), to: statement)
            guard result == SQLITE_OK else { throw SQLiteError(code: result, message: String(cString: sqlite3_errmsg(handle))) }
        }
        let columns = (0..<columnCount).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [SQLiteRow] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw SQLiteError(code: result, message: "\(String(cString: sqlite3_errmsg(handle))) in: \(sql)") }
            rows.append(SQLiteRow(reading: statement, columnCount: columnCount).materialized())
        }
        return (columns, rows)
    }
}
