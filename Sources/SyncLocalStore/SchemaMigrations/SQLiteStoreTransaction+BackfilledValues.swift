import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: BackfilledValues {
    func backfilledValues(recordType: String, recordName: String) throws -> [String: SyncFieldValue] {
        try BackfilledValuesSQL.values(recordType: recordType, recordName: recordName, database)
    }

    func forgetBackfilledValues(recordType: String, recordNames: [String]) throws {
        try BackfilledValuesSQL.forget(recordType: recordType, recordNames: recordNames, database)
    }
}

/// The `backfilled_values` table, for the engine's transactions and the migration's.
enum BackfilledValuesSQL {
    static func values(recordType: String, recordName: String, _ database: SQLiteDatabase) throws -> [String: SyncFieldValue] {
        var values: [String: SyncFieldValue] = [:]
        for row in try database.query("SELECT key, value FROM backfilled_values WHERE type = ? AND name = ?", [.text(recordType), .text(recordName)]) {
            values[row.text(0)] = try FieldsCodec.decode(row.blob(1))[row.text(0)]
        }
        return values
    }

    static func forget(recordType: String, recordNames: [String], _ database: SQLiteDatabase) throws {
        guard !recordNames.isEmpty else { return }
        try database.query(
            "DELETE FROM backfilled_values WHERE type = ? AND name IN (SELECT value FROM json_each(?))",
            [.text(recordType), .text(QuotedText.jsonArray(recordNames))])
    }

    static func note(_ value: SyncFieldValue, of key: String, recordType: String, recordName: String, _ database: SQLiteDatabase) throws {
        try database.query(
            "INSERT OR REPLACE INTO backfilled_values (type, name, key, value) VALUES (?, ?, ?, ?)",
            [.text(recordType), .text(recordName), .text(key), .blob(FieldsCodec.encode([key: value]))])
    }
}
