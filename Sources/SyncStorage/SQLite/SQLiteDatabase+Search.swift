import CSQLite
import Foundation

/// What a connection needs to keep and read the store's text-search indexes (FTS5 tables):
/// the `syncgen` tokenizer, which splits text into words by ``SearchText``'s rule, and
/// `syncgen_search_text(value)`, the words of a list of strings kept in its binary form (a
/// list's column), for the index to read them as text. Every connection has both from its
/// opening (`SQLiteDatabase.init`): an index's triggers run on whichever connection writes the
/// model's table.
extension SQLiteDatabase {
    /// The tokenizer's name, as an FTS5 table names it (`tokenize = 'syncgen'`).
    package static let searchTokenizer = "syncgen"
    /// The SQL function that gives the text of a list of strings kept in binary form.
    package static let searchTextFunction = "syncgen_search_text"

    /// Installs both; false, installing nothing, where this SQLite has no FTS5 (the store then
    /// keeps no search index, and runs a search in Swift over the rows).
    func installSearch() throws(SQLiteError) -> Bool {
        // `SELECT fts5(?)` hands the FTS5 module's API to a pointer bound to it (SQLite,
        // "Extending FTS5": "Retrieving a pointer to the fts5_api object").
        var api: UnsafeMutablePointer<fts5_api>?
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            return false
        }
        defer { sqlite3_finalize(statement) }
        withUnsafeMutablePointer(to: &api) { pointer in
            _ = sqlite3_bind_pointer(statement, 1, pointer, "fts5_api_ptr", nil)
            _ = sqlite3_step(statement)
        }
        guard let api, let create = api.pointee.xCreateTokenizer else { return false }
        var tokenizer = fts5_tokenizer(xCreate: searchTokenizerCreate, xDelete: searchTokenizerDelete, xTokenize: searchTokenize)
        let made = create(api, Self.searchTokenizer, nil, &tokenizer, nil)
        guard made == SQLITE_OK else { throw SQLiteError(code: made, message: "cannot install the search tokenizer") }
        let function = sqlite3_create_function_v2(
            handle, Self.searchTextFunction, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, searchTextOfValue, nil, nil, nil)
        guard function == SQLITE_OK else { throw SQLiteError(code: function, message: "cannot install \(Self.searchTextFunction)") }
        return true
    }
}

// The tokenizer keeps no state: one instance serves every table, and is never freed.
private let searchTokenizerCreate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { _, _, _, made in
    made?.pointee = OpaquePointer(bitPattern: 1)
    return SQLITE_OK
}

private let searchTokenizerDelete: @convention(c) (OpaquePointer?) -> Void = { _ in }

private let searchTokenize: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32,
    (@convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32)?
) -> Int32 = { _, context, _, text, length, token in
    guard let text, length > 0, let token else { return SQLITE_OK }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(length))
    struct Stop: Error { let code: Int32 }
    do {
        try SearchText.forEachWord(in: bytes) { word, range in
            let result = word.withMemoryRebound(to: CChar.self) { word in
                token(context, 0, word.baseAddress, Int32(word.count), Int32(range.lowerBound), Int32(range.upperBound))
            }
            if result != SQLITE_OK { throw Stop(code: result) }
        }
    } catch let stop as Stop {
        return stop.code
    } catch {
        return SQLITE_ERROR
    }
    return SQLITE_OK
}

/// `syncgen_search_text(value)`: the strings of a list kept in binary form, one a line; the text
/// itself; NULL for anything else.
private let searchTextOfValue: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
    guard let argument = arguments?[0] else { return sqlite3_result_null(context) }
    switch sqlite3_value_type(argument) {
    case SQLITE_TEXT:
        sqlite3_result_value(context, argument)
    case SQLITE_BLOB:
        guard let items = encodedList(argument) else { return sqlite3_result_null(context) }
        var text = items.compactMap { item -> String? in if case .string(let string) = item { string } else { nil } }.joined(separator: "\n")
        // By its length: a string may hold a NUL.
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { sqlite3_result_text(context, $0.baseAddress, Int32($0.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
        }
    default:
        sqlite3_result_null(context)
    }
}
