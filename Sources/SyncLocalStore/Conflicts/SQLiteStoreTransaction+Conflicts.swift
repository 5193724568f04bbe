import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// The conflicts sync settled by itself, kept with the values each field was settled from: one
/// row per conflict, one per field. Written in the transaction of the merge, so a merge and its
/// record stand or fall together.
extension SQLiteStoreTransaction: ConflictLog {
    func recordConflict(recordType: String, id: RecordID, fields: [FieldConflict], retention: ConflictRetention) throws -> RecordConflict {
        let number = try database.query(
            "INSERT INTO conflicts (type, name, zone_owner, zone, resolved_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [.text(recordType), .text(id.recordName), .text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .real(now.timeIntervalSince1970)])[0].integer(0)
        for (position, field) in fields.enumerated() {
            try database.query(
                "INSERT INTO conflict_fields (conflict, position, field, ancestor, local, server, resolved) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.integer(number), .integer(Int64(position)), .text(field.field)]
                    + [field.ancestor, field.local, field.server, field.resolved].map(Self.storedValue))
        }
        try pruneConflicts(keeping: retention)
        return RecordConflict(id: number, recordType: recordType, recordID: id, resolvedAt: now, fields: fields)
    }

    /// The record's conflicts, newest first.
    func conflicts(recordType: String, recordName: String, limit: Int = .max) throws -> [RecordConflict] {
        try conflicts(where: "type = ? AND name = ?", [.text(recordType), .text(recordName)], limit: limit)
    }

    /// Every kept conflict, newest first.
    func recentConflicts(limit: Int) throws -> [RecordConflict] {
        try conflicts(where: "1", [], limit: limit)
    }

    func conflict(id: Int64) throws -> RecordConflict? {
        try conflicts(where: "id = ?", [.integer(id)], limit: 1).first
    }

    func removeConflict(id: Int64) throws {
        try database.query("DELETE FROM conflict_fields WHERE conflict = ?", [.integer(id)])
        try database.query("DELETE FROM conflicts WHERE id = ?", [.integer(id)])
    }

    private func conflicts(where condition: String, _ arguments: [SQLiteValue], limit: Int) throws -> [RecordConflict] {
        let rows = try database.query(
            "SELECT id, type, name, zone_owner, zone, resolved_at FROM conflicts WHERE \(condition) ORDER BY id DESC LIMIT ?",
            arguments + [.integer(Int64(min(limit, Int(Int64.max))))])
        return try rows.map { row in
            let number = row.integer(0)
            let fields = try database.query(
                "SELECT field, ancestor, local, server, resolved FROM conflict_fields WHERE conflict = ? ORDER BY position", [.integer(number)]
            ).map { field in
                FieldConflict(
                    field: field.text(0), ancestor: try Self.value(field, 1), local: try Self.value(field, 2),
                    server: try Self.value(field, 3), resolved: try Self.value(field, 4))
            }
            return RecordConflict(
                id: number, recordType: row.text(1),
                recordID: RecordID(recordName: row.text(2), zoneID: ZoneID(zoneName: row.text(4), ownerName: row.text(3))),
                resolvedAt: Date(timeIntervalSince1970: row.real(5)), fields: fields)
        }
    }

    /// Lets go of conflicts older than the retention's age, then of the oldest beyond its count.
    private func pruneConflicts(keeping retention: ConflictRetention) throws {
        var doomed = "id <= (SELECT id FROM conflicts ORDER BY id DESC LIMIT 1 OFFSET ?)"
        var arguments: [SQLiteValue] = [.integer(Int64(max(retention.maximumCount, 0)))]
        if let age = retention.maximumAge {
            doomed += " OR resolved_at < ?"
            arguments.append(.real(now.timeIntervalSince1970 - age))
        }
        try database.query("DELETE FROM conflict_fields WHERE conflict IN (SELECT id FROM conflicts WHERE \(doomed))", arguments)
        try database.query("DELETE FROM conflicts WHERE \(doomed)", arguments)
    }

    /// A value as a blob (the fields codec's form of a one-value record), NULL for none.
    private static func storedValue(_ value: SyncFieldValue?) -> SQLiteValue {
        value.map { .blob(FieldsCodec.encode(["v": $0])) } ?? .null
    }

    private static func value(_ row: SQLiteRow, _ column: Int32) throws -> SyncFieldValue? {
        row.isNull(column) ? nil : try FieldsCodec.decode(row.blob(column))["v"]
    }
}
