import Foundation
import SyncCore
import SyncStorage

/// Who made a stored model and who last changed it: read from its server version in its owner's
/// zone (`sync_records`, by the index on owner and name), the one place queries and reads take
/// them from.
enum RecordAuthorshipSQL {
    /// A subquery giving the person in `role` for the model row of the enclosing query, or NULL
    /// when the cloud has not returned a version of it.
    static func person(_ role: RecordAuthorship.Role) -> String {
        let column = switch role {
        case .creator: "creator"
        case .lastModifier: "modifier"
        }
        // Both owners are kept as `StoredOwner` keeps them: compared as they are.
        return "SELECT \(StoredOwner.sql(column)) FROM sync_records WHERE zone_owner = _owner AND name = _name LIMIT 1"
    }

    /// The authorship of every model of a record type that the cloud returned, by owner and name.
    static func all(recordType: String, in database: SQLiteDatabase) throws -> [String: [String: RecordAuthorship]] {
        var found: [String: [String: RecordAuthorship]] = [:]
        try database.forEachRow("SELECT zone_owner, name, \(columns) FROM sync_records WHERE type = ?", [.text(recordType)]) { row in
            found[StoredOwner.name(row.text(0)), default: [:]][row.text(1)] = authorship(row, from: 2)
        }
        return found
    }

    /// The authorship of one model.
    static func of(recordName: String, ownerName: String, in database: SQLiteDatabase) throws -> RecordAuthorship {
        let rows = try database.query("SELECT \(columns) FROM sync_records WHERE zone_owner = ? AND name = ? LIMIT 1", [.text(StoredOwner.column(ownerName)), .text(recordName)])
        return rows.first.map { authorship($0, from: 0) } ?? .notYetInTheCloud
    }

    private static let columns = "creator, created, modifier, modified"

    /// A version kept before the server's dates and modifier were: the creator alone, whose save
    /// the version is not known to be.
    private static func authorship(_ row: SQLiteRow, from offset: Int32) -> RecordAuthorship {
        let creator = row.optionalText(offset).map(StoredOwner.name) ?? SyncConstants.currentUserOwnerName
        return RecordAuthorship(
            createdBy: creator, createdAt: row.isNull(offset + 1) ? nil : Date(timeIntervalSince1970: row.real(offset + 1)),
            modifiedBy: row.optionalText(offset + 2).map(StoredOwner.name) ?? creator, modifiedAt: row.isNull(offset + 3) ? nil : Date(timeIntervalSince1970: row.real(offset + 3)))
    }
}
