import Foundation
import SyncCore
import SyncPorts

/// LocalCloud's query cursors: text, `query:<issued>:<offset>`, the offset into the query's
/// results where the next page starts (Apple, `CKQueryOperation.init(cursor:)`: "it stores a
/// relative offset into the results list"), with the server's sequence when it was issued, so
/// that the server can stop taking the cursors it issued before a point
/// (`LocalCloud.expireQueryCursors`). An unsorted query's cursor also names the last record of
/// its page (`:<zone>\0<name>`): while no zone it searches has changed since, the next page
/// seeks from there, which is the same page as the offset's without reading up to it.
///
/// Apple names no error for a cursor CloudKit no longer takes, only that one kept long may not
/// resume ("don't cache cursors for a long time before using them"); LocalCloud refuses it, and
/// any cursor it did not write, with `invalidArguments`, the code of a request that "contains
/// invalid information" (Apple, `CKError.Code.invalidArguments`).
extension LocalCloudServer {
    /// Where a cursor resumes a query.
    struct ResumePoint {
        /// The server's sequence when the cursor was issued.
        var issued: Int64
        /// The offset into the results where the next page starts.
        var offset: Int
        /// The zone and name of the last record of an unsorted query's page.
        var last: (zone: String, name: String)?
    }

    /// The meta key under which the point before which cursors expired is kept.
    private static let cursorsForgottenKey = "query_cursors_forgotten"

    func queryCursor(offset: Int, last: (zone: String, name: String)? = nil) throws -> QueryCursor {
        let place = last.map { ":\($0.zone)\u{0}\($0.name)" } ?? ""
        return QueryCursor(archive: Data("query:\(try store.currentSequence()):\(offset)\(place)".utf8))
    }

    /// Where a cursor resumes its query; one expired, or not written here, is refused.
    func resumePoint(of cursor: QueryCursor) throws -> ResumePoint {
        let text = String(decoding: cursor.archive, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "query", let issued = Int64(parts[1]), let offset = Int(parts[2]), offset >= 0 else {
            throw CloudError(.invalidArguments, "not a cursor of this query")
        }
        var point = ResumePoint(issued: issued, offset: offset)
        if parts.count == 4 {
            let place = parts[3].split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
            guard place.count == 2 else { throw CloudError(.invalidArguments, "not a cursor of this query") }
            point.last = (String(place[0]), String(place[1]))
        }
        let forgotten = Int64(try database.query("SELECT value FROM meta WHERE key = ?", [.text(Self.cursorsForgottenKey)]).first?.text(0) ?? "") ?? 0
        guard issued >= forgotten else {
            throw CloudError(.invalidArguments, "the query cursor has expired: run the query again from its first page")
        }
        return point
    }

    /// Every cursor issued so far expires.
    func expireQueryCursors() throws {
        let point = try store.nextSequence()
        try database.query("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [.text(Self.cursorsForgottenKey), .text(String(point))])
    }
}
