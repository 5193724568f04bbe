import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

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

    /// Up to `limit` models whose record names come after `after` (from the first when nil), in
    /// record-name order: one page of a walk.
    func page<Model: SyncModel>(_ type: Model.Type, after: String?, limit: Int) throws -> [Model] {
        guard let after else {
            return try models(type, "SELECT \(table.modelSelectList) FROM \(table.sqlName) ORDER BY _name LIMIT ?", [.integer(Int64(limit))])
        }
        return try models(type, "SELECT \(table.modelSelectList) FROM \(table.sqlName) WHERE _name > ? ORDER BY _name LIMIT ?", [.text(after), .integer(Int64(limit))])
    }

    /// The models a query's SQL selects.
    func fetch<Model: SyncModel>(_ type: Model.Type, _ query: QuerySQL) throws -> [Model] {
        try models(type, "SELECT \(table.modelSelectList) FROM \(table.sqlName) \(query.join) \(query.filter) \(query.order) \(query.page)", query.arguments)
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

    /// Appends each model the SQL selects to `models`, and hands `body` its row.
    private func appendModels<Model: SyncModel>(
        _ type: Model.Type, _ sql: String, _ arguments: [SQLiteValue], to models: inout [Model], _ body: (SQLiteRow) -> Void = { _ in }
    ) throws {
        var reader = rows(of: type)
        try database.forEachRow(sql, arguments) { row throws(SQLiteError) in
            try reader.append(row, to: &models)
            body(row)
        }
    }

    /// A reader of the models in rows whose columns, from `offset` on, are this table's
    /// `selectList` (or `modelSelectList`), made once for all the rows of a statement.
    func rows<Model: SyncModel>(of type: Model.Type, at offset: Int = 0) -> RowReader {
        RowReader(reader: self, columns: fieldColumns(type), shift: Int32(offset))
    }

    /// Reads the model in each row: straight from its columns by the model's own code when it
    /// can be (`fieldColumns`, and nothing kept beside them in `_extra`), otherwise through its
    /// stored fields. Made for one model type (`rows(of:)`), and read for that type alone: not a
    /// generic type, so that code not compiled for the model reaches its properties directly.
    struct RowReader {
        let reader: StoreReader
        let columns: [FieldColumn]?
        let shift: Int32
        // Most rows share one owner: the models share its string's storage rather than each
        // holding a copy (an owner name is longer than Swift keeps inline).
        private var owner = (stored: "", name: StoredOwner.name(""))

        init(reader: StoreReader, columns: [FieldColumn]?, shift: Int32) {
            self.reader = reader
            self.columns = columns
            self.shift = shift
        }

        /// The row's model, appended to `models` (no copy of it between).
        mutating func append<Model: SyncModel>(_ row: SQLiteRow, to models: inout [Model]) throws(SQLiteError) {
            do {
                guard let columns, row.isNull(shift + ModelTable.extraColumn) else {
                    return models.append(try reader.model(Model.self, try reader.table.record(row, offset: Int(shift))))
                }
                let (ownerName, shift) = (self.ownerName(row), self.shift)
                try columns.withUnsafeBufferPointer { columns in
                    try Model.appendStoredRow(named: row.text(shift), ownerName: ownerName, { try columns[$0].kind.value(row, columns[$0].place + shift) }, to: &models)
                }
            } catch {
                throw unreadable(Model.self, row, error)
            }
        }

        private func unreadable<Model: SyncModel>(_ type: Model.Type, _ row: SQLiteRow, _ error: any Error) -> SQLiteError {
            SQLiteError(code: -1, message: "stored \(Model.recordType) '\(row.text(shift))' cannot be read: \(error)")
        }

        private mutating func ownerName(_ row: SQLiteRow) -> String {
            let stored = row.text(shift + 1)
            if stored != owner.stored { owner = (stored, StoredOwner.name(stored)) }
            return owner.name
        }
    }

    /// Each of the model's fields' column (in `storedKeys` order, with its place in a selected
    /// row), when the model's rows can be read straight from their columns: every field a plain
    /// value with a column of its own (the parent's is `_parent`).
    private func fieldColumns<Model: SyncModel>(_ type: Model.Type) -> [FieldColumn]? {
        guard Model.storesPlainValues else { return nil }
        var columns: [FieldColumn] = []
        var next = 0
        for key in Model.storedKeys {
            if key == RecordFieldNames.storedParent {
                columns.append(FieldColumn(kind: .reference(ModelTable.parentAction), place: ModelTable.parentColumn))
                continue
            }
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
