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

    /// Appends each model the SQL selects to `models`, and hands `body` its row. A row is read
    /// straight from its columns by the model's own code when it can be (`fieldColumns`, and
    /// nothing kept beside them in `_extra`), otherwise through its stored fields.
    private func appendModels<Model: SyncModel>(
        _ type: Model.Type, _ sql: String, _ arguments: [SQLiteValue], to models: inout [Model], _ body: (SQLiteRow) -> Void = { _ in }
    ) throws {
        let columns = fieldColumns(type)
        // Most rows share one owner: the models share its string's storage rather than each
        // holding a copy (an owner name is longer than Swift keeps inline).
        var (stored, owner) = ("", StoredOwner.name(""))
        try database.forEachRow(sql, arguments) { row throws(SQLiteError) in
            do {
                if let columns, row.isNull(ModelTable.extraColumn) {
                    let rowOwner = row.text(1)
                    if rowOwner != stored { (stored, owner) = (rowOwner, StoredOwner.name(rowOwner)) }
                    try columns.withUnsafeBufferPointer { columns in
                        try Model.appendStoredRow(named: row.text(0), ownerName: owner, { try columns[$0].kind.value(row, columns[$0].place) }, to: &models)
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

    /// The model in a row whose columns, from `offset` on, are this table's `selectList`: read
    /// straight from its columns when it can be, as `appendModels` reads one.
    func model<Model: SyncModel>(_ type: Model.Type, _ row: SQLiteRow, at offset: Int) throws -> Model {
        if let columns = fieldColumns(type), row.isNull(Int32(offset) + ModelTable.extraColumn) {
            var models: [Model] = []
            models.reserveCapacity(1)
            let shift = Int32(offset)
            try columns.withUnsafeBufferPointer { columns in
                try Model.appendStoredRow(
                    named: row.text(shift), ownerName: StoredOwner.name(row.text(shift + 1)), { try columns[$0].kind.value(row, columns[$0].place + shift) }, to: &models)
            }
            return models[0]
        }
        return try model(type, try table.record(row, offset: offset))
    }

    /// The model a row read from this table holds.
    func model<Model: SyncModel>(_ type: Model.Type, _ stored: StoredRow) throws -> Model {
        var model = Model(emptyRecordNamed: stored.name, ownerName: stored.owner)
        let record = SyncRecord(recordType: type.recordType, id: RecordID(recordName: stored.name, zoneID: ZoneID(zoneName: "", ownerName: stored.owner)), fields: stored.fields)
        try model.applyStoredFields(from: record)
        return model
    }
}
