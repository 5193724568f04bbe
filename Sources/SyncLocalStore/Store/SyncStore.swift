import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
import SyncStorage

/// The app's models on this device, in SQLite (WAL): typed saves, deletions and fetches, in
/// transactions. Every write is stamped with an author and recorded in a history the engine reads
/// to know what to push; a deletion leaves a tombstone with the values named by the model's
/// tombstone key paths. Sync metadata (the last server record of each record, change tokens,
/// changes set aside, an account's parked changes) lives in tables of its own, apart from the
/// models.
///
/// Writes go one transaction at a time. In a file, reads (fetches, queries, counts, walks,
/// observations) run on connections of their own and see the last commit: a screen's read never
/// waits while sync applies a pulled page, and never sees part of a transaction.
///
/// A model CloudKit would refuse (a record over 1 MB, a record name it rejects) is refused at the
/// save that makes it, with a `RecordRefusal` naming the record and the rule; the transaction
/// rolls back, and what the store held before stays.
public final class SyncStore: Sendable {
    /// The connection every write goes through, one transaction at a time.
    let database: Locked<SQLiteDatabase>
    /// Connections the app's reads go through, each in a read transaction of its own: a read sees
    /// the last committed state and never waits for a write (WAL). Nil where the store has one
    /// connection for all (in memory, or a file held alone), and reads take the writer's turn.
    private let readers: SQLiteReaders?
    let clock: any SyncClock
    /// The model tables committed transactions found or grew.
    let tableCache = TableCache()
    /// The engine's scheduler, told of each committed write the app made (`changes()`).
    let schedulerListeners = Locked<[UUID: AsyncStream<Void>.Continuation]>([:])
    /// Screens and observers of models, told of each commit that saved or deleted one
    /// (`commits()`).
    let modelObservers = Locked<[UUID: AsyncStream<StoreCommit>.Continuation]>([:])
    /// Observers of a record's sync status, told of every committed transaction that wrote
    /// anything, the engine's bookkeeping (a pushed token, a change set aside) included
    /// (`writes()`).
    let statusObservers = Locked<[UUID: AsyncStream<Void>.Continuation]>([:])
    /// Test support: commits allowed before the store "crashes" (every later commit fails), and
    /// how many transactions that wrote have committed.
    private let commitCount = Locked(CommitCount())

    /// Set when the store could be opened only to read, with why: `.full`, the device had no room
    /// left for SQLite to open it to write; `.readOnly`, the file or its volume cannot be written.
    /// The user's data reads as before (a type never stored reads as none); each write throws a
    /// `LocalStoreError` of that reason (its `userMessage` says what to tell the user). On a full
    /// device a write that fits goes through once there is room again, and the store holds the
    /// file alone meanwhile: another process (an app extension) cannot open it until this one
    /// closes it. On a volume that cannot be written the file is read as immutable.
    public let openedToRead: LocalStoreError?

    /// `openedToRead` when the reason is a full device (`.full`); nil otherwise.
    public var openedWithoutRoom: LocalStoreError? { openedToRead?.reason == .full ? openedToRead : nil }

    /// The thread a write of this store runs on, while it runs: a store call made there, inside
    /// the write's closure, would wait for ever for the write it is part of, so it is refused.
    private let writingThread = Locked<ObjectIdentifier?>(nil)

    /// Where damage SQLite reports while the store runs is noted, for the next
    /// `SyncStore(healing:)` to check the file; nil in memory.
    private let file: DamagedStoreFile?

    /// A database opened for the store, and what its opening found.
    struct Opened {
        var database: SQLiteDatabase
        var openedToRead: LocalStoreError?
        /// The file; nil in memory.
        var url: URL?
    }

    /// Opens (creating if needed) a store in a file, or in memory when `url` is nil. `clock`
    /// stamps every save: the modification time last-writer-wins merges compare. On a device
    /// with no room left, an existing store opens to read (`openedWithoutRoom`). A file SQLite
    /// finds damaged throws `LocalStoreError.corrupt`; `SyncStore(healing:)` heals it instead.
    public convenience init(url: URL?, clock: any SyncClock = SystemClock()) throws {
        self.init(try Self.opened(url), clock: clock)
    }

    init(_ opened: Opened, clock: any SyncClock) {
        self.clock = clock
        database = Locked(opened.database)
        openedToRead = opened.openedToRead
        readers = opened.url.flatMap { opened.openedToRead == nil ? SQLiteReaders($0) : nil }
        file = opened.url.map(DamagedStoreFile.init)
    }

    /// The database of a store in a file (created if needed), or in memory when `url` is nil;
    /// opened to read where SQLite cannot open it to write.
    static func opened(_ url: URL?) throws -> Opened {
        if let url {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        var toRead: LocalStoreError?
        let database = try Self.reportingFailures {
            if let url, let problem = Self.specialFileProblem(url) { throw LocalStoreError(.other, "\(url.path): \(problem)") }
            do {
                return try Self.open(url.map { .file($0) } ?? .memory, alone: false)
            } catch let error as SQLiteError {
                guard let url, FileManager.default.fileExists(atPath: url.path), let reason = Self.cannotWrite(error, at: url) else { throw error }
                // SQLite cannot open the store to write: no room for the files it keeps beside the
                // store (the log's shared index), or a volume or file it may not write. Held alone,
                // it keeps that index in memory, and reads.
                if reason == .full {
                    toRead = LocalStoreError(.full, "\(url.path): the store opened to read only, since SQLite could not open it to write (the device has no room left, or its disk fails); writes fail until there is room (\(error))")
                    return try Self.open(.file(url), alone: true)
                }
                // Nothing beside the store can be made on a volume that cannot be written, and
                // nobody can change the file there: it is read as immutable.
                toRead = LocalStoreError(.readOnly, "\(url.path): the store opened to read only, since its file or volume cannot be written; writes fail (\(error))")
                return try Self.open(.file(url), readOnly: true)
            }
        }
        return Opened(database: database, openedToRead: toRead, url: url)
    }

    /// A database of this version's layout, brought up to date; `alone` or `readOnly`, only
    /// checked (bringing it up to date would need room, or leave, to write).
    private static func open(_ location: SQLiteDatabase.Location, alone: Bool = false, readOnly: Bool = false) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(location, readOnly: readOnly, alone: alone, immutable: readOnly)
        do {
            if alone || readOnly {
                try database.transaction { try StoreLayout.migrator.check(database) }
            } else {
                try StoreLayout.migrator.migrate(database)
                try database.transaction { try AssetCacheBookkeeping.install(database) }
            }
        } catch let error as MigrationError {
            let path = if case .file(let url) = location { "\(url.path): " } else { "" }
            switch error {
            case .olderFile: throw LocalStoreError(.full, "\(path)the device has no room left to bring the store up to date: \(error)")
            case .otherFile: throw LocalStoreError(.other, path + error.description)
            case .newerFile: throw LocalStoreError(.newerVersion, path + error.description)
            }
        }
        return database
    }

    /// Why opening failed for want of writing, or nil for another failure: `.full`, the disk
    /// full, or the files beside the store (the log, its shared index) impossible to make or
    /// grow; `.readOnly`, a volume mounted read-only or a file or folder that may not be written.
    private static func cannotWrite(_ error: SQLiteError, at url: URL) -> LocalStoreError.Reason? {
        let folder = url.deletingLastPathComponent().path
        // `access` answers EROFS on a volume mounted read-only, even for root (asking the volume
        // itself, `statvfs`, is an API Apple requires a privacy reason for).
        let readOnly = access(folder, W_OK) != 0 || access(url.path, W_OK) != 0
        switch error.primaryCode {
        case .full: return .full
        case .readOnly, .cantOpen: return readOnly ? .readOnly : nil
        // SQLite's I/O error is a full device as often as a failing disk (it meets either making
        // the files beside the store), and nothing here tells the two apart; what is at the path
        // was checked before (a device, `/dev/null`, is no store).
        case .ioError: return readOnly ? .readOnly : .full
        default: return nil
        }
    }

    /// Opens an existing store file to read it only (the inspector): nothing is ever written,
    /// not even its layout, and another process may hold it open and write it meanwhile. A file
    /// of another layout than this version's is refused, saying which and what to do.
    package init(readingOnly url: URL, clock: any SyncClock = SystemClock()) throws {
        self.clock = clock
        openedToRead = nil
        readers = nil
        file = nil
        self.database = try Self.reportingFailures {
            if let problem = Self.notAStoreFile(url) { throw LocalStoreError(.other, "\(url.path): \(problem)") }
            let database: SQLiteDatabase
            do {
                database = try SQLiteDatabase(.file(url), readOnly: true)
                try database.transaction { try StoreLayout.migrator.check(database) }
            } catch let error as MigrationError {
                if case .newerFile = error { throw LocalStoreError(.newerVersion, "\(url.path): \(error)") }
                throw LocalStoreError(.other, "\(url.path): \(error)")
            } catch let error as SQLiteError where error.primaryCode == .notADatabase {
                throw LocalStoreError(.corrupt, "\(url.path): not a store: the file is no SQLite database")
            }
            return Locked(database)
        }
    }

    /// Why the path cannot be a store file, said before SQLite opens it (which would wait for
    /// ever on a named pipe, take a folder for a failing disk, and an empty file for an empty
    /// database); nil for a file of some bytes.
    private static func notAStoreFile(_ url: URL) -> String? {
        switch FileKind.at(url) {
        case .nothing: "no store file there"
        case .regular(let size): size == 0 ? "not a store: the file is empty (a store holds its layout from the moment it is made)" : nil
        case .other(let problem): problem
        }
    }

    /// Why something at the path that is no regular file cannot be a store (a device, a folder, a
    /// pipe, a link that leads nowhere); nil for a regular file or nothing there (a store to make).
    private static func specialFileProblem(_ url: URL) -> String? {
        if case .other(let problem) = FileKind.at(url) { problem } else { nil }
    }

    /// What is at a path, found by opening it without waiting (a named pipe's open would wait
    /// for a writer that never comes) and asking the descriptor what it opened: so what is
    /// checked is what was opened, not what was there a moment before.
    private enum FileKind {
        case nothing
        case regular(size: Int64)
        case other(String)

        static func at(_ url: URL) -> FileKind {
            let descriptor = Foundation.open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                switch errno {
                case ENOENT: return .nothing
                case ELOOP: return .other("not a store: the path is a symbolic link that leads to itself (a loop)")
                case ENXIO: return .other("not a store: it is a socket, not a file")
                case EACCES: return .regular(size: -1)  // a file it may not read: SQLite says so
                default: return .other("not a store: it cannot be opened (\(String(cString: strerror(errno))))")
                }
            }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return .other("not a store: it cannot be read (\(String(cString: strerror(errno))))") }
            switch mode_t(info.st_mode) & mode_t(S_IFMT) {
            case mode_t(S_IFREG): return .regular(size: Int64(info.st_size))
            case mode_t(S_IFDIR): return .other("not a store: it is a folder (a store is one file, the .sqlite beside its -wal and -shm)")
            case mode_t(S_IFCHR), mode_t(S_IFBLK): return .other("not a store: it is a device, not a file")
            case mode_t(S_IFIFO): return .other("not a store: it is a named pipe, not a regular file")
            case mode_t(S_IFSOCK): return .other("not a store: it is a socket, not a file")
            default: return .other("not a store: it is a special file, not a regular file")
            }
        }
    }

    // MARK: - Writing

    /// Saves (inserts or replaces) a model. Throws `RecordRefusal` for a model CloudKit would
    /// refuse.
    public func save<Model: SyncModel>(_ model: Model, author: StoreAuthor = .app) throws {
        try write(author: author) { try $0.save(model) }
    }

    /// Saves models in one transaction: all of them, or none.
    public func save<Model: SyncModel>(_ models: [Model], author: StoreAuthor = .app) throws {
        try write(author: author) { writer in
            for model in models { try writer.save(model) }
        }
    }

    /// Saves a stored model of which only the fields at `keyPaths` changed: their columns are
    /// written and the others left as they are (`StoreWriter.update(_:changing:)`).
    public func update<Model: SyncModel>(_ model: Model, changing keyPaths: PartialKeyPath<Model>..., author: StoreAuthor = .app) throws {
        let names = try StoreWriter.fieldNames(keyPaths)
        try write(author: author) { try $0.update(model, changing: names) }
    }

    /// Updates models of which only the fields at `keyPaths` changed, in one transaction: all of
    /// them, or none.
    public func update<Model: SyncModel>(_ models: [Model], changing keyPaths: PartialKeyPath<Model>..., author: StoreAuthor = .app) throws {
        let names = try StoreWriter.fieldNames(keyPaths)
        try write(author: author) { writer in
            for model in models { try writer.update(model, changing: names) }
        }
    }

    /// Deletes a model, leaving a tombstone; nothing happens if it is not stored.
    public func delete<Model: SyncModel>(_ model: Model, author: StoreAuthor = .app) throws {
        try write(author: author) { try $0.delete(model) }
    }

    /// Deletes the stored model of that type and name, if any, with the records under it.
    public func delete<Model: SyncModel>(_ type: Model.Type, recordName: String, author: StoreAuthor = .app) throws {
        try write(author: author) { writer in
            if let model = try writer.fetch(type, recordName: recordName) { try writer.delete(model) }
        }
    }

    /// Runs `body` in one transaction: all its writes land, or none. Observers hear of the app's
    /// writes once it commits.
    public func write<T>(author: StoreAuthor = .app, _ body: (StoreWriter) throws -> T) throws -> T {
        try inTransaction { database, changes in
            let writer = StoreWriter(database: database, author: author, now: clock.now, changes: changes)
            return (try body(writer), writer.wroteAppChange)
        }
    }

    /// The engine's transactions (`LocalStorePort.transaction`).
    func sqliteTransaction<T>(_ body: (SQLiteStoreTransaction) throws -> T) throws -> T {
        try inTransaction { database, changes in
            let transaction = SQLiteStoreTransaction(database: database, now: clock.now, changes: changes)
            return (try body(transaction), transaction.appWrote)
        }
    }

    /// The model's table, grown to its fields: made (or grown, or filled from the layout
    /// before) in a transaction of its own the first time this store meets the model.
    private func prepared<Model: SyncModel>(_ type: Model.Type) throws -> ModelTable {
        if let entry = tableCache.entry(Model.recordType), entry.writing != nil { return entry.table }
        return try inTransaction { _, scope in (try scope.tables.table(for: type), false) }
    }

    /// The model's table for a read: made or grown as `prepared` does; on a store opened to read
    /// only, the table as the file has it, or nil when it has none (a type never stored reads as
    /// none, where making its table would fail for want of room or of a writable file).
    func tableToRead<Model: SyncModel>(_ type: Model.Type) throws -> ModelTable? {
        guard openedToRead != nil else { return try prepared(type) }
        if let entry = tableCache.entry(Model.recordType) { return entry.table }
        return try withDatabase { try TransactionTables(database: $0, cache: tableCache).table(named: Model.recordType) }
    }

    /// The database under the store's lock.
    private func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try notingDamage { try Self.reportingFailures(withoutRoom: openedWithoutRoom != nil) { try database.withLock { try body($0) } } }
    }

    /// Runs work on the database; damage SQLite reports is noted beside the file, for the next
    /// `SyncStore(healing:)` to check it (the store goes on: what can be read still is).
    private func notingDamage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LocalStoreError where error.reason == .corrupt {
            file?.noteDamage(error.message)
            throw error
        }
    }

    /// Runs a read of the app: on a reader, in a read transaction (one snapshot of the last
    /// commit, whatever a write holds meanwhile), or under the store's lock where it has no
    /// readers.
    func reading<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try refuseInsideWrite("a read")
        guard let readers else { return try withDatabase(body) }
        return try notingDamage { try Self.reportingFailures { try readers.read(body) } }
    }

    /// `reading`, for a read of the engine's bookkeeping (a record's status, its conflicts, a
    /// kept share): the reader seen as a transaction that writes nothing.
    func sqliteReading<T>(_ body: (SQLiteStoreTransaction) throws -> T) throws -> T {
        guard readers != nil else { return try sqliteTransaction(body) }
        return try reading { database in
            let tables = TransactionTables(database: database, cache: tableCache)
            return try body(SQLiteStoreTransaction(database: database, now: clock.now, changes: TransactionChanges(tables: tables)))
        }
    }

    /// Throws when called inside a write's closure, on the thread the write runs on: the call
    /// would wait for ever for the write it is part of (the store's lock is not re-entrant, and
    /// a write's own changes are the writer's to read).
    private func refuseInsideWrite(_ call: String) throws {
        guard writingThread.withLock({ $0 }) == ObjectIdentifier(Thread.current) else { return }
        throw LocalStoreError(.other, "\(call) of the store inside store.write { }: inside the closure, read and write through the StoreWriter it is given (writer.save, writer.fetch...); a call of the store itself would wait for the write it is part of")
    }

    /// Runs `body` with no read of the app in flight, and none starting until it returns.
    private func excludingReads<T>(_ body: () throws -> T) throws -> T {
        guard let readers else { return try body() }
        return try readers.excludingReads(body)
    }

    /// Runs work on the database, a failure of SQLite's as the store's own (`LocalStoreError`,
    /// with the reason its recovery depends on): SQLite's errors never leave the store.
    /// `withoutRoom`: the store was opened for want of room, and a write that cannot grow the
    /// file (a full disk, or the I/O error SQLite may find instead) is the full device the user
    /// can act on.
    private static func reportingFailures<T>(withoutRoom: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where withoutRoom && (error.primaryCode == .full || error.primaryCode == .ioError) {
            throw LocalStoreError(.full, "the device has no room left to write the store: \(error)")
        } catch let error as SQLiteError {
            throw LocalStoreError(error)
        }
    }

    /// One transaction of the database, under the store's lock. `body` says whether the app
    /// wrote, so the change stream fires once the transaction commits, and notes each model it
    /// changed, so the commit feed hears of them then (a transaction that rolls back says nothing).
    func inTransaction<T>(_ body: (SQLiteDatabase, TransactionChanges) throws -> (T, appWrote: Bool)) throws -> T {
        try refuseInsideWrite("a write")
        var changes: TransactionChanges?
        var wrote = false
        let (value, appWrote) = try withDatabase { database in
            writingThread.withLock { $0 = ObjectIdentifier(Thread.current) }
            defer { writingThread.withLock { $0 = nil } }
            return try database.transaction {
                let before = database.totalChanges
                let scope = TransactionChanges(tables: TransactionTables(database: database, cache: tableCache))
                changes = scope
                let result = try body(database, scope)
                wrote = database.totalChanges != before
                if wrote { try spendCommit() }
                return result
            }
        }
        if let changes { tableCache.merge(changes.tables.found) }
        if appWrote { notifyChange() }
        if let changes, !changes.list.isEmpty { Self.publish(StoreCommit(changes: changes.list), to: modelObservers) }
        if wrote { Self.publish((), to: statusObservers) }
        return value
    }

    // MARK: - Reading

    /// The stored model of that type and name, or nil.
    public func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model? {
        guard let table = try tableToRead(type) else { return nil }
        return try reading { try StoreReader(database: $0, table: table).fetch(type, recordName: recordName) }
    }

    /// Every stored model of a type, optionally filtered and sorted: one array, filtered and
    /// sorted in place (a large result never lives twice). To walk more models than should be
    /// held at once, `forEach(_:pageSize:_:)` holds a page.
    public func fetchAll<Model: SyncModel>(
        _ type: Model.Type, where isIncluded: ((Model) -> Bool)? = nil, sortedBy areInIncreasingOrder: ((Model, Model) -> Bool)? = nil
    ) throws -> [Model] {
        guard let table = try tableToRead(type) else { return [] }
        var models = try reading { try StoreReader(database: $0, table: table).fetchAll(type) }
        if let isIncluded { models.removeAll { !isIncluded($0) } }
        if let areInIncreasingOrder { models.sort(by: areInIncreasingOrder) }
        return models
    }

    /// Every stored model of a type, in record-name order, handed to `body` a page at a time:
    /// what is held at once is a page of `pageSize` models, however many are stored. Each page is
    /// read on its own, and `body` runs between reads, free to read or write the store: a walk
    /// sees what was committed before each page, never a model twice, and every model stored
    /// throughout.
    public func forEach<Model: SyncModel>(_ type: Model.Type, pageSize: Int = 500, _ body: (Model) throws -> Void) throws {
        precondition(pageSize > 0, "a page holds at least one model")
        guard let table = try tableToRead(type) else { return }
        var after: String?
        while true {
            let page = try reading { try StoreReader(database: $0, table: table).page(type, after: after, limit: pageSize) }
            for model in page { try body(model) }
            guard page.count == pageSize, let last = page.last else { return }
            after = last.recordName
        }
    }

    /// The models a query keeps, in its order, its page: in SQL over the model's table (a query
    /// with a part SQL cannot say runs in Swift over the table's rows, with the same answers).
    public func fetch<Model: SyncModel>(_ query: Query<Model>) throws -> [Model] {
        guard let table = try tableToRead(Model.self) else { return [] }
        return try runningSearch(query) { try QueryRun(query: query, database: $0, table: table).models() }
    }

    /// Who made the model and who last changed it, and when, as the cloud last reported them
    /// (`RecordAuthorship`): kept with its server version, never a field of the model. A model
    /// the cloud has not seen yet is the signed-in user's, undated.
    public func authorship<Model: SyncModel>(of model: Model) throws -> RecordAuthorship {
        try reading { try RecordAuthorshipSQL.of(recordName: model.recordName, ownerName: model.ownerName, in: $0) }
    }

    /// How many models a query keeps (its limit and offset apply).
    public func count<Model: SyncModel>(_ query: Query<Model>) throws -> Int {
        guard let table = try tableToRead(Model.self) else { return 0 }
        return try runningSearch(query) { try QueryRun(query: query, database: $0, table: table).count() }
    }

    /// Drops what the store keeps of fields the model's schema no longer has: their columns, with
    /// every value in them. The store never does it by itself (an older app version, or a later
    /// schema that brings the field back, may still want them); call it once they are no longer
    /// needed. Returns the names of the fields dropped.
    @discardableResult
    public func discardDroppedFields<Model: SyncModel>(of type: Model.Type) throws -> [String] {
        // A read in flight names the columns it drops: none runs meanwhile.
        try excludingReads { try inTransaction { _, scope in (try scope.tables.discardDroppedFields(of: type), false) } }
    }

    /// How many models of the type are stored.
    public func count<Model: SyncModel>(_ type: Model.Type) throws -> Int {
        guard let table = try tableToRead(type) else { return 0 }
        return try reading { Int(try $0.query("SELECT COUNT(*) FROM \(table.sqlName)").first?.integer(0) ?? 0) }
    }

    /// Whether any change of the app waits to be pushed (set-aside changes do not wait).
    public func hasUnpushedChanges() throws -> Bool {
        try sqliteReading { try $0.hasUnpushedChanges() }
    }

    // MARK: - Crash simulation (tests)

    private struct CommitCount {
        var committed = 0
        var crashAt: Int?
    }

    /// The store as a process killed at a given moment would leave it: `count` more transactions
    /// that write commit, and every later one rolls back, as the transaction a process dies in
    /// does. Reopen the file with a new ``SyncStore`` to "restart".
    func crash(afterCommits count: Int) {
        commitCount.withLock { $0.crashAt = $0.committed + count }
    }

    /// How many transactions that wrote have committed so far.
    var writeCommits: Int { commitCount.withLock { $0.committed } }

    /// Whether the simulated crash happened: no transaction that writes commits any more.
    var hasCrashed: Bool { commitCount.withLock { state in state.crashAt.map { state.committed >= $0 } ?? false } }

    private func spendCommit() throws {
        try commitCount.withLock { (state: inout CommitCount) throws(SimulatedCrash) in
            if let crashAt = state.crashAt, state.committed >= crashAt { throw SimulatedCrash() }
            state.committed += 1
        }
    }

    /// A write after the simulated crash.
    struct SimulatedCrash: Error, CustomStringConvertible {
        var description: String { "the store crashed (simulated)" }
    }
}
