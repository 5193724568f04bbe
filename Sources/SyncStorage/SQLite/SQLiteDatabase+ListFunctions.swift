import CSQLite
import Foundation
import SyncCore

/// What a query needs to test a list's elements in SQL, where a list column keeps its values in
/// the store's binary form (`FieldsCodec`): two SQL functions every connection installs when it
/// opens, so a query with a list condition stays one SQL statement.
///
/// - `syncgen_list_holds(list, value)`: 1 when the list holds `value` (one value in the binary
///   form), compared as a query compares values (`QueryValueOrder`: text by its bytes, numbers as
///   numbers); 0 when it does not; NULL for a column with no list.
/// - `syncgen_list_references(list, name)`: 1 when the list holds a reference to the record of
///   that name (or the name as text); 0 when not; NULL for a column with no list.
extension SQLiteDatabase {
    package static let listHoldsFunction = "syncgen_list_holds"
    package static let listReferencesFunction = "syncgen_list_references"

    /// One value in the form `syncgen_list_holds` takes it.
    package static func listElement(_ value: SyncFieldValue) -> SQLiteValue {
        var fields = RecordFields()
        fields.append("", value)
        return .blob(FieldsCodec.encode(fields))
    }

    func installListFunctions() throws(SQLiteError) {
        for (name, function) in [(Self.listHoldsFunction, listHolds), (Self.listReferencesFunction, listReferences)] {
            let result = sqlite3_create_function_v2(handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, function, nil, nil, nil)
            guard result == SQLITE_OK else { throw SQLiteError(code: result, message: "cannot install \(name)") }
        }
    }
}

/// The list a column's value holds, or nil for NULL or a value that is not a list.
private func list(_ argument: OpaquePointer?) -> [SyncFieldValue]? {
    guard let argument, sqlite3_value_type(argument) == SQLITE_BLOB else { return nil }
    let count = Int(sqlite3_value_bytes(argument))
    let data = sqlite3_value_blob(argument).map { Data(bytes: $0, count: count) } ?? Data()
    guard let fields = try? FieldsCodec.decode(data), case .list(let items)? = fields.first(where: { _ in true })?.value else { return nil }
    return items
}

private let listHolds: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
    guard let items = list(arguments?[0]), let element = list(elementOf: arguments?[1]) else { return sqlite3_result_null(context) }
    sqlite3_result_int(context, items.contains { QueryValueOrder.compare($0, element) == 0 } ? 1 : 0)
}

/// The one value a `syncgen_list_holds` argument holds.
private func list(elementOf argument: OpaquePointer?) -> SyncFieldValue? {
    guard let argument, sqlite3_value_type(argument) == SQLITE_BLOB else { return nil }
    let count = Int(sqlite3_value_bytes(argument))
    let data = sqlite3_value_blob(argument).map { Data(bytes: $0, count: count) } ?? Data()
    return (try? FieldsCodec.decode(data))?.first(where: { _ in true })?.value
}

private let listReferences: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
    guard let items = list(arguments?[0]), let argument = arguments?[1], sqlite3_value_type(argument) == SQLITE_TEXT else { return sqlite3_result_null(context) }
    let count = Int(sqlite3_value_bytes(argument))
    let name = sqlite3_value_text(argument).map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
    let holds = items.contains { item in
        switch item {
        case .reference(let reference): reference.recordName == name
        case .string(let text): text == name
        default: false
        }
    }
    sqlite3_result_int(context, holds ? 1 : 0)
}
