import Foundation
import SyncCore
import SyncStorage

/// A SQLite file of the app's own, opened only to read: the old store an import reads its rows
/// from ("Moving an app to syncgen"). Nothing is ever written to it, and another process may
/// hold it open meanwhile.
public final class SQLiteFile: Sendable {
    private let database: Locked<SQLiteDatabase>
    private let url: URL

    /// Opens the file at `url` to read. Throws `LocalStoreError` naming the file when there is
    /// none, or SQLite cannot read it.
    public init(url: URL) throws {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LocalStoreError(.other, "\(url.path): no such file")
        }
        do {
            database = Locked(try SQLiteDatabase(.file(url), readOnly: true))
        } catch {
            throw LocalStoreError(.other, "\(url.path): SQLite cannot open it to read (\(error))")
        }
    }

    /// Runs one statement that reads rows, `arguments` bound to its `?` parameters, as
    /// `SyncStore.read(sql:_:)` does: a statement that would write, or more than one, is refused.
    public func read(sql: String, _ arguments: [SQLValue] = []) throws -> [SQLRow] {
        do {
            return try database.withLock { try SQLRow.read(sql, arguments, in: $0) }
        } catch {
            throw LocalStoreError(.other, "\(url.lastPathComponent): \(error)")
        }
    }
}
