import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SyncStore: LocalStorePort {
    package func transaction<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try sqliteTransaction { try body($0) }
    }

    package func write<T>(author: StoreAuthor, _ body: (any ModelWriter) throws -> T) throws -> T {
        try write(author: author) { (writer: StoreWriter) in try body(writer) }
    }
}

/// One transaction of the store as the sync engine uses it: every read and write goes straight
/// to the transaction's connection, under the store's lock, so nothing of the app interleaves.
final class SQLiteStoreTransaction {
    let database: SQLiteDatabase
    /// When this transaction happens: the time its saves carry unless told otherwise.
    let now: Date
    /// Whether the transaction wrote a change of the app (an attached asset, a requeued change): the
    /// change stream fires once it commits.
    private(set) var appWrote = false
    /// The models the transaction changed, for the commit feed.
    let changes: TransactionChanges

    init(database: SQLiteDatabase, now: Date, changes: TransactionChanges) {
        self.database = database
        self.now = now
        self.changes = changes
    }

    func writer(_ author: StoreAuthor) -> StoreWriter {
        StoreWriter(database: database, author: author, now: now, changes: changes)
    }

    /// Runs app-authored writes, marking the transaction so the change stream fires.
    func asApp<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        let writer = self.writer(.app)
        let value = try body(writer)
        if writer.wroteAppChange { appWrote = true }
        return value
    }
}
