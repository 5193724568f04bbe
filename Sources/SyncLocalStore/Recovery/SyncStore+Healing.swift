import Foundation
import SyncCore

extension SyncStore {
    /// Opens the store in a file as `init(url:clock:)` does, and never fails for its file: a store
    /// SQLite finds damaged is healed, and one that cannot be opened runs in memory.
    ///
    /// - A file SQLite calls damaged when it opens, or one damage was met in while an earlier
    ///   session ran (noted beside it, then confirmed by SQLite's check of every page), and a log
    ///   left without its file: moved aside as `<name>.damaged-<time>` (its `-wal` and `-shm`
    ///   beside it), kept for support. A new store takes its place, and the changes of the app the
    ///   damaged file still held unpushed are read out of it, record by record, and queued again;
    ///   the next sync pass fills the store from the cloud and pushes them, merged. What could not
    ///   be read is named.
    /// - A store that cannot be opened or made at all (a folder at the path, a file of a newer
    ///   version, a volume it cannot write a new file on): this session runs in memory, and the
    ///   file is left as it is.
    ///
    /// Either way the store keeps a report (`recoveries()`) until the app acknowledges it, and
    /// `logHandler` gets it as an error line.
    public convenience init(healing url: URL, clock: any SyncClock = SystemClock(), logHandler: (any SyncLogHandler)? = SyncLog.platformDefault) {
        let (opened, report) = StoreHealing(url: url, now: clock.now).open()
        self.init(opened, clock: clock)
        if let report { logHandler?.log(SyncLogEntry(level: .error, category: .store, message: "\(name: report)")) }
    }

    /// The reports of the times this store was healed (`StoreRecovery`), oldest first, until
    /// `acknowledgeRecoveries()`: read them at launch and tell the user what came back and what
    /// did not.
    public func recoveries() throws -> [StoreRecovery] {
        try sqliteReading { try $0.recoveries() }
    }

    /// Forgets the reports: the app has told the user.
    public func acknowledgeRecoveries() throws {
        try sqliteTransaction { try $0.forgetRecoveries() }
    }
}
