import Foundation
import SyncCore
import SyncPorts

/// LocalCloud's query cursors: text, `query:<issued>:<offset>`, the offset into the query's
/// results where the next page starts (Apple, `CKQueryOperation.init(cursor:)`: "it stores a
/// relative offset into the results list"), with the server's sequence when it was issued, so
/// that the server can stop taking the cursors it issued before a point
/// (`LocalCloud.expireQueryCursors`).
///
/// Apple names no error for a cursor CloudKit no longer takes, only that one kept long may not
/// resume ("don't cache cursors for a long time before using them"); LocalCloud refuses it, and
/// any cursor it did not write, with `invalidArguments`, the code of a request that "contains
/// invalid information" (Apple, `CKError.Code.invalidArguments`).
extension LocalCloudServer {
    /// The meta key under which the point before which cursors expired is kept.
    private static let cursorsForgottenKey = "query_cursors_forgotten"

    func queryCursor(offset: Int) throws -> QueryCursor {
        QueryCursor(archive: Data("query:\(try store.currentSequence()):\(offset)".utf8))
    }

    /// Where the page a cursor continues starts.
    func offset(of cursor: QueryCursor) throws -> Int {
        let text = String(decoding: cursor.archive, as: UTF8.self)
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "query", let issued = Int64(parts[1]), let offset = Int(parts[2]), offset >= 0 else {
            throw CloudError(.invalidArguments, "not a cursor of this query")
        }
        let forgotten = Int64(try database.query("SELECT value FROM meta WHERE key = ?", [.text(Self.cursorsForgottenKey)]).first?.text(0) ?? "") ?? 0
        guard issued >= forgotten else {
            throw CloudError(.invalidArguments, "the query cursor has expired: run the query again from its first page")
        }
        return offset
    }

    /// Every cursor issued so far expires.
    func expireQueryCursors() throws {
        let point = try store.nextSequence()
        try database.query("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [.text(Self.cursorsForgottenKey), .text(String(point))])
    }
}
