import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// The store's model tables: their catalog (`model_tables`, `model_columns`), how a model's table
/// is made and grown from its field table, and the store of the layout before them moved in.
enum ModelTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("models", sql: """
            -- A table per model type, named model_<record type>, and the columns of each: what a row
            -- reads back into without the Swift type.
            CREATE TABLE IF NOT EXISTS model_tables (type TEXT PRIMARY KEY);
            CREATE TABLE IF NOT EXISTS model_columns (
                type TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, position INTEGER NOT NULL,
                PRIMARY KEY (type, name));
            """),
        // Models of one table, their fields in a blob: each type moves to a table of its own.
        DatabaseMigrator.Step("models.tablePerType", moveLegacyModels),
        // The owner index only where it is worth something: rows of other owners (shared zones).
        DatabaseMigrator.Step("models.ownerIndexOfOthers") { database in
            for recordType in try recordTypes(database) {
                try database.execute("DROP INDEX IF EXISTS \(index(recordType, "owner"))")
                try database.execute("CREATE INDEX \(index(recordType, "owner")) ON \(ModelTable.sqlName(recordType)) (_owner) WHERE _owner != '__defaultOwner__'")
            }
        },
        // The user's own rows keep no owner's name (`StoredOwner`), and the index of
        // others' rows says so.
        DatabaseMigrator.Step("models.ownRowsKeepNoOwnerName") { database in
            for recordType in try recordTypes(database) {
                try database.query("UPDATE \(ModelTable.sqlName(recordType)) SET _owner = '' WHERE _owner = ?", [.text(SyncConstants.currentUserOwnerName)])
                try database.execute("DROP INDEX IF EXISTS \(index(recordType, "owner"))")
                try database.execute(ownerIndex(recordType))
            }
        },
    ]

    /// An index of the rows of other owners than the user: most rows are the user's own, and an
    /// index of one value for all of them would take a tenth of the file to say nothing a scan
    /// of the table does not. A query for another owner says `_owner != ''` too (`othersOnly`),
    /// so SQLite knows the index holds its rows.
    static func ownerIndex(_ recordType: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(index(recordType, "owner")) ON \(ModelTable.sqlName(recordType)) (_owner) WHERE \(othersOnly)"
    }

    /// The rows of other owners than the user (whose rows keep '': `StoredOwner`).
    static let othersOnly = "_owner != ''"

    /// The table of a record type as this transaction sees the catalog, or nil if the store never
    /// held one of the type.
    static func load(_ recordType: String, _ database: SQLiteDatabase) throws -> ModelTable? {
        guard try !database.query("SELECT 1 FROM model_tables WHERE type = ?", [.text(recordType)]).isEmpty else { return nil }
        let columns = try database.query("SELECT name, kind FROM model_columns WHERE type = ? ORDER BY position", [.text(recordType)]).map { row in
            // A kind this version does not know (a later one wrote it) is read as its binary form.
            ModelTable.Column(name: row.text(0), kind: ModelTable.Kind(storedValue: row.text(1)) ?? .form(.encoded))
        }
        return ModelTable(recordType: recordType, columns: columns)
    }

    /// Every record type with a table.
    static func recordTypes(_ database: SQLiteDatabase) throws -> [String] {
        try database.query("SELECT type FROM model_tables ORDER BY type").map { $0.text(0) }
    }

    /// The table of a record type, created (with the runtime's columns only) if missing.
    static func ensure(recordType: String, _ database: SQLiteDatabase) throws -> ModelTable {
        if let table = try load(recordType, database) { return table }
        let name = ModelTable.sqlName(recordType)
        try database.execute("""
            CREATE TABLE \(name) (_name TEXT PRIMARY KEY, _owner TEXT NOT NULL, _parent TEXT, _modified REAL NOT NULL, _extra BLOB);
            \(ownerIndex(recordType));
            CREATE INDEX \(index(recordType, "parent")) ON \(name) (_parent) WHERE _parent IS NOT NULL;
            """)
        try database.query("INSERT INTO model_tables (type) VALUES (?)", [.text(recordType)])
        try AssetCacheBookkeeping.watchDeletions(of: recordType, database)
        return ModelTable(recordType: recordType, columns: [])
    }

    /// The model's table, with a column for each of its fields: created, or grown by the fields
    /// it lacks (each with the field's default for the rows already there, and the values rows
    /// kept beside their fields moved into it). A column of a field the model no longer has
    /// stays, with its values.
    static func ensure<Model: SyncModel>(_ type: Model.Type, _ database: SQLiteDatabase) throws -> ModelTable {
        var table = try ensure(recordType: Model.recordType, database)
        let known = Set(table.columns.map(\.name))
        let added = Model.fieldDescriptors.filter { !known.contains($0.name) }
        if !added.isEmpty { try grow(&table, by: added, of: type, database) }
        // The schema's indexes, whenever the model meets its table: one a later schema adds to a
        // field is made then.
        // Each ends with the record name, a query's last sort key: a query sorted by the field
        // reads its rows in order from the index, ties and all, without sorting them.
        for field in Model.fieldDescriptors where field.isIndexed {
            try database.execute("CREATE INDEX IF NOT EXISTS \(index(Model.recordType, field.name)) ON \(table.sqlName) (\(ModelTable.quoted(field.name)), _name)")
        }
        try NaturalKeys.ensureIndexes(type, table: table, database)
        try SearchIndexes.ensure(type, table: table, database)
        return table
    }

    /// Adds a column for each of `added`, with the field's default for the rows already there.
    private static func grow<Model: SyncModel>(_ table: inout ModelTable, by added: [FieldDescriptor], of type: Model.Type, _ database: SQLiteDatabase) throws {
        let defaults = Model(emptyRecordNamed: "", ownerName: "").encodeStoredFields()
        for field in added {
            let kind = ModelTable.Kind(field.type)
            let defaultValue = defaults[field.name].flatMap(kind.column).map { " DEFAULT " + literal($0) } ?? ""
            try database.execute("ALTER TABLE \(table.sqlName) ADD COLUMN \(ModelTable.quoted(field.name)) \(kind.sqlType)\(defaultValue)")
            try database.query("INSERT INTO model_columns (type, name, kind, position) VALUES (?, ?, ?, ?)",
                [.text(Model.recordType), .text(field.name), .text(kind.storedValue), .integer(Int64(table.columns.count))])
            table = table.adding(ModelTable.Column(name: field.name, kind: kind))
            if case .reference = kind {
                try database.execute("CREATE INDEX IF NOT EXISTS \(index(Model.recordType, field.name)) ON \(table.sqlName) (\(ModelTable.quoted(field.name)))")
            }
        }
        try promote(Set(added.map(\.name)), of: type, in: &table, database)
    }

    /// Moves the values of the newly added columns `names` kept in `_extra` into them, and the
    /// values of fields the model does not have (a dropped field of a store of the layout before)
    /// into columns of their own, so that `_extra` holds only what the model keeps beside its
    /// fields, which its saves rewrite.
    private static func promote<Model: SyncModel>(_ names: Set<String>, of type: Model.Type, in table: inout ModelTable, _ database: SQLiteDatabase) throws {
        let rows = try database.query("SELECT \(table.selectList) FROM \(table.sqlName) WHERE _extra IS NOT NULL")
        guard !rows.isEmpty else { return }
        let owned = Set(Model.storedKeys)
        var moves: [(row: StoredRow, extra: RecordFields)] = []
        var foreign: [String: ModelTable.Kind] = [:]
        for row in rows {
            let stored = try table.record(row)
            let extra = try FieldsCodec.decode(row.blob(4))
            for (key, value) in extra where !owned.contains(key) {
                let kind = ModelTable.Kind(of: value)
                foreign[key] = foreign[key].map { $0 == kind ? kind : .form(.encoded) } ?? kind
            }
            if extra.names.contains(where: { names.contains($0) || !owned.contains($0) }) { moves.append((stored, extra)) }
        }
        for (key, kind) in foreign.sorted(by: { $0.key < $1.key }) where !table.columns.contains(where: { $0.name == key }) {
            try database.execute("ALTER TABLE \(table.sqlName) ADD COLUMN \(ModelTable.quoted(key)) \(kind.sqlType)")
            try database.query("INSERT INTO model_columns (type, name, kind, position) VALUES (?, ?, ?, ?)",
                [.text(table.recordType), .text(key), .text(kind.storedValue), .integer(Int64(table.columns.count))])
            table = table.adding(ModelTable.Column(name: key, kind: kind))
        }
        for (stored, extra) in moves {
            // The value kept beside the fields is the record's: a new column's default is not.
            var fields = stored.fields
            for (key, value) in extra where names.contains(key) || !owned.contains(key) { fields[key] = value }
            try table.write(name: stored.name, owner: stored.owner, parent: stored.parent, modified: stored.modified, fields: fields, to: database)
        }
    }

    /// Drops the columns of fields the model no longer has, with their values: what the app
    /// asks for once it no longer needs them (`SyncStore.discardDroppedFields(of:)`). Returns
    /// the names dropped.
    static func discardDroppedFields<Model: SyncModel>(of type: Model.Type, _ database: SQLiteDatabase) throws -> [String] {
        let table = try ensure(type, database)
        let current = Set(Model.fieldDescriptors.map(\.name))
        let dropped = table.columns.map(\.name).filter { !current.contains($0) }
        for name in dropped {
            try database.execute("DROP INDEX IF EXISTS \(index(Model.recordType, name))")
            try database.execute("ALTER TABLE \(table.sqlName) DROP COLUMN \(ModelTable.quoted(name))")
            try database.query("DELETE FROM model_columns WHERE type = ? AND name = ?", [.text(Model.recordType), .text(name)])
        }
        return dropped
    }

    /// Moves the models of a store of the layout before (one `models` table, each record's
    /// fields in one blob) into tables of their types, blob and all, as `_extra`: nothing is
    /// rewritten, so nothing can be lost. A model's fields move into their columns when its
    /// table first meets the model (`ensure(_:)`). The parent goes into `_parent`, where cascades
    /// and children's queries look for it: from the old row's column, or, where that is empty,
    /// from the parent reference its fields kept.
    static func moveLegacyModels(_ database: SQLiteDatabase) throws {
        guard try database.tableExists("models") else { return }
        for recordType in try database.query("SELECT DISTINCT type FROM models").map({ $0.text(0) }) {
            let table = try ensure(recordType: recordType, database)
            try database.query(
                "INSERT INTO \(table.sqlName) (_name, _owner, _parent, _modified, _extra) SELECT name, owner, parent, modified, fields FROM models WHERE type = ?",
                [.text(recordType)])
            for row in try database.query("SELECT _name, _extra FROM \(table.sqlName) WHERE _parent IS NULL AND _extra IS NOT NULL") {
                guard case .reference(let parent)? = try FieldsCodec.decode(row.blob(1))[RecordFieldNames.storedParent] else { continue }
                try database.query("UPDATE \(table.sqlName) SET _parent = ? WHERE _name = ?", [.text(parent.recordName), .text(row.text(0))])
            }
        }
        try database.execute("DROP TABLE models")
    }

    private static func index(_ recordType: String, _ column: String) -> String {
        "\"model_\(recordType)_by_\(column)\""
    }

    /// A value as an SQL literal, for a column's default.
    private static func literal(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): number.isFinite ? "\(number)" : "NULL"
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
