import CSQLite
import Foundation

/// An error SQLite reported, with its result code and message, and the file of the database it
/// happened in: an app holds several (its store, LocalCloud's) and must tell which failed.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    package var code: Int32
    package var message: String
    /// The database file's path; nil for a database in memory (or before a database named it).
    package var file: String?

    package init(code: Int32, message: String, file: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
    }

    package var description: String {
        file.map { "SQLite error \(code) in \($0): \(message)" } ?? "SQLite error \(code): \(message)"
    }

    /// Data read from the file that cannot be what was written: a damaged file, as SQLite's own
    /// `SQLITE_CORRUPT` says of its pages.
    package static func corrupt(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: message)
    }

    /// The database is locked by another connection for longer than the busy timeout.
    package var isBusy: Bool { primaryCode == .busy || primaryCode == .locked }

    /// The primary result codes a caller acts on differently.
    package enum PrimaryCode: Sendable {
        case busy, locked, full, readOnly, cantOpen, corrupt, notADatabase, ioError, other
    }

    package var primaryCode: PrimaryCode {
        switch code & 0xFF {
        case SQLITE_BUSY: .busy
        case SQLITE_LOCKED: .locked
        case SQLITE_FULL: .full
        case SQLITE_READONLY: .readOnly
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_IOERR: .ioError
        case SQLITE_CANTOPEN: .cantOpen
        default: .other
        }
    }
}

/// A value SQLite stores in a column or binds to a parameter.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    // The value read as each type, converted as SQLite converts it (text that is not a number
    // reads as 0); NULL reads as zero, empty text or no bytes.

    package var integer: Int64 {
        switch self {
        case .integer(let number): number
        case .real(let number): Int64(number)
        case .text(let text): Int64(text) ?? 0
        default: 0
        }
    }

    package var real: Double {
        switch self {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: 0
        }
    }

    package var text: String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        default: ""
        }
    }

    package var blob: Data {
        switch self {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: Data()
        }
    }
}

extension SQLiteValue {
    /// An `sqlite3_value` read out: a column of a row, or an argument of one of the store's SQL
    /// functions.
    init(reading value: OpaquePointer) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // By its byte count: a NUL inside the text is part of it.
            let text = sqlite3_value_text(value)
            let length = Int(sqlite3_value_bytes(value))
            self = .text(text.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let length = Int(sqlite3_value_bytes(value))
            guard length > 0, let bytes = sqlite3_value_blob(value) else {
                self = .blob(Data())
                return
            }
            self = .blob(Data(bytes: bytes, count: length))
        default:
            self = .null
        }
    }
}

/// One SQLite connection: the only place that calls the SQLite C API.
///
/// Not thread-safe by itself: its owner serialises access (LocalCloud and the local store each keep
/// theirs behind a lock). Prepared statements are cached by SQL text.
package final class SQLiteDatabase {
    package enum Location: Sendable {
        case memory
        case file(URL)
    }

    /// SQLite's connection (internal: the write-ahead log's bound, `SQLiteDatabase+LogBound`,
    /// sets its hook).
    var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The statements used last, looked at before `statements`: a writer runs the same few
    /// statements over and over, with the same string each time, and two strings that share
    /// their storage compare equal at once, where the cache's lookup would hash every character
    /// of the SQL (a model's upsert is hundreds of them) on every call.
    private var recent: [(sql: String, statement: OpaquePointer)] = []
    private static let recentCount = 8
    /// The file's path, named by every error (nil in memory).
    private let file: String?
    /// What the write-ahead log's hook reads and keeps between commits (`boundLog`), owned here
    /// as long as the hook may run.
    var logBound: LogBound?
    /// Nesting depth of `transaction`: inner calls join the outer transaction.
    private var transactionDepth = 0
    /// Opened to read only: nothing is written, and a transaction takes no write lock.
    package let isReadOnly: Bool
    /// The connection can keep and read text-search indexes: this SQLite has FTS5, and the
    /// store's tokenizer is installed (`SQLiteDatabase+Search`).
    package private(set) var canSearch = false

    /// Opens (creating if needed) a database. Files use write-ahead logging, so readers in other
    /// processes never block the writer, and wait up to `busyTimeout` for another writer's lock.
    /// `readOnly` opens an existing file to read it only, beside a process that writes it: the
    /// file is never written, its journal mode left as it is. `alone` opens an existing file for
    /// this connection alone (SQLite's exclusive locking mode): the write-ahead log's index is
    /// kept in memory, not in a shared-memory file beside it, so the file opens, and reads, where
    /// the disk has no room for one; no other connection reads or writes it meanwhile.
    /// `immutable` (with `readOnly`) reads a file nobody can change, on a volume that cannot be
    /// written: SQLite then needs nothing beside it (SQLite's `immutable` URI parameter), where a
    /// read of a write-ahead-logged file would otherwise make its shared index.
    package init(_ location: Location, busyTimeout: Duration = .seconds(10), readOnly: Bool = false, alone: Bool = false, immutable: Bool = false) throws(SQLiteError) {
        var path: String
        switch location {
        case .memory: (path, file) = (":memory:", nil)
        case .file(let url): (path, file) = (url.path, url.path)
        }
        var flags = readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        if immutable, case .file(let url) = location {
            path = url.absoluteString + "?immutable=1"
            flags |= SQLITE_OPEN_URI
        }
        isReadOnly = readOnly
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard result == SQLITE_OK else {
            let error = SQLiteError(code: result, message: opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open the file", file: file)
            sqlite3_close_v2(opened)
            handle = nil
            throw error
        }
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(opened, Int32(clamping: milliseconds))
        if alone {
            // Before the first read: only then does SQLite keep the log's index in memory.
            try execute("PRAGMA locking_mode = EXCLUSIVE")
        } else if case .file = location, !readOnly {
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = NORMAL")
            try boundLog(busyTimeout: Int32(clamping: milliseconds))
        }
        try execute("PRAGMA foreign_keys = ON")
        canSearch = try installSearch()
        try installListFunctions()
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows (several statements allowed).
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        guard result == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(message)
            throw SQLiteError(code: result, message: text, file: file)
        }
    }

    /// Runs one statement with `arguments` bound to its `?` parameters, returning its rows.
    @discardableResult
    package func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try forEachRow(sql, arguments) { rows.append($0.materialized()) }
        return rows
    }

    /// Runs one statement that returns no rows, its parameters set by `set` (a parameter it
    /// leaves unset is NULL): a write's values bound as they are made, with no array of them.
    package func run(_ sql: String, _ set: (inout SQLiteParameters) throws(SQLiteError) -> Void) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        var parameters = SQLiteParameters(statement: statement, database: self)
        try set(&parameters)
        // A parameter this run leaves unset would keep the last run's value: each is set to NULL,
        // which costs less than clearing every parameter before the run.
        try parameters.nullUnset()
        let result = sqlite3_step(statement)
        guard result == SQLITE_DONE || result == SQLITE_ROW else { throw failure(result) }
    }

    /// SQLite's failure `code`, with its message and the file.
    fileprivate func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: errorMessage, file: file)
    }

    /// Runs one statement, handing each row to `body` as it is read: nothing is kept but what
    /// `body` keeps.
    package func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [], _ body: (SQLiteRow) throws(SQLiteError) -> Void) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        let columnCount = sqlite3_column_count(statement)
        // A parameter this run leaves unbound would keep the last run's value.
        if arguments.count < sqlite3_bind_parameter_count(statement) { sqlite3_clear_bindings(statement) }
        try bind(arguments, to: statement)
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw failure(result) }
            do {
                try body(SQLiteRow(reading: statement, columnCount: columnCount))
            } catch {
                // A row its reader cannot read is a failure of this file too.
                throw SQLiteError(code: error.code, message: error.message, file: error.file ?? file)
            }
        }
    }

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows changed since the connection opened: a transaction that leaves it unchanged wrote
    /// nothing.
    package var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A write
    /// transaction takes the write lock at once (`BEGIN IMMEDIATE`), so two processes never both
    /// read, then both try to write. Nested calls join the outer transaction.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        if transactionDepth > 0 {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            return try body()
        }
        // A writer takes the write lock at once, so two writers never deadlock on an upgrade; a
        // reader takes none, and reads one snapshot beside the writer.
        try execute(isReadOnly ? "BEGIN" : "BEGIN IMMEDIATE")
        transactionDepth = 1
        do {
            let value = try body()
            transactionDepth = 0
            try execute("COMMIT")
            return value
        } catch {
            transactionDepth = 0
            try? execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - Statements

    private var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        // Most statements differ in length: their byte counts (kept by the string) tell them
        // apart before any comparison of their bytes.
        let length = sql.utf8.count
        for entry in recent where entry.sql.utf8.count == length && entry.sql == sql { return entry.statement }
        let statement = try cached(sql)
        if recent.count == Self.recentCount { recent.removeFirst() }
        recent.append((sql, statement))
        return statement
    }

    private func cached(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw SQLiteError(code: result, message: "\(errorMessage) in: \(sql)", file: file)
        }
        statements[sql] = statement
        return statement
    }

    private func bind(_ arguments: [SQLiteValue], to statement: OpaquePointer) throws(SQLiteError) {
        for (offset, argument) in arguments.enumerated() {
            let result = Self.bind(argument, at: Int32(offset + 1), to: statement)
            guard result == SQLITE_OK else { throw failure(result) }
        }
    }

    /// Binds one value to the parameter at `index` (from 1); SQLite's result code.
    static func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let value):
            return sqlite3_bind_int64(statement, index, value)
        case .real(let value):
            return sqlite3_bind_double(statement, index, value)
        case .text(let value):
            // By its byte count, never up to a NUL: a Swift string may hold U+0000.
            var text = value
            return text.withUTF8 { bytes in
                // An empty string has no bytes to point at, and a null pointer binds NULL.
                guard let base = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, sqliteTransient) }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement, index, $0, Int32(bytes.count), sqliteTransient)
                }
            }
        case .blob(let value):
            return value.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), sqliteTransient)
            }
        }
    }
}

/// The parameters of a statement about to run (`SQLiteDatabase.run`), set by position: a
/// write's values bound as they are made, with no array of them between. Valid only inside the
/// `run` call that hands it out.
package struct SQLiteParameters {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase
    private let count: Int32
    /// The positions set so far, bit `position - 1` (a statement of more than 64 parameters has
    /// them all cleared first).
    private var isSet: UInt64 = 0

    fileprivate init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
        count = sqlite3_bind_parameter_count(statement)
        if count > 64 { sqlite3_clear_bindings(statement) }
    }

    /// Sets the parameter at `position` (from 1).
    package mutating func set(_ position: Int32, _ value: SQLiteValue) throws(SQLiteError) {
        let result = SQLiteDatabase.bind(value, at: position, to: statement)
        guard result == SQLITE_OK else { throw database.failure(result) }
        if position >= 1 && position <= 64 { isSet |= 1 << UInt64(position - 1) }
    }

    /// Sets every parameter left unset to NULL.
    fileprivate func nullUnset() throws(SQLiteError) {
        guard count <= 64 else { return }
        var position: Int32 = 1
        while position <= count {
            if isSet & (1 << UInt64(position - 1)) == 0 {
                let result = sqlite3_bind_null(statement, position)
                guard result == SQLITE_OK else { throw database.failure(result) }
            }
            position += 1
        }
    }
}

/// SQLite copies bound text and blobs before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One row of a result. A row `query` returns holds its values, read out of the statement (so
/// it stays valid after the statement moves on); the row `forEachRow` hands its body reads each
/// value from the statement when asked, so a row costs no copy of columns nobody reads. That
/// row is valid only inside the body.
package struct SQLiteRow: @unchecked Sendable {  // a statement's row never leaves its body
    private enum Source {
        case values([SQLiteValue])
        /// The statement and its number of columns, read once per statement rather than at
        /// each value.
        case statement(OpaquePointer, columnCount: Int32)
    }

    private let source: Source

    /// The row the statement stands on, read as it is asked.
    init(reading statement: OpaquePointer, columnCount: Int32) {
        source = .statement(statement, columnCount: columnCount)
    }

    /// The row's values, read out of the statement now.
    func materialized() -> SQLiteRow {
        guard case .statement(let statement, let columnCount) = source else { return self }
        return SQLiteRow(source: .values((0..<columnCount).map { Self.value(statement, $0) }))
    }

    private init(source: Source) {
        self.source = source
    }

    /// The value of a column of the row the statement stands on. Read through the column's
    /// `sqlite3_value`: one call into the statement per column, where `sqlite3_column_type`,
    /// `_text` and `_bytes` would each enter it. The value is unprotected (SQLite takes no lock
    /// to read it), which is safe here: a connection is used by one thread at a time (its owner's
    /// lock), and the value is read before the statement steps again.
    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLiteValue {
        guard let value = sqlite3_column_value(statement, column) else { return .null }
        return SQLiteValue(reading: value)
    }

    /// The column's value as SQLite holds it: one read of its type, where a test for NULL and then
    /// a read of the value would take two.
    package func value(_ column: Int32) -> SQLiteValue {
        switch source {
        case .values(let values): Int(column) < values.count ? values[Int(column)] : .null
        case .statement(let statement, let columnCount): column < columnCount ? Self.value(statement, column) : .null
        }
    }

    package func isNull(_ column: Int32) -> Bool {
        switch source {
        case .values: value(column) == .null
        case .statement(let statement, let columnCount): column >= columnCount || sqlite3_column_type(statement, column) == SQLITE_NULL
        }
    }

    package func integer(_ column: Int32) -> Int64 { value(column).integer }

    package func real(_ column: Int32) -> Double { value(column).real }

    package func text(_ column: Int32) -> String { value(column).text }

    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    package func blob(_ column: Int32) -> Data { value(column).blob }
}
