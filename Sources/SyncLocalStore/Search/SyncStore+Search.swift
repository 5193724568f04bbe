import Foundation
import SyncCore
import SyncStorage

extension SyncStore {
    /// Runs a read of a query; when the query searches text and the read finds the model's
    /// search index damaged (SQLite's `SQLITE_CORRUPT`), makes the index again from the rows and
    /// reads once more.
    func runningSearch<Model: SyncModel, T>(_ query: Query<Model>, _ read: (SQLiteDatabase) throws -> T) throws -> T {
        guard !query.searchTexts.isEmpty, openedToRead == nil else { return try reading(read) }
        var damaged = false
        do {
            return try reading { database in
                do {
                    return try read(database)
                } catch let error as SQLiteError where error.primaryCode == .corrupt {
                    damaged = true
                    throw error
                }
            }
        } catch where damaged {
            try inTransaction { database, _ in (try SearchIndexes.rebuild(Model.recordType, database), false) }
            return try reading(read)
        }
    }
}
