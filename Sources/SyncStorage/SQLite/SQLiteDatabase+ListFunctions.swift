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

    /// One value in the form `syncgen_list_holds` takes it: as a list column keeps one.
    package static func listElement(_ value: SyncFieldValue) -> SQLiteValue {
        .blob(FieldsCodec.encode(value: value))
    }

    func installListFunctions() throws(SQLiteError) {
        for (name, function) in [(Self.listHoldsFunction, listHolds), (Self.listReferencesFunction, listReferences)] {
            let result = sqlite3_create_function_v2(handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, function, nil, nil, nil)
            guard result == SQLITE_OK else { throw SQLiteError(code: result, message: "cannot install \(name)") }
        }
    }
}

/// The value an argument keeps in the store's binary form (a list column, or a
/// `listElement`); nil for NULL or anything else.
func encodedValue(_ argument: OpaquePointer?) -> SyncFieldValue? {
    guard let argument, case .blob(let data) = SQLiteValue(reading: argument) else { return nil }
    return try? FieldsCodec.decodeValue(data)
}

/// The list a column's value holds, or nil for NULL or a value that is not a list.
func encodedList(_ argument: OpaquePointer?) -> [SyncFieldValue]? {
    guard case .list(let items)? = encodedValue(argument) else { return nil }
    return items
}

private let listHolds: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
    guard let items = encodedList(arguments?[0]), let element = encodedValue(arguments?[1]) else { return sqlite3_result_null(context) }
    sqlite3_result_int(context, items.contains { QueryValueOrder.compare($0, element) == 0 } ? 1 : 0)
}

private let listReferences: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
    guard let items = encodedList(arguments?[0]), let argument = arguments?[1], case .text(let name) = SQLiteValue(reading: argument) else {
        return sqlite3_result_null(context)
    }
    let holds = items.contains { item in
        switch item {
        case .reference(let reference): reference.recordName == name
        case .string(let text): text == name
        default: false
        }
    }
    sqlite3_result_int(context, holds ? 1 : 0)
}
