import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

/// A query's predicate as an SQL condition over its model's table (`QuerySQL`'s `WHERE`), and
/// the arguments it binds, in order. Nil for a node with no SQL form here: the query then runs in
/// Swift over the rows.
///
/// `exact`: under a `NOT`, where a comparison with NULL must be false rather than NULL
/// (`COALESCE`); elsewhere a WHERE drops a NULL as it drops a false, and a bare comparison lets
/// SQLite use the column's index.
struct QueryCondition<Model: SyncModel> {
    let table: ModelTable
    /// The table of another record type, for a condition on related records; nil when the store
    /// holds none of the type.
    let tables: (String) -> ModelTable?
    var arguments: [SQLiteValue]

    mutating func sql(_ node: QueryPredicate<Model>.Node, exact: Bool) -> String? {
        switch node {
        case .compare(let field, let comparison, let target):
            return compare(field, comparison, target, exact: exact)
        case .isNil(let field):
            guard let column = column(field) else { return nil }
            return "\(column.sql) IS NULL"
        case .isIn(let field, let targets):
            return isIn(field, targets, exact: exact)
        case .hasPrefix(let field, let prefix):
            guard let column = textColumn(field) else { return nil }
            // Every text starts with nothing (and SQLite's substr of an empty blob is NULL).
            guard !prefix.isEmpty else { return guarded("\(column) IS NOT NULL", exact: exact) }
            // A prefix of bytes is a prefix of characters: UTF-8 never splits one. Compared as
            // bytes: SQLite's text functions stop at a NUL, which a string may hold.
            let bytes = Data(prefix.utf8)
            arguments += [.integer(Int64(bytes.count)), .blob(bytes)]
            return guarded("substr(CAST(\(column) AS BLOB), 1, ?) = ?", exact: exact)
        case .contains(let field, let part):
            guard let column = textColumn(field) else { return nil }
            // Every text contains nothing (and SQLite's instr of an empty blob is NULL).
            guard !part.isEmpty else { return guarded("\(column) IS NOT NULL", exact: exact) }
            // Bytes within bytes are characters within characters (UTF-8 is self-synchronizing).
            arguments.append(.blob(Data(part.utf8)))
            return guarded("instr(CAST(\(column) AS BLOB), ?) > 0", exact: exact)
        case .references(let field, let recordName):
            guard let column = column(field) else { return nil }
            let test: String
            switch column.kind {
            case .reference: test = "\(column.sql) = ?"
            case .form(.encoded): test = "\(SQLiteDatabase.listReferencesFunction)(\(column.sql), ?)"
            default: return nil
            }
            arguments.append(.text(recordName))
            return guarded(test, exact: exact)
        case .holds(let field, let element):
            guard let column = column(field), column.kind == .form(.encoded) else { return nil }
            arguments.append(SQLiteDatabase.listElement(element))
            return guarded("\(SQLiteDatabase.listHoldsFunction)(\(column.sql), ?)", exact: exact)
        case .isChild(let parent):
            arguments.append(.text(parent))
            return guarded("_parent = ?", exact: exact)
        case .authoredBy(let role, let user):
            // The person from the record's server version; the signed-in user for a record the
            // cloud has not seen (`RecordAuthorship.notYetInTheCloud`), so never NULL.
            arguments += [.text(SyncConstants.currentUserOwnerName), .text(user)]
            return "COALESCE((\(RecordAuthorshipSQL.person(role))), ?) = ?"
        case .related(let condition):
            var writer: any RelatedConditionWriter = self
            guard let related = condition.sql(&writer, Model.self), let writer = writer as? Self else { return nil }
            arguments = writer.arguments
            return guarded(related, exact: exact)
        case .and(let left, let right):
            guard let left = sql(left, exact: exact), let right = sql(right, exact: exact) else { return nil }
            return "(\(left) AND \(right))"
        case .or(let left, let right):
            guard let left = sql(left, exact: exact), let right = sql(right, exact: exact) else { return nil }
            return "(\(left) OR \(right))"
        case .not(let inner):
            guard let inner = sql(inner, exact: true) else { return nil }
            return "(NOT \(inner))"
        }
    }

    // MARK: - Comparisons

    private mutating func compare(_ field: QueryPredicate<Model>.Field, _ comparison: QueryPredicate<Model>.Comparison, _ target: SyncFieldValue, exact: Bool) -> String? {
        guard let bound = value(field, target), let column = columnSQL(field, orderable: comparison != .equal) else { return nil }
        let op = switch comparison {
        case .equal: "="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
        arguments.append(bound)
        return guarded("\(column) \(op) ?", exact: exact)
    }

    private mutating func isIn(_ field: QueryPredicate<Model>.Field, _ targets: [SyncFieldValue], exact: Bool) -> String? {
        let bound = targets.map { value(field, $0) }
        guard !bound.contains(where: { $0 == nil }) else { return nil }
        guard !bound.isEmpty else { return "0" }
        guard let column = columnSQL(field) else { return nil }
        arguments += bound.compactMap { $0 }
        return guarded("\(column) IN (\(Array(repeating: "?", count: bound.count).joined(separator: ", ")))", exact: exact)
    }

    /// A comparison of a column, two-valued under a `NOT` (`exact`).
    private func guarded(_ comparison: String, exact: Bool) -> String {
        exact ? "COALESCE(\(comparison), 0)" : comparison
    }

    // MARK: - Columns and values

    private func column(_ field: QueryPredicate<Model>.Field) -> ModelTable.Column? {
        QuerySQL.column(field, of: Model.self, in: table)
    }

    /// The field's column as SQL; nil when it has none, or cannot be ordered and must be (a
    /// value kept in binary form).
    private func columnSQL(_ field: QueryPredicate<Model>.Field, orderable: Bool = false) -> String? {
        guard let column = column(field), !(orderable && column.kind == .form(.encoded)) else { return nil }
        return column.sql
    }

    /// The field's column as SQL when it holds text.
    private func textColumn(_ field: QueryPredicate<Model>.Field) -> String? {
        guard let column = column(field), column.kind == .form(.text) else { return nil }
        return column.sql
    }

    /// `value` as the field's column holds it. A number compares with an integer or a real
    /// column as a number.
    private func value(_ field: QueryPredicate<Model>.Field, _ value: SyncFieldValue) -> SQLiteValue? {
        guard let column = column(field) else { return nil }
        switch (column.kind, value) {
        case (.form(.real), .int64(let number)): return .real(Double(number))
        case (.form(.integer), .double(let number)): return .real(number)
        case (.reference(_), .string(let name)): return .text(name)
        case (.reference(_), .reference(let reference)): return .text(reference.recordName)
        default: return column.kind.column(value)
        }
    }
}

// MARK: - Related records

extension QueryCondition: RelatedConditionWriter {
    /// `column IN (SELECT _name FROM target WHERE ...)`: a reference, or the parent, pointing at
    /// a record the target's condition keeps; for a list of references, whether one of them does.
    mutating func referenced<Owner: SyncModel, Target: SyncModel>(_ field: QueryPredicate<Owner>.Field, of model: Owner.Type, by target: QueryPredicate<Target>) -> String? {
        guard let (column, isList) = table.referenceColumn(field.keyPath, of: Owner.self) else { return nil }
        // No record of the type is stored: no reference points at one.
        guard let targets = tables(Target.recordType) else { return "0" }
        var inner = QueryCondition<Target>(table: targets, tables: tables, arguments: arguments)
        guard let condition = inner.sql(target.node, exact: false) else { return nil }
        arguments = inner.arguments
        guard isList else { return "\(column) IN (SELECT _name FROM \(targets.sqlName) WHERE \(condition))" }
        // A list holds one of the targets: the target's table aliased, the list the model's own.
        return "EXISTS (SELECT 1 FROM \(targets.sqlName) AS _target WHERE \(condition) AND \(SQLiteDatabase.listReferencesFunction)(\(table.sqlName).\(column), _target._name))"
    }

    /// `EXISTS (...)`, or `(SELECT COUNT(*) ...) >= n`, over the other type's rows that point at
    /// the model's row (their reference's column, or their parent) and that its condition keeps.
    /// The other table is aliased, so the model's own table (even of the same type) is named
    /// apart.
    mutating func referencing<Owner: SyncModel, Other: SyncModel>(
        _ model: Owner.Type, from other: Other.Type, through keyPath: AnyKeyPath, where predicate: QueryPredicate<Other>?, atLeast count: Int
    ) -> String? {
        guard let others = tables(Other.recordType) else { return "0" }
        guard let (column, isList) = others.referenceColumn(keyPath, of: Other.self) else { return nil }
        var condition = isList
            ? "\(SQLiteDatabase.listReferencesFunction)(_related.\(column), \(table.sqlName)._name)"
            : "_related.\(column) = \(table.sqlName)._name"
        if let predicate {
            var inner = QueryCondition<Other>(table: others, tables: tables, arguments: arguments)
            guard let other = inner.sql(predicate.node, exact: false) else { return nil }
            arguments = inner.arguments
            condition += " AND \(other)"
        }
        let rows = "FROM \(others.sqlName) AS _related WHERE \(condition)"
        guard count > 1 else { return "EXISTS (SELECT 1 \(rows))" }
        arguments.append(.integer(Int64(count)))
        return "(SELECT COUNT(*) \(rows)) >= ?"
    }
}
