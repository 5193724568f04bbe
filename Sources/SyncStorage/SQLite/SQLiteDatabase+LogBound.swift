import CSQLite

/// The write-ahead log's bound. With readers open and heavy writes, SQLite's automatic checkpoints
/// (passive, every 1,000 pages) copy only what no reader still reads, so a log that readers keep
/// in use is never started over and grows without end (61 MB beside a 2.2 MB database, seen from
/// outside in issue 57). Two things bound it:
///
/// - `journal_size_limit`: once a checkpoint has copied the whole log and a writer starts it over,
///   the file is truncated to `logSizeLimit`, so a log that grew once does not keep its size.
/// - A checkpoint the readers cannot starve: when a commit leaves the log past `restartPages`
///   and the passive checkpoint could not copy it whole, a RESTART checkpoint waits for the
///   readers of old snapshots to finish, so the next write starts the log over. It waits at most
///   `restartWait` ms; a reader that takes longer leaves it for the next attempt, `restartPages`
///   later, so a writer is never held longer than that.
extension SQLiteDatabase {
    /// Pages in the log past which a commit runs a passive checkpoint (SQLite's default).
    static let checkpointPages: Int32 = 1_000
    /// Pages in the log past which a commit asks the readers to let the log start over, and again
    /// each time it has grown by as many since.
    static let restartPages: Int32 = 4_000
    /// The longest a commit waits for readers in a RESTART checkpoint, in milliseconds.
    static let restartWait: Int32 = 100
    /// The size the log's file is truncated to once it starts over, in bytes: above what it holds
    /// between two ordinary checkpoints (1,000 pages and the transaction that passed them), so an
    /// ordinary write never pays for cutting the file and growing it again.
    static let logSizeLimit = 16 * 1024 * 1024

    /// What the hook reads and keeps: the connection's busy timeout (restored after a RESTART's
    /// shorter wait) and the log's size at which it next asks the readers.
    final class LogBound {
        let busyTimeout: Int32
        var nextRestart = SQLiteDatabase.restartPages

        init(busyTimeout: Int32) {
            self.busyTimeout = busyTimeout
        }
    }

    /// Sets the log's size limit and the commit hook that checkpoints it. The hook replaces
    /// SQLite's automatic checkpoints (one hook serves both), and does what they did too.
    func boundLog(busyTimeout: Int32) throws(SQLiteError) {
        try execute("PRAGMA journal_size_limit = \(Self.logSizeLimit)")
        let bound = LogBound(busyTimeout: busyTimeout)
        logBound = bound
        sqlite3_wal_hook(handle, { context, connection, database, pages in
            guard pages >= SQLiteDatabase.checkpointPages, let context else { return SQLITE_OK }
            let bound = Unmanaged<SQLiteDatabase.LogBound>.fromOpaque(context).takeUnretainedValue()
            var inLog: Int32 = 0
            var copied: Int32 = 0
            sqlite3_wal_checkpoint_v2(connection, database, SQLITE_CHECKPOINT_PASSIVE, &inLog, &copied)
            // Copied whole: the next write starts the log over. Otherwise readers hold it.
            guard copied < inLog else {
                bound.nextRestart = SQLiteDatabase.restartPages
                return SQLITE_OK
            }
            guard pages >= bound.nextRestart else { return SQLITE_OK }
            bound.nextRestart = pages + SQLiteDatabase.restartPages
            sqlite3_busy_timeout(connection, min(bound.busyTimeout, SQLiteDatabase.restartWait))
            if sqlite3_wal_checkpoint_v2(connection, database, SQLITE_CHECKPOINT_RESTART, &inLog, &copied) == SQLITE_OK {
                bound.nextRestart = SQLiteDatabase.restartPages
            }
            sqlite3_busy_timeout(connection, bound.busyTimeout)
            return SQLITE_OK
        }, Unmanaged.passUnretained(bound).toOpaque())
    }
}
