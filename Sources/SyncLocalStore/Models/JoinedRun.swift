import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// A query's models each with the record a reference (or the parent) points at, in one SQL
/// statement: the query's own SQL with the target's table joined to it (`LEFT JOIN`, so a model
/// whose target is not stored comes with none). A query run in Swift reads its targets by name
/// once it has its models.
struct JoinedRun<Model: SyncModel, Target: SyncModel> {
    let query: Query<Model>
    let database: SQLiteDatabase
    let table: ModelTable
    /// The column holding the target's record name: the reference's, or `_parent`.
    let column: String
    /// The target's record name a model holds.
    let targetName: (Model) -> String?

    func rows() throws -> [Joined<Model, Target>] {
        let run = QueryRun(query: query, database: database, table: table)
        let reader = StoreReader(database: database, table: table)
        guard let targets = try ModelTables.load(Target.recordType, database) else {
            return try run.models().map { Joined(model: $0, target: nil) }
        }
        let targetReader = StoreReader(database: database, table: targets)
        guard let sql = try run.sql() else {
            let models = try run.models()
            let names = Set(models.compactMap(targetName))
            let found = Dictionary(try targetReader.fetchWithModified(Target.self, recordNames: Array(names)).map { ($0.model.recordName, $0.model) }, uniquingKeysWith: { first, _ in first })
            return models.map { model in Joined(model: model, target: targetName(model).flatMap { found[$0] }) }
        }
        // The target's columns renamed apart (`_t` and their names: a field's name starts with a
        // letter), so the query's own SQL names the model's columns as it always does, and SQLite
        // reads each target by its primary key, in the query's order.
        let names = ModelTable.runtimeColumns + targets.columns.map(\.name)
        let renamed = names.map { "\(ModelTable.quoted($0)) AS \(ModelTable.quoted("_t" + $0))" }.joined(separator: ", ")
        let statement = """
            SELECT \(table.selectList), _target.* FROM \(table.sqlName) \(sql.join)
            LEFT JOIN (SELECT \(renamed) FROM \(targets.sqlName)) AS _target ON _target."_t_name" = \(table.sqlName).\(column)
            \(sql.filter) \(sql.order) \(sql.page)
            """
        let targetOffset = ModelTable.runtimeColumns.count + table.columns.count
        var (modelRows, targetRows) = (reader.rows(of: Model.self), targetReader.rows(of: Target.self, at: targetOffset))
        // Each side read as SQLite steps into an array of its own type, by the model's own code
        // (`SyncModel.appendStoredRow`), and paired once all are read, by index: this code is
        // not compiled for the types, and a pair made at each row (or a `zip`) looked their
        // generic types up again each time, a third of the read.
        var models: [Model] = [], targetModels: [Target] = [], targetPlaces: [Int] = []
        try database.forEachRow(statement, sql.arguments) { row throws(SQLiteError) in
            try modelRows.append(row, to: &models)
            if row.isNull(Int32(targetOffset)) {
                targetPlaces.append(-1)
            } else {
                try targetRows.append(row, to: &targetModels)
                targetPlaces.append(targetModels.count - 1)
            }
        }
        var rows: [Joined<Model, Target>] = []
        rows.reserveCapacity(models.count)
        for index in models.indices {
            let place = targetPlaces[index]
            rows.append(Joined(model: models[index], target: place < 0 ? nil : targetModels[place]))
        }
        return rows
    }
}
