import CSQLite
import Foundation

/// The floor the store and the engine are held against: the SQLite C API called directly, as a C
/// program would, statements prepared once and values bound in place, with the store's own
/// settings (WAL, `synchronous = NORMAL`). The project's wrapper (SyncStorage's `SQLiteDatabase`)
/// is part of what is measured, so it cannot be the baseline; this file is the one place the
/// bench calls the C library, and only the bench does so outside SyncStorage.
final class SQLiteFloor {
    private var handle: OpaquePointer?

    /// Opens (or makes) the database at `url`.
    init(_ url: URL) {
        let opened = sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        precondition(opened == SQLITE_OK, "cannot open \(url.path)")
        execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Makes `tables` as they are in the database at `source` (a store the bench made): the same
    /// columns, defaults and indexes, so the floor writes rows of the store's own shape.
    func copyTables(_ tables: [String], from source: URL) {
        let store = SQLiteFloor(source)
        let names = tables.map { "'\($0)'" }.joined(separator: ", ")
        let schema = store.prepare("""
            SELECT tbl_name, sql FROM sqlite_master WHERE tbl_name IN (\(names)) AND sql IS NOT NULL
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END
            """)
        var found: Set<String> = []
        while schema.step() {
            found.insert(schema.text(0))
            execute(schema.text(1))
        }
        precondition(found == Set(tables), "the store at \(source.path) has only \(found.sorted()) of \(tables)")
    }

    func execute(_ sql: String) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        if result != SQLITE_OK { fatalError("\(String(cString: sqlite3_errmsg(handle))) in: \(sql)") }
    }

    func prepare(_ sql: String) -> Statement { Statement(sql, in: handle) }

    /// `body` in one transaction.
    func transaction(_ body: () -> Void) {
        execute("BEGIN")
        body()
        execute("COMMIT")
    }

    /// A prepared statement: bind by position (from 1), step, read columns (from 0).
    final class Statement {
        private var statement: OpaquePointer?

        fileprivate init(_ sql: String, in handle: OpaquePointer?) {
            let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            if result != SQLITE_OK { fatalError("\(String(cString: sqlite3_errmsg(handle))) in: \(sql)") }
        }

        deinit {
            sqlite3_finalize(statement)
        }

        func bind(_ index: Int32, _ text: String) {
            var text = text
            text.withUTF8 { bytes in
                if let base = bytes.baseAddress {
                    _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { sqlite3_bind_text(statement, index, $0, Int32(bytes.count), transient) }
                } else {
                    _ = sqlite3_bind_text(statement, index, "", 0, transient)
                }
            }
        }

        func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }
        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(statement, index, value) }
        func bindNull(_ index: Int32) { sqlite3_bind_null(statement, index) }

        func bind(_ index: Int32, _ data: Data) {
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
            }
        }

        /// Runs the statement once more (a write), then readies it for the next values.
        func run() {
            let result = sqlite3_step(statement)
            precondition(result == SQLITE_DONE, "step: \(result)")
            sqlite3_reset(statement)
        }

        /// The next row, or false at the end (when it is reset for the next run).
        func step() -> Bool {
            if sqlite3_step(statement) == SQLITE_ROW { return true }
            sqlite3_reset(statement)
            return false
        }

        func text(_ column: Int32) -> String {
            let length = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_text(statement, column) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    }
}

/// SQLite copies bound text and blobs before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
