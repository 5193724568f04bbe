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
/// A model CloudKit would refuse (a record over 1 MB, a record name it rejects) is refused at the
/// save that makes it, with a `RecordRefusal` naming the record and the rule; the transaction
/// rolls back, and what the store held before stays.
public final class SyncStore: Sendable {
    let database: Locked<SQLiteDatabase>
    let clock: any SyncClock
    /// The model tables committed transactions found or grew.
    let tableCache = TableCache()
    private let changeStreams = Locked<[UUID: AsyncStream<Void>.Continuation]>([:])
    private let commitStreams = Locked<[UUID: AsyncStream<StoreCommit>.Continuation]>([:])
    /// Fired after every committed transaction that wrote anything, the engine's bookkeeping
    /// (a pushed token, a change set aside) included: what a record's status follows.
    private let writeStreams = Locked<[UUID: AsyncStream<Void>.Continuation]>([:])
    /// Test support: commits allowed before the store "crashes" (every later commit fails), and
    /// how many transactions that wrote have committed.
    private let commitCount = Locked(CommitCount())

    /// Set when the store could be opened only to read: the device had no room left for SQLite
    /// to open it to write (a full disk). The user's data reads as before; each write throws a
    /// `LocalStoreError` of reason `.full` (its `userMessage` says what to tell the user) until
    /// there is room again, when a write that fits goes through. The store then holds the file
    /// alone: another process (an app extension) cannot open it until this one closes it.
    public let openedWithoutRoom: LocalStoreError?

    /// Opens (creating if needed) a store in a file, or in memory when `url` is nil. `clock`
    /// stamps every save: the modification time last-writer-wins merges compare. On a device
    /// with no room left, an existing store opens to read (`openedWithoutRoom`).
    public init(url: URL?, clock: any SyncClock = SystemClock()) throws {
        self.clock = clock
        if let url {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        var withoutRoom: LocalStoreError?
        self.database = try Self.reportingFailures {
            do {
                return Locked(try Self.open(url.map { .file($0) } ?? .memory, alone: false))
            } catch let error as SQLiteError where Self.isLackOfRoom(error) {
                guard let url, FileManager.default.fileExists(atPath: url.path) else { throw error }
                // No room for the files SQLite keeps beside the store to write it (the log's
                // shared index): held alone, it keeps that index in memory, and reads.
                withoutRoom = LocalStoreError(.full, "\(url.path): the store opened to read only, since SQLite could not open it to write (the device has no room left, or its disk fails); writes fail until there is room (\(error))")
                return Locked(try Self.open(.file(url), alone: true))
            }
        }
        openedWithoutRoom = withoutRoom
    }

    /// A database of this version's layout, brought up to date; `alone`, only checked (bringing
    /// it up to date would need room to write).
    private static func open(_ location: SQLiteDatabase.Location, alone: Bool) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(location, alone: alone)
        do {
            if alone {
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

    /// Whether opening failed for want of room: the disk full, or the files beside the store
    /// (the log, its shared index) impossible to make or grow.
    private static func isLackOfRoom(_ error: SQLiteError) -> Bool {
        error.primaryCode == .full || error.primaryCode == .ioError
    }

    /// Opens an existing store file to read it only (the inspector): nothing is ever written,
    /// not even its layout, and another process may hold it open and write it meanwhile. A file
    /// of another layout than this version's is refused, saying which and what to do.
    package init(readingOnly url: URL, clock: any SyncClock = SystemClock()) throws {
        self.clock = clock
        openedWithoutRoom = nil
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
        let path = url.resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), let type = attributes[.type] as? FileAttributeType else {
            return "no store file there"
        }
        switch type {
        case .typeRegular:
            return (attributes[.size] as? NSNumber)?.int64Value == 0 ? "not a store: the file is empty (a store holds its layout from the moment it is made)" : nil
        case .typeDirectory:
            return "not a store: it is a folder (a store is one file, the .sqlite beside its -wal and -shm)"
        case .typeCharacterSpecial, .typeBlockSpecial:
            return "not a store: it is a device, not a file"
        case .typeSocket:
            return "not a store: it is a socket, not a file"
        default:
            // A named pipe (Foundation has no type of its own for one): opening it would wait for
            // a writer that never comes.
            return "not a store: it is a named pipe or another special file, not a regular file"
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

    /// The database under the store's lock.
    private func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try Self.reportingFailures(withoutRoom: openedWithoutRoom != nil) { try database.withLock { try body($0) } }
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
    private func inTransaction<T>(_ body: (SQLiteDatabase, TransactionChanges) throws -> (T, appWrote: Bool)) throws -> T {
        var changes: TransactionChanges?
        var wrote = false
        let (value, appWrote) = try withDatabase { database in
            try database.transaction {
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
        if let changes, !changes.list.isEmpty { Self.publish(StoreCommit(changes: changes.list), to: commitStreams) }
        if wrote { Self.publish((), to: writeStreams) }
        return value
    }

    // MARK: - Reading

    /// The stored model of that type and name, or nil.
    public func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model? {
        let table = try prepared(type)
        return try withDatabase { try StoreReader(database: $0, table: table).fetch(type, recordName: recordName) }
    }

    /// Every stored model of a type, optionally filtered and sorted.
    public func fetchAll<Model: SyncModel>(_ type: Model.Type, where isIncluded: (Model) -> Bool = { _ in true }, sortedBy areInIncreasingOrder: ((Model, Model) -> Bool)? = nil) throws -> [Model] {
        let table = try prepared(type)
        let models = try withDatabase { try StoreReader(database: $0, table: table).fetchAll(type) }.filter(isIncluded)
        return areInIncreasingOrder.map { models.sorted(by: $0) } ?? models
    }

    /// The models a query keeps, in its order, its page: in SQL over the model's table (a query
    /// with a part SQL cannot say runs in Swift over the table's rows, with the same answers).
    public func fetch<Model: SyncModel>(_ query: Query<Model>) throws -> [Model] {
        let table = try prepared(Model.self)
        return try withDatabase { database in
            let reader = StoreReader(database: database, table: table)
            guard let sql = QuerySQL(query, table: table) else {
                let authorships = query.predicate?.readsAuthorship == true ? try RecordAuthorshipSQL.all(recordType: Model.recordType, in: database) : [:]
                return query.apply(to: try reader.fetchAll(Model.self)) { authorships[$0.ownerName]?[$0.recordName] ?? .notYetInTheCloud }
            }
            return try reader.fetch(Model.self, sql)
        }
    }

    /// Who made the model and who last changed it, and when, as the cloud last reported them
    /// (`RecordAuthorship`): kept with its server version, never a field of the model. A model
    /// the cloud has not seen yet is the signed-in user's, undated.
    public func authorship<Model: SyncModel>(of model: Model) throws -> RecordAuthorship {
        try withDatabase { try RecordAuthorshipSQL.of(recordName: model.recordName, ownerName: model.ownerName, in: $0) }
    }

    /// How many models a query keeps (its limit and offset apply).
    public func count<Model: SyncModel>(_ query: Query<Model>) throws -> Int {
        let table = try prepared(Model.self)
        guard let sql = QuerySQL(query, table: table) else { return try fetch(query).count }
        return try withDatabase { database in
            Int(try database.query("SELECT COUNT(*) FROM (SELECT 1 FROM \(table.sqlName) \(sql.filter) \(sql.order) \(sql.page))", sql.arguments)[0].integer(0))
        }
    }

    /// Drops what the store keeps of fields the model's schema no longer has: their columns, with
    /// every value in them. The store never does it by itself (an older app version, or a later
    /// schema that brings the field back, may still want them); call it once they are no longer
    /// needed. Returns the names of the fields dropped.
    @discardableResult
    public func discardDroppedFields<Model: SyncModel>(of type: Model.Type) throws -> [String] {
        try inTransaction { _, scope in (try scope.tables.discardDroppedFields(of: type), false) }
    }

    /// How many models of the type are stored.
    public func count<Model: SyncModel>(_ type: Model.Type) throws -> Int {
        let table = try prepared(type)
        return try withDatabase { Int(try $0.query("SELECT COUNT(*) FROM \(table.sqlName)").first?.integer(0) ?? 0) }
    }

    /// Whether any change of the app waits to be pushed (set-aside changes do not wait).
    public func hasUnpushedChanges() throws -> Bool {
        try sqliteTransaction { try $0.hasUnpushedChanges() }
    }

    // MARK: - Change stream

    /// Fires after every committed write not made by the sync engine. Cheap to over-trigger: the
    /// engine debounces it and reads the history to see what is really pending.
    public func changes() -> AsyncStream<Void> {
        Self.subscribe(to: changeStreams)
    }

    private func notifyChange() {
        Self.publish((), to: changeStreams)
    }

    /// Every committed transaction that wrote anything, bookkeeping included.
    func writes() -> AsyncStream<Void> {
        Self.subscribe(to: writeStreams)
    }

    /// Every committed transaction that saved or deleted a model, whoever wrote it: the app, or
    /// the sync engine applying pulled, merged or deleted records (`StoreChange.isFromSync`).
    /// One element per transaction, naming each record it changed, in order; none is dropped,
    /// so a list can be updated in place from them.
    public func commits() -> AsyncStream<StoreCommit> {
        Self.subscribe(to: commitStreams, buffering: .unbounded)
    }

    /// A new stream of what is published to `streams`; a signal keeps only its newest element.
    private static func subscribe<Element: Sendable>(
        to streams: Locked<[UUID: AsyncStream<Element>.Continuation]>,
        buffering policy: AsyncStream<Element>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: policy)
        let id = UUID()
        streams.withLock { $0[id] = continuation }
        continuation.onTermination = { _ in _ = streams.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    private static func publish<Element: Sendable>(_ element: Element, to streams: Locked<[UUID: AsyncStream<Element>.Continuation]>) {
        for continuation in streams.withLock({ Array($0.values) }) { continuation.yield(element) }
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

/// Reads models of one type from its table.
struct StoreReader {
    /// The column of a field of a model read straight from its columns: how it keeps its values,
    /// and its place in a selected row.
    struct FieldColumn {
        let kind: ModelTable.Kind
        let place: Int32
    }

    let database: SQLiteDatabase
    let table: ModelTable

    func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model? {
        try models(type, table.selectByName, [.text(recordName)]).first
    }

    /// Names of the stored models whose parent is `parentRecordName`.
    func childNames(parentRecordName: String) throws -> [String] {
        try database.query("SELECT _name FROM \(table.sqlName) WHERE _parent = ? ORDER BY _name", [.text(parentRecordName)]).map { $0.text(0) }
    }

    func fetchAll<Model: SyncModel>(_ type: Model.Type) throws -> [Model] {
        try models(type, "SELECT \(table.modelSelectList) FROM \(table.sqlName) ORDER BY _name", [])
    }

    /// The models a query's SQL selects.
    func fetch<Model: SyncModel>(_ type: Model.Type, _ query: QuerySQL) throws -> [Model] {
        try models(type, "SELECT \(table.modelSelectList) FROM \(table.sqlName) \(query.filter) \(query.order) \(query.page)", query.arguments)
    }

    /// The stored models of these names and when each was last saved on this device: one name
    /// by its own statement, more in one read.
    func fetchWithModified<Model: SyncModel>(_ type: Model.Type, recordNames: [String]) throws -> [(model: Model, modified: Date)] {
        var models: [Model] = []
        var modified: [Date] = []
        let (sql, arguments): (String, [SQLiteValue]) = recordNames.count == 1
            ? (table.selectByName, [.text(recordNames[0])])
            : (table.selectByNames, [.text(QuotedText.jsonArray(recordNames))])
        try appendModels(type, sql, arguments, to: &models) { row in
            modified.append(Date(timeIntervalSince1970: row.real(3)))
        }
        return Array(zip(models, modified))
    }

    private func models<Model: SyncModel>(_ type: Model.Type, _ sql: String, _ arguments: [SQLiteValue]) throws -> [Model] {
        var models: [Model] = []
        try appendModels(type, sql, arguments, to: &models)
        return models
    }

    /// Appends each model the SQL selects to `models`, and hands `body` its row. A row is read
    /// straight from its columns by the model's own code when it can be (`fieldColumns`, and
    /// nothing kept beside them in `_extra`), otherwise through its stored fields.
    private func appendModels<Model: SyncModel>(
        _ type: Model.Type, _ sql: String, _ arguments: [SQLiteValue], to models: inout [Model], _ body: (SQLiteRow) -> Void = { _ in }
    ) throws {
        let columns = fieldColumns(type)
        try database.forEachRow(sql, arguments) { row throws(SQLiteError) in
            do {
                if let columns, row.isNull(ModelTable.extraColumn) {
                    try columns.withUnsafeBufferPointer { columns in
                        try Model.appendStoredRow(named: row.text(0), ownerName: row.text(1), { try columns[$0].kind.value(row, columns[$0].place) }, to: &models)
                    }
                } else {
                    models.append(try model(type, try table.record(row)))
                }
                body(row)
            } catch {
                throw SQLiteError(code: -1, message: "stored \(type.recordType) '\(row.text(0))' cannot be read: \(error)")
            }
        }
    }

    /// Each of the model's fields' column (in `storedKeys` order, with its place in a selected
    /// row), when the model's rows can be read straight from their columns: every field a plain
    /// value with a column of its own.
    private func fieldColumns<Model: SyncModel>(_ type: Model.Type) -> [FieldColumn]? {
        guard Model.storesPlainValues else { return nil }
        var columns: [FieldColumn] = []
        var next = 0
        for key in Model.storedKeys {
            guard let column = table.columnIndex(of: key, expectedAt: next) else { return nil }
            next = column + 1
            columns.append(FieldColumn(kind: table.columns[column].kind, place: Int32(ModelTable.runtimeColumns.count + column)))
        }
        return columns
    }

    /// The model a row read from this table holds.
    func model<Model: SyncModel>(_ type: Model.Type, _ stored: StoredRow) throws -> Model {
        var model = Model(emptyRecordNamed: stored.name, ownerName: stored.owner)
        let record = SyncRecord(recordType: type.recordType, id: RecordID(recordName: stored.name, zoneID: ZoneID(zoneName: "", ownerName: stored.owner)), fields: stored.fields)
        try model.applyStoredFields(from: record)
        return model
    }
}

/// Writes inside one store transaction, each stamped with the transaction's author. Valid only
/// inside the `write` call that hands it out.
public final class StoreWriter: ModelWriter {
    let database: SQLiteDatabase
    let author: StoreAuthor
    /// When this transaction's saves happen, unless a save says otherwise.
    let now: Date
    /// Whether this writer recorded a change of the app (never one of the engine's own).
    private(set) var wroteAppChange = false
    /// The records this writer deleted, a parent's subtree included, in the order they went.
    private(set) var deleted: [RecordKey] = []
    /// The transaction's changed models, for the commit feed.
    let changes: TransactionChanges

    init(database: SQLiteDatabase, author: StoreAuthor, now: Date, changes: TransactionChanges) {
        self.database = database
        self.author = author
        self.now = now
        self.changes = changes
    }

    /// Saves a model. The app's saves are checked against what CloudKit accepts first
    /// (`RecordRefusal`); the engine's come from the cloud, which already did.
    public func save<Model: SyncModel>(_ model: Model) throws {
        try save(model, modified: now, checked: !author.isEngine)
    }

    /// Saves with a given modification time: a pulled record keeps the time its writer edited it.
    func save<Model: SyncModel>(_ model: Model, modified: Date, checked: Bool = false) throws {
        let stored = model.encodeStoredFields()
        if checked {
            try Self.refuseWhatCloudKitWould(model, stored: stored, modified: modified)
            try refuseReadOnlyShare(model, .save)
        }
        let table = try changes.tables.writing(Model.self)
        if checked { try refuseDuplicateKeys(of: model, stored: stored, table: table) }
        try table.write(name: model.recordName, owner: model.ownerName, parent: model.parentRecordName, modified: modified, fields: stored, to: database)
        try recordHistory(type: Model.recordType, name: model.recordName, kind: .save, tombstone: nil)
        changes.note(Model.recordType, model.recordName, .save, by: author)
    }

    /// Throws ``DuplicateNaturalKey`` when the save would make the model share a natural key with
    /// another record of its owner: a new record, or a key changed to another's. The app's writes
    /// never make a duplicate here (records made on other devices still can, and the engine
    /// merges them); an edit of a record that keeps its key is never refused, even while a
    /// duplicate pulled from another device waits to be merged.
    private func refuseDuplicateKeys<Model: SyncModel>(of model: Model, stored: RecordFields, table: ModelTable) throws {
        guard !Model.uniqueKeys.isEmpty else { return }
        let before = try changes.tables.row(recordType: Model.recordType, recordName: model.recordName)
        for key in Model.uniqueKeys {
            guard let values = NaturalKeys.values(of: key, in: stored, table: table) else { continue }
            if let before, before.owner == model.ownerName, NaturalKeys.values(of: key, in: before.fields, table: table) == values { continue }
            guard let existing = try NaturalKeys.others(key: key, values: values, owner: model.ownerName, excluding: model.recordName, table: table, database).first
            else { continue }
            throw DuplicateNaturalKey(recordType: Model.recordType, recordName: model.recordName, key: key, existingRecordName: existing)
        }
    }

    /// Throws the `RecordRefusal` CloudKit would answer the model's upload with.
    ///
    /// The stored form holds every field the record uploads, under the same names and values, so
    /// a record whose stored form is more than `uploadOverheadBound` under the limit cannot be
    /// over it: only records near the limit are encoded as they upload (the common save costs
    /// nothing more than its name and number checks). A number that cannot sync is refused on a
    /// field kept on this device too: the store gives back what was saved, or refuses it.
    static func refuseWhatCloudKitWould<Model: SyncModel>(_ model: Model, stored: RecordFields, modified: Date) throws(RecordRefusal) {
        if let reason = RecordRefusal.recordNameProblem(model.recordName) {
            throw .invalidRecordName(recordType: Model.recordType, recordName: model.recordName, reason: reason)
        }
        if let (field, value) = RecordRefusal.nonFiniteNumber(in: stored) {
            throw .notFinite(recordType: Model.recordType, recordName: model.recordName, field: field, value: value)
        }
        guard RecordSize.of(stored) > CloudKitLimits.maxRecordBytes - uploadOverheadBound else { return }
        if let refusal = RecordRefusal.check(uploadForm(of: model, modified: modified)) { throw refusal }
    }

    /// More than the runtime adds to a record's uploaded fields beyond its stored ones: the edit
    /// time, the asset markers, the publication lifecycle's fields, two field counts.
    static let uploadOverheadBound = 4096

    /// The record a model uploads, as the push sends it: its fields and the edit time.
    static func uploadForm<Model: SyncModel>(of model: Model, modified: Date) -> SyncRecord {
        var record = model.makeRecord()
        record.fields[RecordFieldNames.clientModifiedAt] = .date(modified)
        return record
    }

    /// Deletes a model and the records under it (`SyncModel.childTypes`), children before
    /// parents; each tombstone keeps the values of its tombstone key paths.
    public func delete<Model: SyncModel>(_ model: Model) throws {
        if !author.isEngine { try refuseReadOnlyShare(model, .delete) }
        try deleteTree(model)
    }

    /// Deletes a model and the records under it, children first.
    private func deleteTree<Model: SyncModel>(_ model: Model) throws {
        for childType in Model.childTypes { try deleteChildren(childType, of: model.recordName) }
        try database.query("DELETE FROM \(try changes.tables.table(for: Model.self).sqlName) WHERE _name = ?", [.text(model.recordName)])
        guard database.changes > 0 else { return }
        deleted.append(RecordKey(Model.recordType, model.recordName))
        var tombstone = RecordFields()
        for keyPath in Model.tombstoneKeyPaths {
            tombstone[keyPath.name] = .string(model[keyPath: keyPath.keyPath])
        }
        try recordHistory(type: Model.recordType, name: model.recordName, kind: .delete, tombstone: tombstone)
        changes.note(Model.recordType, model.recordName, .delete, by: author)
    }

    private func deleteChildren<Child: SyncModel>(_ type: Child.Type, of parent: String) throws {
        for name in try StoreReader(database: database, table: changes.tables.table(for: type)).childNames(parentRecordName: parent) {
            if let child = try fetch(type, recordName: name) { try deleteTree(child) }
        }
    }

    /// One history entry, stamped with this writer's author.
    func recordHistory(type: String, name: String, kind: ChangeKind, tombstone: RecordFields?) throws {
        try database.run("INSERT INTO history (type, name, kind, author, tombstone, at) VALUES (?, ?, ?, ?, ?, ?)") { (parameters: inout SQLiteParameters) throws(SQLiteError) in
            try parameters.set(1, .text(type))
            try parameters.set(2, .text(name))
            try parameters.set(3, .integer(Int64(kind.rawValue)))
            try parameters.set(4, .text(author.storedValue))
            if let tombstone { try parameters.set(5, .blob(FieldsCodec.encode(tombstone))) }
            try parameters.set(6, .real(now.timeIntervalSince1970))
        }
        if !author.isEngine { wroteAppChange = true }
    }

    /// The model of that type and name as this transaction sees it, or nil.
    public func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model? {
        try StoreReader(database: database, table: changes.tables.table(for: type)).fetch(type, recordName: recordName)
    }

    /// Every model of the type as this transaction sees it.
    public func fetchAll<Model: SyncModel>(_ type: Model.Type) throws -> [Model] {
        try StoreReader(database: database, table: changes.tables.table(for: type)).fetchAll(type)
    }
}

/// What one transaction did beyond its SQL: the models it saved and deleted, in order (what the
/// commit feed announces once it commits), and the tables it found or grew (what the store's
/// cache keeps once it commits). Lives as long as the transaction.
final class TransactionChanges {
    private(set) var list: [StoreChange] = []
    let tables: TransactionTables

    init(tables: TransactionTables) {
        self.tables = tables
    }

    func note(_ recordType: String, _ recordName: String, _ kind: ChangeKind, by author: StoreAuthor) {
        list.append(StoreChange(recordType: recordType, recordName: recordName, kind: kind, author: author))
    }
}
