import Foundation
import SyncCore
import SyncStorage

/// A change of the app the cloud does not have yet, carried in from elsewhere: parked by an
/// account's sign-out, or read out of a damaged store's file. The model's row as it was (a save),
/// or the owner its deletion was routed by; written back as the app's change, queued to push.
struct CarriedChange {
    enum Kind {
        case save(StoredRow)
        case delete(owner: String)
    }

    var recordType: String
    var recordName: String
    var kind: Kind

    static func save(_ row: StoredRow, of recordType: String) -> CarriedChange {
        CarriedChange(recordType: recordType, recordName: row.name, kind: .save(row))
    }

    static func deletion(of recordType: String, _ recordName: String, owner: String) -> CarriedChange {
        CarriedChange(recordType: recordType, recordName: recordName, kind: .delete(owner: owner))
    }
}

extension SQLiteStoreTransaction {
    /// Writes each change as the app's, in one history entry each (nothing is decoded: a row goes
    /// in as it came, so nothing is lost on the way).
    func carryIn(_ carried: [CarriedChange]) throws {
        try asApp { writer in
            for change in carried {
                let (type, name) = (change.recordType, change.recordName)
                switch change.kind {
                case .save(let row):
                    let table = try changes.tables.ensureTable(named: type)
                    try table.write(name: name, owner: row.owner, parent: row.parent, modified: row.modified, fields: row.fields, to: database)
                    try writer.recordHistory(type: type, name: name, kind: .save, tombstone: nil)
                    changes.note(type, name, .save, by: .app)
                case .delete(let owner):
                    var removed = false
                    if let table = try changes.tables.table(named: type) {
                        try database.query("DELETE FROM \(table.sqlName) WHERE _name = ?", [.text(name)])
                        removed = database.changes > 0
                    }
                    try writer.recordHistory(type: type, name: name, kind: .delete, tombstone: [RecordFieldNames.recordName: .string(name), RecordFieldNames.ownerName: .string(owner)])
                    if removed { changes.note(type, name, .delete, by: .app) }
                }
            }
        }
    }
}
