import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// A grouped query's figures on one connection: in SQL (`GROUP BY` over the query's own SQL)
/// when every part has an SQL form, otherwise computed in Swift over the models the query keeps,
/// with the same answers: a sum of integers exact (an overflow throws, as SQLite's `sum` does),
/// a sum of doubles SQLite's `total`, an average or an extreme of no value nil, groups ordered
/// by the figures asked, then by key (no value first).
struct AggregateRun<Model: SyncModel, Key: Hashable & Sendable> {
    let grouped: GroupedQuery<Model, Key>
    let database: SQLiteDatabase
    let table: ModelTable

    func groups() throws -> [AggregateGroup<Model, Key>] {
        let run = QueryRun(query: grouped.query, database: database, table: table)
        if let sql = try sql(run) { return try fromSQL(sql) }
        return try inSwift(try run.models())
    }

    // MARK: - SQL

    private struct Statement {
        let sql: String
        let arguments: [SQLiteValue]
        /// How each figure's column is read back: by the field's column kind (an extreme) or as
        /// the number SQLite computed.
        let kinds: [ModelTable.Kind?]
        let keyKind: ModelTable.Kind?
    }

    private func sql(_ run: QueryRun<Model>) throws -> Statement? {
        guard let query = try run.sql() else { return nil }
        var figures: [String] = []
        var kinds: [ModelTable.Kind?] = []
        for figure in grouped.figures {
            guard let (sql, kind) = figureSQL(figure.function, figure.field) else { return nil }
            figures.append("\(sql) AS _figure\(figures.count)")
            kinds.append(kind)
        }
        var key = "NULL"
        var keyKind: ModelTable.Kind?
        switch grouped.grouping {
        case .all: break
        case .parent: (key, keyKind) = ("_parent", .form(.text))
        case .field(let field):
            guard let column = QuerySQL.column(field, of: Model.self, in: table), column.kind != .form(.encoded) else { return nil }
            (key, keyKind) = (column.sql, column.kind)
        }
        var order: [String] = grouped.order.map { order, direction in
            let column = switch order {
            case .key: "_key"
            case .figure(let id): "_figure\(grouped.figures.firstIndex { $0.id == id } ?? 0)"
            }
            return "\(column) \(direction == .ascending ? "ASC" : "DESC")"
        }
        order.append("_key ASC")
        var arguments = query.arguments
        var page = ""
        if grouped.limit != nil || grouped.offset > 0 {
            page = "LIMIT ? OFFSET ?"
            arguments += [.integer(Int64(grouped.limit ?? -1)), .integer(Int64(grouped.offset))]
        }
        // The models' order matters only to choose a page of them: without one, SQLite need not sort.
        let models = "SELECT \(table.sqlName).* FROM \(table.sqlName) \(query.join) \(query.filter) \(query.page.isEmpty ? "" : query.order) \(query.page)"
        let groupBy = keyKind == nil ? "" : "GROUP BY _key"
        let sql = "SELECT \(key) AS _key\(figures.map { ", " + $0 }.joined()) FROM (\(models)) \(groupBy) ORDER BY \(order.joined(separator: ", ")) \(page)"
        return Statement(sql: sql, arguments: arguments, kinds: kinds, keyKind: keyKind)
    }

    /// A figure in SQL, and the kind its result reads as (nil: a number as SQLite computed it).
    private func figureSQL(_ function: AggregateFunction, _ field: QueryPredicate<Model>.Field?) -> (String, ModelTable.Kind?)? {
        guard let field else { return ("COUNT(*)", nil) }
        guard let column = QuerySQL.column(field, of: Model.self, in: table), column.kind != .form(.encoded), column.kind != .form(.bytes) else { return nil }
        switch function {
        case .count: return ("COUNT(*)", nil)
        case .sum: return (column.kind == .form(.integer) ? "SUM(\(column.sql))" : "TOTAL(\(column.sql))", nil)
        case .average: return ("AVG(\(column.sql))", nil)
        case .minimum: return ("MIN(\(column.sql))", column.kind)
        case .maximum: return ("MAX(\(column.sql))", column.kind)
        }
    }

    private func fromSQL(_ statement: Statement) throws -> [AggregateGroup<Model, Key>] {
        try database.query(statement.sql, statement.arguments).map { row in
            var figures: [AggregateID: SyncFieldValue?] = [:]
            for (index, figure) in grouped.figures.enumerated() {
                let column = Int32(index + 1)
                figures[figure.id] = try statement.kinds[index].map { try $0.value(row, column) } ?? Self.number(row.value(column))
            }
            return AggregateGroup(key: grouped.key(try statement.keyKind.flatMap { try $0.value(row, 0) }), figures: figures)
        }
    }

    private static func number(_ value: SQLiteValue) -> SyncFieldValue? {
        switch value {
        case .integer(let number): .int64(number)
        case .real(let number): .double(number)
        default: nil
        }
    }

    // MARK: - Swift

    private func inSwift(_ models: [Model]) throws -> [AggregateGroup<Model, Key>] {
        var members: [SyncFieldValue?: [Model]] = [:]
        var keys: [SyncFieldValue?] = []
        if case .all = grouped.grouping { (members, keys) = ([nil: models], [nil]) }
        for model in models {
            let key: SyncFieldValue? = switch grouped.grouping {
            case .all: nil
            case .parent: model.parentRecordName.map { .string($0) }
            case .field(let field): field.value(model)
            }
            if case .all = grouped.grouping { continue }
            if members[key] == nil { keys.append(key) }
            members[key, default: []].append(model)
        }
        var rows: [(key: SyncFieldValue?, figures: [SyncFieldValue?])] = []
        for key in keys {
            let group = members[key] ?? []
            rows.append((key, try grouped.figures.map { try Self.figure($0.function, $0.field, over: group) }))
        }
        rows.sort { left, right in
            for (order, direction) in grouped.order {
                let (a, b): (SyncFieldValue?, SyncFieldValue?) = switch order {
                case .key: (left.key, right.key)
                case .figure(let id):
                    (left.figures[grouped.figures.firstIndex { $0.id == id } ?? 0], right.figures[grouped.figures.firstIndex { $0.id == id } ?? 0])
                }
                let compared = QueryValueOrder.noneFirst(a, b)
                if compared != 0 { return direction == .ascending ? compared < 0 : compared > 0 }
            }
            return QueryValueOrder.noneFirst(left.key, right.key) < 0
        }
        let page = rows.dropFirst(grouped.offset).prefix(grouped.limit ?? Int.max)
        return page.map { row in
            AggregateGroup(key: grouped.key(row.key), figures: Dictionary(uniqueKeysWithValues: zip(grouped.figures.map(\.id), row.figures)))
        }
    }

    /// A figure of a group's models, as SQLite computes it.
    private static func figure(_ function: AggregateFunction, _ field: QueryPredicate<Model>.Field?, over models: [Model]) throws -> SyncFieldValue? {
        guard let field, function != .count else { return .int64(Int64(models.count)) }
        let values = models.compactMap { field.value($0) }
        switch function {
        case .count:
            return .int64(Int64(models.count))
        case .sum:
            if values.allSatisfy({ if case .int64 = $0 { true } else { false } }) {
                guard !values.isEmpty else { return nil }
                var total: Int64 = 0
                for case .int64(let number) in values {
                    let (sum, overflow) = total.addingReportingOverflow(number)
                    if overflow { throw SQLiteError(code: 1, message: "integer overflow") }
                    total = sum
                }
                return .int64(total)
            }
            return .double(values.reduce(0) { $0 + (AggregateNumber.of($1) ?? 0) })
        case .average:
            let numbers = values.compactMap(AggregateNumber.of)
            return numbers.isEmpty ? nil : .double(numbers.reduce(0, +) / Double(numbers.count))
        case .minimum, .maximum:
            return values.min { left, right in
                let order = QueryValueOrder.compare(left, right) ?? 0
                return function == .minimum ? order < 0 : order > 0
            }
        }
    }
}
