import Foundation
import SyncCore
import SyncStorage

/// Natural keys (`SyncModel.uniqueKeys`) in the store: an index of each key on its table, the
/// lookup of the records of one owner that share a record's key, and the records waiting for the
/// engine to check theirs (`natural_key_checks`: the pulled ones, and every row of a table when a
/// key is new to it). A key with a missing or empty value (nil, an unset reference, "") groups
/// nothing: such records are never one (trap T16.5).
enum NaturalKeys {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("naturalKeys", sql: """
            -- Records whose natural keys the engine is to check for duplicates, written in the
            -- transaction that brought them.
            CREATE TABLE IF NOT EXISTS natural_key_checks (type TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (type, name));
            -- Records this device merged into another sharing their natural key, and which: a later
            -- version of one, or a record pointing at one, that another device sends goes there.
            -- `retiring`: not merged yet, the copy waits for its mark in the cloud to land.
            CREATE TABLE IF NOT EXISTS natural_key_merges (
                type TEXT NOT NULL, name TEXT NOT NULL, survivor TEXT NOT NULL, retiring INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (type, name));
            """),
        // Merges noted before copies were retired in the cloud: their deletion was queued then.
        DatabaseMigrator.Step("naturalKeys.retiring") { database in
            try database.addColumnIfMissing("retiring", "INTEGER NOT NULL DEFAULT 0", to: "natural_key_merges")
        },
    ]

    /// Makes each key's index (the owner, then the key's columns); a key whose index is new on a
    /// table that already holds rows (a schema that added it) marks them all to be checked.
    static func ensureIndexes<Model: SyncModel>(_ type: Model.Type, table: ModelTable, _ database: SQLiteDatabase) throws {
        for key in Model.uniqueKeys where key.allSatisfy({ table.column(named: $0) != nil }) {
            let index = "\"model_\(Model.recordType)_key_\(key.joined(separator: "_"))\""
            let name = String(index.dropFirst().dropLast())
            guard try database.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(name)]).isEmpty else { continue }
            try database.execute("CREATE INDEX \(index) ON \(table.sqlName) (_owner, \(key.map(ModelTable.quoted).joined(separator: ", ")))")
            try database.query("INSERT OR IGNORE INTO natural_key_checks (type, name) SELECT ?, _name FROM \(table.sqlName)", [.text(Model.recordType)])
        }
    }

    /// The columns' values of `key` in a record's stored fields; nil when one is missing or empty.
    static func values(of key: [String], in fields: RecordFields, table: ModelTable) -> [SQLiteValue]? {
        var values: [SQLiteValue] = []
        for name in key {
            guard let value = fields[name], let column = table.column(named: name)?.kind.column(value) else { return nil }
            if case .text(let text) = column, text.isEmpty { return nil }
            values.append(column)
        }
        return values
    }

    /// The other records of `owner` whose `key` has these values, by name.
    static func others(key: [String], values: [SQLiteValue], owner: String, excluding name: String, table: ModelTable, _ database: SQLiteDatabase) throws -> [String] {
        let condition = key.map { "\(ModelTable.quoted($0)) = ?" }.joined(separator: " AND ")
        return try database.query(
            "SELECT _name FROM \(table.sqlName) WHERE _owner = ? AND \(condition) AND _name != ? ORDER BY _name",
            [.text(StoredOwner.column(owner))] + values + [.text(name)]
        ).map { $0.text(0) }
    }

    /// Marks a record for the engine's check.
    static func mark(_ recordType: String, _ name: String, _ database: SQLiteDatabase) throws {
        try database.query("INSERT OR IGNORE INTO natural_key_checks (type, name) VALUES (?, ?)", [.text(recordType), .text(name)])
    }
}

/// A save the store refuses: the model would share a natural key with another record of its
/// owner, which the schema's `unique` makes one record. Edit that record instead.
public struct DuplicateNaturalKey: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model refused.
    public var recordType: String
    public var recordName: String
    /// The key's fields.
    public var key: [String]
    /// The stored record it would duplicate.
    public var existingRecordName: String

    /// A refusal of `recordName`, whose `key` equals that of `existingRecordName`.
    public init(recordType: String, recordName: String, key: [String], existingRecordName: String) {
        self.recordType = recordType
        self.recordName = recordName
        self.key = key
        self.existingRecordName = existingRecordName
    }

    public var description: String {
        "\(recordType) '\(recordName)' has the same \(key.joined(separator: " and ")) as '\(existingRecordName)', which the schema's unique key makes one record: edit '\(existingRecordName)' instead"
    }
}
