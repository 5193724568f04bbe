import Foundation
import SyncCore
import SyncStorage

/// How `SyncStore(healing:)` opens a store it may find damaged. A file SQLite calls damaged (at
/// the opening, or noted while an earlier session ran and confirmed by SQLite's check now), or a
/// log whose file is gone, is moved aside and kept; a new store is made in its place, and what
/// the damaged file still holds of the app's unpushed changes is carried into it, record by
/// record. A store that cannot be opened or made at all runs in memory. Each case leaves its
/// report (`StoreRecovery`) in the store it returns.
struct StoreHealing {
    let url: URL
    let now: Date

    /// Why the store could not be opened as it was, when it could not.
    private enum Problem: Error {
        case damaged(String)
        case cannotOpen(String)
    }

    func open() -> (SyncStore.Opened, StoreRecovery?) {
        let file = DamagedStoreFile(url: url)
        if file.isLogWithoutItsFile {
            return rebuild(file, problem: "the store's file is gone and a log of it is left (a file lost, or a copy that kept the log without its file)")
        }
        switch openChecked(file) {
        case .success(let opened): return (opened, nil)
        case .failure(.damaged(let problem)): return rebuild(file, problem: problem)
        case .failure(.cannotOpen(let problem)): return inMemory(problem: problem)
        }
    }

    /// The store as it is, unless SQLite finds it damaged: at the opening, or by its check when an
    /// earlier session noted damage (a page it met while the store ran). The check reads the file
    /// without opening it to write, so a damaged file is moved aside as it was. The database is
    /// released when this returns with a problem, so the file can be moved.
    private func openChecked(_ file: DamagedStoreFile) -> Result<SyncStore.Opened, Problem> {
        if let note = file.note {
            if let damage = Self.damage(at: url) { return .failure(.damaged("\(note); SQLite's check: \(damage)")) }
            file.forgetNote()
        }
        do {
            return .success(try SyncStore.opened(url))
        } catch let error as LocalStoreError where error.reason == .corrupt {
            return .failure(.damaged(error.message))
        } catch {
            return .failure(.cannotOpen("\(error)"))
        }
    }

    /// What SQLite's check of every page of the file finds wrong (`PRAGMA quick_check`), or nil
    /// when nothing, or when the file cannot be read to check (its opening says why).
    private static func damage(at url: URL) -> String? {
        guard let database = try? SQLiteDatabase(.file(url), readOnly: true) else { return nil }
        do {
            let lines = try database.query("PRAGMA quick_check(10)").map { $0.text(0) }
            return lines == ["ok"] ? nil : lines.joined(separator: "; ")
        } catch {
            return "\(error)"
        }
    }

    /// The damaged file moved aside, a new store in its place, and what can be read of the
    /// damaged file's unpushed changes carried into it.
    private func rebuild(_ file: DamagedStoreFile, problem: String) -> (SyncStore.Opened, StoreRecovery?) {
        let kept: URL
        do {
            kept = try file.moveAside(at: now)
        } catch {
            return inMemory(problem: "\(problem); the damaged file could not be moved aside (\(error))")
        }
        let opened: SyncStore.Opened
        do {
            opened = try SyncStore.opened(url)
        } catch {
            return inMemory(problem: "\(problem); a new store could not be made (\(error))")
        }
        let salvage = Self.salvage(from: kept, at: now)
        var report = StoreRecovery(
            outcome: .rebuilt, problem: problem, damagedFile: kept,
            recovered: salvage.changes.map { RecordKey($0.recordType, $0.recordName) }, notRecovered: salvage.unreadable, date: now)
        do {
            try Self.transaction(on: opened.database, at: now) { store in
                try store.carryIn(salvage)
                try store.recordRecovery(report)
            }
        } catch {
            report.notRecovered.insert("the changes read could not be written into the new store (\(error))", at: 0)
            report.recovered = []
            try? Self.transaction(on: opened.database, at: now) { try $0.recordRecovery(report) }
        }
        return (opened, report)
    }

    /// What the damaged file (moved aside, opened to read only: it is never written) still holds.
    private static func salvage(from kept: URL, at now: Date) -> Salvage {
        guard FileManager.default.fileExists(atPath: kept.path) else {
            return Salvage(unreadable: ["the store's file was gone: no change waiting in it could be read"])
        }
        do {
            let database = try SQLiteDatabase(.file(kept), readOnly: true)
            // A file cut short: SQLite refuses it whole when its header counts more pages than
            // the file holds, unless it may read the schema as it is (`writable_schema`; the
            // connection is read-only, so nothing is written): then it reads what is there.
            try database.execute("PRAGMA writable_schema = ON")
            // Not a file at all (its header gone): said once, as such.
            try database.query("SELECT count(*) FROM sqlite_master")
            // One snapshot for every read, ended by a rollback: SQLite's commit of a read that
            // met damage reports the damage again.
            try database.execute("BEGIN")
            defer { try? database.execute("ROLLBACK") }
            return transaction(over: database, at: now).salvage()
        } catch {
            return Salvage(unreadable: ["nothing could be read from the damaged file (\(error))"])
        }
    }

    private static func transaction<T>(on database: SQLiteDatabase, at now: Date, _ body: (SQLiteStoreTransaction) throws -> T) throws -> T {
        try database.transaction { try body(transaction(over: database, at: now)) }
    }

    /// The store's reads and writes over a database this healing opened itself.
    private static func transaction(over database: SQLiteDatabase, at now: Date) -> SQLiteStoreTransaction {
        SQLiteStoreTransaction(database: database, now: now, changes: TransactionChanges(tables: TransactionTables(database: database, cache: TableCache())))
    }

    /// A store in memory for this session, saying why.
    private func inMemory(problem: String) -> (SyncStore.Opened, StoreRecovery?) {
        let opened: SyncStore.Opened
        do {
            opened = try SyncStore.opened(nil)
        } catch {
            fatalError("SQLite cannot open a database in memory: \(error)")
        }
        let report = StoreRecovery(outcome: .inMemory, problem: "\(url.path): \(problem)", damagedFile: nil, recovered: [], notRecovered: [], date: now)
        try? Self.transaction(on: opened.database, at: now) { try $0.recordRecovery(report) }
        return (opened, report)
    }
}
