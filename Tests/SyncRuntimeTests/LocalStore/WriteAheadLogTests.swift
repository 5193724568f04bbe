import Foundation
import Testing
@testable import SyncStorage

/// The write-ahead log of a store's file stays bounded while readers come and go (issue 57: it
/// grew to 61 MB beside a 2.2 MB database, and stayed there).
@Suite("Store: the write-ahead log stays bounded")
struct WriteAheadLogTests {
    private static func logSize(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
    }

    /// Writes about `megabytes` MB in transactions of 64 KB.
    private static func write(megabytes: Int, to writer: SQLiteDatabase) throws {
        let row = SQLiteValue.blob(Data(repeating: 7, count: 64 * 1024))
        for _ in 0..<megabytes * 16 {
            _ = try writer.transaction { try writer.query("INSERT INTO t (v) VALUES (?)", [row]) }
        }
    }

    /// A reader that holds an old snapshot while 40 MB are written keeps the log from being
    /// checkpointed whole, so it grows; once it lets go, the next writes start the log over and
    /// its file is cut back to the size limit (16 MB). Breaking it (no `journal_size_limit`): the
    /// file keeps its 90 MB for good.
    @Test func theLogIsCutBackOnceReadersLetGo() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let writer = try SQLiteDatabase(.file(url))
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)")
        let reader = try SQLiteDatabase(.file(url), readOnly: true)
        try reader.execute("BEGIN")
        _ = try reader.query("SELECT count(*) FROM t")
        try Self.write(megabytes: 40, to: writer)
        #expect(Self.logSize(of: url) > 30 * 1024 * 1024, "the reader's snapshot holds the log")
        try reader.execute("COMMIT")
        _ = try writer.transaction { try writer.query("DELETE FROM t") }
        try Self.write(megabytes: 8, to: writer)
        #expect(Self.logSize(of: url) <= SQLiteDatabase.logSizeLimit, "\(Self.logSize(of: url)) bytes")
    }
}
