import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: ServerVersions {
    static let syncRecordColumns = "zone_owner, zone, name, type, change_tag, fields, encrypted, modified, parent, share, creator, system_fields, created, modifier"

    /// A server version written (`setServerRecord`): one text, made once, so each write finds
    /// its prepared statement by the text's identity.
    private static let writeServerRecord = "INSERT OR REPLACE INTO sync_records (\(syncRecordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    private static let serverRecordColumns = "type, change_tag, fields, encrypted, modified, parent, share, creator, system_fields, created, modifier"

    /// The server versions kept in one zone for a list of names: the zone, then the names as one
    /// JSON array (`QuotedText.jsonArray`).
    private static let inZoneAmongNames = "zone_owner = ? AND zone = ? AND name IN (SELECT value FROM json_each(?))"

    private static func inZoneAmongNames(_ names: [String], _ zone: ZoneID) -> [SQLiteValue] {
        [.text(StoredOwner.column(zone.ownerName)), .text(zone.zoneName), .text(QuotedText.jsonArray(names))]
    }

    func serverRecord(_ id: RecordID) throws -> SyncRecord? {
        let rows = try database.query("SELECT \(Self.serverRecordColumns) FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(StoredOwner.column(id.zoneID.ownerName)), .text(id.zoneID.zoneName), .text(id.recordName)])
        return try rows.first.map { try Self.serverRecord($0, id: id) }
    }

    func serverRecords(_ names: [String], in zone: ZoneID) throws -> [String: SyncRecord] {
        guard !names.isEmpty else { return [:] }
        var records: [String: SyncRecord] = [:]
        for row in try database.query(
            "SELECT \(Self.serverRecordColumns), name FROM sync_records WHERE \(Self.inZoneAmongNames)", Self.inZoneAmongNames(names, zone)
        ) {
            let name = row.text(11)
            records[name] = try Self.serverRecord(row, id: RecordID(recordName: name, zoneID: zone))
        }
        return records
    }

    /// The server version of a model's record, in whichever of its owner's zones it is kept (the
    /// first by zone name, when several keep a copy): what a schema migration reads where it
    /// does not know the app's zones.
    static func serverRecord(recordType: String, recordName: String, ownerName: String, _ database: SQLiteDatabase) throws -> SyncRecord? {
        let rows = try database.query(
            "SELECT \(serverRecordColumns), zone FROM sync_records WHERE zone_owner = ? AND name = ? AND type = ? ORDER BY zone LIMIT 1",
            [.text(StoredOwner.column(ownerName)), .text(recordName), .text(recordType)])
        return try rows.first.map { row in
            try serverRecord(row, id: RecordID(recordName: recordName, zoneID: ZoneID(zoneName: row.text(11), ownerName: ownerName)))
        }
    }

    /// A server version from its row (`serverRecordColumns` first).
    private static func serverRecord(_ row: SQLiteRow, id: RecordID) throws -> SyncRecord {
        var record = SyncRecord(
            recordType: row.text(0), id: id, fields: try FieldsCodec.decode(row.blob(2)), encryptedFields: try FieldsCodec.decode(row.blob(3)),
            parentRecordName: row.optionalText(5), changeTag: row.optionalText(1), modificationDate: row.isNull(4) ? nil : Date(timeIntervalSince1970: row.real(4)))
        record.shareRecordName = row.optionalText(6)
        record.creatorUserRecordName = row.optionalText(7).map(StoredOwner.name)
        record.systemFields = row.isNull(8) ? nil : SystemFields(archive: row.blob(8))
        record.creationDate = row.isNull(9) ? nil : Date(timeIntervalSince1970: row.real(9))
        record.lastModifiedUserRecordName = row.optionalText(10).map(StoredOwner.name)
        return record
    }

    func serverChangeTag(_ id: RecordID) throws -> String?? {
        try database.query("SELECT change_tag FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(StoredOwner.column(id.zoneID.ownerName)), .text(id.zoneID.zoneName), .text(id.recordName)])
            .first.map { $0.optionalText(0) }
    }

    func serverChangeTags(_ names: [String], in zone: ZoneID) throws -> [String: String?] {
        guard !names.isEmpty else { return [:] }
        var tags: [String: String?] = [:]
        try database.forEachRow(
            "SELECT name, change_tag FROM sync_records WHERE \(Self.inZoneAmongNames)", Self.inZoneAmongNames(names, zone)
        ) { row in tags[row.text(0)] = row.optionalText(1) }
        return tags
    }

    func setServerRecord(_ record: SyncRecord) throws {
        try database.run(Self.writeServerRecord) { (parameters: inout SQLiteParameters) throws(SQLiteError) in
            try parameters.set(1, .text(StoredOwner.column(record.id.zoneID.ownerName)))
            try parameters.set(2, .text(record.id.zoneID.zoneName))
            try parameters.set(3, .text(record.id.recordName))
            try parameters.set(4, .text(record.recordType))
            if let changeTag = record.changeTag { try parameters.set(5, .text(changeTag)) }
            try parameters.set(6, .blob(FieldsCodec.encode(record.fields)))
            try parameters.set(7, .blob(FieldsCodec.encode(record.encryptedFields)))
            if let modified = record.modificationDate { try parameters.set(8, .real(modified.timeIntervalSince1970)) }
            if let parent = record.parentRecordName { try parameters.set(9, .text(parent)) }
            if let share = record.shareRecordName { try parameters.set(10, .text(share)) }
            if let creator = record.creatorUserRecordName { try parameters.set(11, .text(StoredOwner.column(creator))) }
            if let systemFields = record.systemFields { try parameters.set(12, .blob(systemFields.archive)) }
            if let created = record.creationDate { try parameters.set(13, .real(created.timeIntervalSince1970)) }
            if let modifier = record.lastModifiedUserRecordName { try parameters.set(14, .text(StoredOwner.column(modifier))) }
        }
    }

    func removeServerRecord(_ id: RecordID) throws {
        try database.query("DELETE FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(StoredOwner.column(id.zoneID.ownerName)), .text(id.zoneID.zoneName), .text(id.recordName)])
    }

    /// A save kept as sent (`noteSent`): one text, made once, as `writeServerRecord`.
    private static let writeSentUpload = "INSERT OR REPLACE INTO sent_uploads (zone_owner, zone, name, upload, sent, type, fields, encrypted, parent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"

    func noteSent(_ records: [SyncRecord]) throws {
        let sent = now.timeIntervalSince1970
        for record in records {
            try database.run(Self.writeSentUpload) { (parameters: inout SQLiteParameters) throws(SQLiteError) in
                try parameters.set(1, .text(StoredOwner.column(record.id.zoneID.ownerName)))
                try parameters.set(2, .text(record.id.zoneID.zoneName))
                try parameters.set(3, .text(record.id.recordName))
                try parameters.set(4, .text(record.uploadVersions.first ?? ""))
                try parameters.set(5, .real(sent))
                try parameters.set(6, .text(record.recordType))
                try parameters.set(7, .blob(FieldsCodec.encode(record.fields)))
                try parameters.set(8, .blob(FieldsCodec.encode(record.encryptedFields)))
                if let parent = record.parentRecordName { try parameters.set(9, .text(parent)) }
            }
        }
    }

    func sentVersions(_ id: RecordID) throws -> [SyncRecord] {
        try database.query(
            "SELECT type, fields, encrypted, parent FROM sent_uploads WHERE zone_owner = ? AND zone = ? AND name = ? ORDER BY sent DESC",
            [.text(StoredOwner.column(id.zoneID.ownerName)), .text(id.zoneID.zoneName), .text(id.recordName)]
        ).map { row in
            SyncRecord(recordType: row.text(0), id: id, fields: try FieldsCodec.decode(row.blob(1)), encryptedFields: try FieldsCodec.decode(row.blob(2)), parentRecordName: row.optionalText(3))
        }
    }

    func forgetSent(_ names: [String], in zone: ZoneID) throws {
        guard !names.isEmpty else { return }
        try database.query("DELETE FROM sent_uploads WHERE \(Self.inZoneAmongNames)", Self.inZoneAmongNames(names, zone))
    }

    func forgetSent(uploads: [SyncRecord]) throws {
        for save in uploads {
            try database.query(
                "DELETE FROM sent_uploads WHERE zone_owner = ? AND zone = ? AND name = ? AND upload = ?",
                [.text(StoredOwner.column(save.id.zoneID.ownerName)), .text(save.id.zoneID.zoneName), .text(save.id.recordName), .text(save.uploadVersions.first ?? "")])
        }
    }

    func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID] {
        try database.query("SELECT name FROM sync_records WHERE zone_owner = ? AND zone = ? ORDER BY name", [.text(StoredOwner.column(zone.ownerName)), .text(zone.zoneName)]).map {
            RecordID(recordName: $0.text(0), zoneID: zone)
        }
    }

    func newListing(inZone zone: ZoneID) throws -> Int64 {
        try database.query("SELECT COALESCE(MAX(listed), 0) + 1 FROM sync_records WHERE zone_owner = ? AND zone = ?", [.text(StoredOwner.column(zone.ownerName)), .text(zone.zoneName)]).first?.integer(0) ?? 1
    }

    func markListed(_ names: [String], in zone: ZoneID, listing: Int64) throws {
        guard !names.isEmpty else { return }
        try database.query("UPDATE sync_records SET listed = ? WHERE \(Self.inZoneAmongNames)", [.integer(listing)] + Self.inZoneAmongNames(names, zone))
    }

    func serverRecordsNotListed(inZone zone: ZoneID, listing: Int64) throws -> [(id: RecordID, recordType: String)] {
        try database.query(
            "SELECT name, type FROM sync_records WHERE zone_owner = ? AND zone = ? AND (listed IS NULL OR listed != ?) ORDER BY name",
            [.text(StoredOwner.column(zone.ownerName)), .text(zone.zoneName), .integer(listing)]
        ).map { (RecordID(recordName: $0.text(0), zoneID: zone), $0.text(1)) }
    }

    func serverRecordIDs(recordType: String, recordName: String) throws -> [RecordID] {
        // A record under a parent moves between owners' zones; any of the user's own records
        // moves between their zones when a zone moves. Each half reads its own index.
        try database.query(
            """
            SELECT zone_owner, zone FROM sync_records WHERE name = ?1 AND type = ?2 AND parent IS NOT NULL
            UNION SELECT zone_owner, zone FROM sync_records WHERE zone_owner = ?3 AND name = ?1 AND type = ?2
            ORDER BY zone_owner, zone
            """, [.text(recordName), .text(recordType), .text(StoredOwner.column(SyncConstants.currentUserOwnerName))]
        ).map {
            RecordID(recordName: recordName, zoneID: ZoneID(zoneName: $0.text(1), ownerName: StoredOwner.name($0.text(0))))
        }
    }
}
