import Foundation
import SyncCore
import SyncPorts

/// LocalCloud's query cursors: text, each with the server's sequence when it was issued, so that
/// the server can stop taking the cursors it issued before a point (`LocalCloud.expireQueryCursors`).
/// A seeking cursor (`after:<issued>:<zone>\0<name>`) resumes after a record, a sorted query's
/// (`query:<issued>:<offset>`) at an offset, as Apple says of `CKQueryOperation.init(cursor:)`:
/// "it stores a relative offset into the results list".
///
/// Apple names no error for a cursor CloudKit no longer takes, only that one kept long may not
/// resume ("don't cache cursors for a long time before using them"); LocalCloud refuses it, and
/// any cursor it did not write, with `invalidArguments`, the code of a request that "contains
/// invalid information" (Apple, `CKError.Code.invalidArguments`).
extension LocalCloudServer {
    /// The meta key under which the point before which cursors expired is kept.
    private static let cursorsForgottenKey = "query_cursors_forgotten"

    func seekingCursor(zone: String, name: String) throws -> QueryCursor {
        QueryCursor(archive: Data("after:\(try store.currentSequence()):\(zone)\u{0}\(name)".utf8))
    }

    func sortedCursor(offset: Int) throws -> QueryCursor {
        QueryCursor(archive: Data("query:\(try store.currentSequence()):\(offset)".utf8))
    }

    /// Where a seeking cursor resumes.
    func seekingPlace(of cursor: QueryCursor) throws -> (zone: String, name: String) {
        let parts = try body(of: cursor, kind: "after").split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw CloudError(.invalidArguments, "not a cursor of this query") }
        return (String(parts[0]), String(parts[1]))
    }

    /// Where a sorted query's cursor resumes.
    func sortedOffset(of cursor: QueryCursor) throws -> Int {
        guard let offset = Int(try body(of: cursor, kind: "query")), offset >= 0 else {
            throw CloudError(.invalidArguments, "not a cursor of this query")
        }
        return offset
    }

    /// Every cursor issued so far expires.
    func expireQueryCursors() throws {
        let point = try store.nextSequence()
        try database.query("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [.text(Self.cursorsForgottenKey), .text(String(point))])
    }

    /// What follows a cursor's kind and issue, once the cursor is known to be of `kind`, written
    /// here, and not expired.
    private func body(of cursor: QueryCursor, kind: String) throws -> Substring {
        let text = String(decoding: cursor.archive, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == kind, let issued = Int64(parts[1]) else {
            throw CloudError(.invalidArguments, "not a cursor of this query")
        }
        let forgotten = Int64(try database.query("SELECT value FROM meta WHERE key = ?", [.text(Self.cursorsForgottenKey)]).first?.text(0) ?? "") ?? 0
        guard issued >= forgotten else {
            throw CloudError(.invalidArguments, "the query cursor has expired: run the query again from its first page")
        }
        return parts[2]
    }
}
