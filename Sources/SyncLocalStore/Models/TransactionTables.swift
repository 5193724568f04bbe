import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// The model tables this store's transactions have committed, for the next ones to find without
/// reading the catalog: each table as the catalog has it, and, once it has grown to the Swift
/// model this process writes, the view its saves write it through (`writing`).
final class TableCache: Sendable {
    struct Entry: Sendable {
        var table: ModelTable
        /// The table as the model's saves write it (`ModelTable.writing`); nil until the table has
        /// met the model in this process.
        var writing: ModelTable?
    }

    private let entries = Locked<[String: Entry]>([:])

    func entry(_ recordType: String) -> Entry? {
        entries.withLock { $0[recordType] }
    }

    /// What a transaction that committed found or changed.
    func merge(_ found: [String: Entry]) {
        guard !found.isEmpty else { return }
        entries.withLock { $0.merge(found) { _, new in new } }
    }
}

/// The tables one transaction uses: the committed ones, and those it read from the catalog,
/// made or grew itself, which the store remembers only once it commits.
final class TransactionTables {
    let database: SQLiteDatabase
    private let cache: TableCache
    private(set) var found: [String: TableCache.Entry] = [:] {
        didSet { lastWriting = nil }
    }
    /// The table the last save wrote through, for the next save of the same type in this
    /// transaction (a batch of saves is mostly one type): found by comparing two names, where
    /// `grown` looks in two dictionaries (one behind a lock) and copies the entry out. Any change
    /// to `found` forgets it.
    private var lastWriting: (recordType: String, table: ModelTable)?

    init(database: SQLiteDatabase, cache: TableCache) {
        self.database = database
        self.cache = cache
    }

    private func entry(_ recordType: String) -> TableCache.Entry? {
        found[recordType] ?? cache.entry(recordType)
    }

    /// The model's table, grown to its fields.
    func table<Model: SyncModel>(for type: Model.Type) throws -> ModelTable {
        try grown(type).table
    }

    /// The model's table as its saves write it: its fields' columns (see `ModelTable.writing`),
    /// made once per process, not once per transaction.
    func writing<Model: SyncModel>(_ type: Model.Type) throws -> ModelTable {
        if let lastWriting, lastWriting.recordType == Model.recordType { return lastWriting.table }
        let writing = try grown(type).writing
        lastWriting = (Model.recordType, writing)
        return writing
    }

    /// The model's table grown to its fields, and the view its saves write it through.
    private func grown<Model: SyncModel>(_ type: Model.Type) throws -> (table: ModelTable, writing: ModelTable) {
        if let entry = entry(Model.recordType), let writing = entry.writing { return (entry.table, writing) }
        return try regrow(type)
    }

    /// Grows the model's table from the catalog as this transaction has it, and remembers it.
    @discardableResult
    private func regrow<Model: SyncModel>(_ type: Model.Type) throws -> (table: ModelTable, writing: ModelTable) {
        let table = try ModelTables.ensure(type, database)
        let writing = table.writing(Set(Model.fieldDescriptors.map(\.name)))
        found[Model.recordType] = TableCache.Entry(table: table, writing: writing)
        return (table, writing)
    }

    /// The table of a record type, or nil if the store never held one of the type.
    func table(named recordType: String) throws -> ModelTable? {
        if let entry = entry(recordType) { return entry.table }
        guard let table = try ModelTables.load(recordType, database) else { return nil }
        found[recordType] = TableCache.Entry(table: table)
        return table
    }

    /// Drops the columns of fields the model no longer has (`ModelTables.discardDroppedFields`).
    func discardDroppedFields<Model: SyncModel>(of type: Model.Type) throws -> [String] {
        let dropped = try ModelTables.discardDroppedFields(of: type, database)
        try regrow(type)
        return dropped
    }

    /// The table of a record type, made if missing.
    func ensureTable(named recordType: String) throws -> ModelTable {
        if let table = try table(named: recordType) { return table }
        let table = try ModelTables.ensure(recordType: recordType, database)
        found[recordType] = TableCache.Entry(table: table)
        return table
    }

    /// Every model table.
    func all() throws -> [ModelTable] {
        try ModelTables.recordTypes(database).compactMap { try table(named: $0) }
    }

    /// Whether a record of that type and name is stored.
    func isStored(recordType: String, recordName: String) throws -> Bool {
        guard let table = try table(named: recordType) else { return false }
        return try !database.query("SELECT 1 FROM \(table.sqlName) WHERE _name = ?", [.text(recordName)]).isEmpty
    }

    /// Which of `names` are stored records of that type.
    func storedNames(recordType: String, among names: [String]) throws -> Set<String> {
        guard !names.isEmpty, let table = try table(named: recordType) else { return [] }
        return Set(try database.query(
            "SELECT _name FROM \(table.sqlName) WHERE _name IN (SELECT value FROM json_each(?))", [.text(QuotedText.jsonArray(names))]
        ).map { $0.text(0) })
    }

    /// A record's stored row, read without its Swift type.
    func row(recordType: String, recordName: String) throws -> StoredRow? {
        guard let table = try table(named: recordType) else { return nil }
        return try database.query(table.selectByName, [.text(recordName)]).first.map { try table.record($0) }
    }
}
