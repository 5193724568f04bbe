import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SyncStore: LocalStorePort {
    package func transaction<T>(_ body: (any SyncStoreTransaction) throws -> T) throws -> T {
        try session { try body($0) }
    }

    package func write<T>(author: StoreAuthor, _ body: (any ModelWriter) throws -> T) throws -> T {
        try write(author: author) { (writer: StoreWriter) in try body(writer) }
    }
}

/// One transaction of the store as the sync engine uses it: every read and write goes straight
/// to the transaction's connection, under the store's lock, so nothing of the app interleaves.
final class SyncStoreSession: SyncStoreTransaction {
    let database: SQLiteDatabase
    /// When this transaction happens: the time its saves carry unless told otherwise.
    let now: Date
    /// Whether the session wrote a change of the app (an attached asset, a requeued change): the
    /// change stream fires once it commits.
    private(set) var appWrote = false
    /// The models the transaction changed, for the commit feed.
    let changes: TransactionChanges

    init(database: SQLiteDatabase, now: Date, changes: TransactionChanges) {
        self.database = database
        self.now = now
        self.changes = changes
    }

    private func writer(_ author: StoreAuthor) -> StoreWriter {
        StoreWriter(database: database, author: author, now: now, changes: changes)
    }

    /// Runs app-authored writes, marking the session so the change stream fires.
    func asApp<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        let writer = writer(.app)
        let value = try body(writer)
        if writer.wroteAppChange { appWrote = true }
        return value
    }

    // MARK: - History

    private static let historyTokenKey = "history.token"
    /// History entries that are app changes (`StoreAuthor.isEngine`, in SQL).
    static let appChangesOnly = "author != '\(StoreAuthor.sync.storedValue)'"

    func historyToken() throws -> Int64 {
        Int64(try state(Self.historyTokenKey) ?? "0") ?? 0
    }

    func unpushedChanges(limit: Int?) throws -> (changes: [HistoryEntry], readThrough: Int64) {
        let token = try historyToken()
        var changes: [HistoryEntry] = []
        var last = token
        try database.forEachRow("SELECT seq, type, name, kind, author, tombstone FROM history WHERE seq > ? ORDER BY seq LIMIT ?", [.integer(token), .integer(Int64(limit ?? -1))]) { row throws(SQLiteError) in
            last = row.integer(0)
            let author = row.text(4)
            guard !StoreAuthor.isEngine(storedValue: author) else { return }
            changes.append(HistoryEntry(
                sequence: row.integer(0), recordType: row.text(1), recordName: row.text(2),
                kind: ChangeKind(rawValue: Int(row.integer(3))) ?? .save, author: author,
                tombstone: row.isNull(5) ? [:] : Self.tombstone(row.blob(5))))
        }
        return (changes, last)
    }

    private static func tombstone(_ blob: Data) -> [String: String] {
        var tombstone: [String: String] = [:]
        for (name, value) in (try? FieldsCodec.decode(blob)) ?? [:] {
            if case .string(let text) = value { tombstone[name] = text }
        }
        return tombstone
    }

    func hasUnpushedChanges() throws -> Bool {
        try !database.query("SELECT 1 FROM history WHERE seq > ? AND \(Self.appChangesOnly) LIMIT 1", [.integer(try historyToken())]).isEmpty
    }

    func hasLocalChange(recordType: String, recordName: String) throws -> Bool {
        try !database.query(
            """
            SELECT 1 FROM history WHERE seq > ? AND type = ? AND name = ? AND \(Self.appChangesOnly)
            UNION ALL SELECT 1 FROM failed_changes WHERE type = ? AND name = ? LIMIT 1
            """,
            [.integer(try historyToken()), .text(recordType), .text(recordName), .text(recordType), .text(recordName)]
        ).isEmpty
    }

    func recordsWithLocalChanges() throws -> (records: Set<RecordKey>, readThrough: Int64) {
        let changed = try recordsChanged(after: try historyToken())
        let setAside = try database.query("SELECT type, name FROM failed_changes").map { RecordKey($0.text(0), $0.text(1)) }
        return (changed.records.union(setAside), changed.readThrough)
    }

    func recordsChanged(after sequence: Int64) throws -> (records: Set<RecordKey>, readThrough: Int64) {
        var records: Set<RecordKey> = []
        var last = sequence
        // By the history's own key: the entries after a sequence are few, the whole history is not.
        try database.forEachRow("SELECT seq, type, name, author FROM history WHERE seq > ? ORDER BY seq", [.integer(sequence)]) { row throws(SQLiteError) in
            last = row.integer(0)
            if !StoreAuthor.isEngine(storedValue: row.text(3)) { records.insert(RecordKey(row.text(1), row.text(2))) }
        }
        return (records, last)
    }

    func commitHistoryToken(_ sequence: Int64) throws {
        try setState(Self.historyTokenKey, String(sequence))
        // What was read and pushed is no longer needed (the newest entry read stays, so sequence
        // numbers keep growing past the token).
        try database.query("DELETE FROM history WHERE seq < ?", [.integer(sequence)])
    }

    func requeue(recordType: String, recordName: String, ownerName: String) throws {
        guard try changes.tables.isStored(recordType: recordType, recordName: recordName) else { return try queueDeletion(recordType: recordType, recordName: recordName, ownerName: ownerName) }
        try asApp { try $0.recordHistory(type: recordType, name: recordName, kind: .save, tombstone: nil) }
    }

    func queueDeletion(recordType: String, recordName: String, ownerName: String) throws {
        let tombstone: RecordFields = [RecordFieldNames.recordName: .string(recordName), RecordFieldNames.ownerName: .string(ownerName)]
        try asApp { try $0.recordHistory(type: recordType, name: recordName, kind: .delete, tombstone: tombstone) }
    }

    // MARK: - Models as records

    func uploadRecord(type: any SyncModel.Type, recordName: String, syncZoneName: String) throws -> SyncRecord? {
        try uploadRecord(type, recordName: recordName, syncZoneName: syncZoneName)
    }

    /// The row is read once: it gives the model and the time of its last save.
    private func uploadRecord<Model: SyncModel>(_ type: Model.Type, recordName: String, syncZoneName: String) throws -> SyncRecord? {
        guard let table = try changes.tables.table(named: type.recordType),
            let stored = try changes.tables.row(recordType: type.recordType, recordName: recordName)
        else { return nil }
        var record = try StoreReader(database: database, table: table).model(type, stored).makeRecord(syncZoneName: syncZoneName)
        record.fields[RecordFieldNames.clientModifiedAt] = .date(stored.modified)
        return record
    }

    func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey] {
        try applyPulled(record, type)
    }

    func insertPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey] {
        try applyPulled(record, type, stored: false)
    }

    func storedNames(type: any SyncModel.Type, among names: [String]) throws -> Set<String> {
        guard !names.isEmpty, let table = try changes.tables.table(named: type.recordType) else { return [] }
        return Set(try database.query(
            "SELECT _name FROM \(table.sqlName) WHERE _name IN (SELECT value FROM json_each(?))", [.text(Self.jsonArray(names))]
        ).map { $0.text(0) })
    }

    /// Names as one JSON array, the single argument of a `json_each` list: one statement for
    /// any number of names.
    static func jsonArray(_ names: [String]) -> String {
        var json = "["
        for (index, name) in names.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            if !name.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                json += name
                json += "\""
                continue
            }
            for scalar in name.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20: json += String(format: "\\u%04x", scalar.value)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    private func applyPulled<Model: SyncModel>(_ record: SyncRecord, _ type: Model.Type, stored: Bool = true) throws -> [RecordKey] {
        let writer = writer(.sync)
        var model = try (stored ? writer.fetch(type, recordName: record.id.recordName) : nil)
            ?? Model(emptyRecordNamed: record.id.recordName, ownerName: record.id.zoneID.ownerName)
        model.ownerName = record.id.zoneID.ownerName
        try model.applyRemoteFields(from: record)
        try writer.save(model, modified: record.clientModifiedAt ?? now)
        if !Model.uniqueKeys.isEmpty { try NaturalKeys.mark(Model.recordType, model.recordName, database) }
        return try missingReferenceTargets(of: model)
    }

    /// References (fields and the parent) whose target is not stored yet, each with the type its
    /// field names: a model of another type under the same name is not the target. They are kept
    /// as they are: the target may arrive later.
    private func missingReferenceTargets<Model: SyncModel>(of model: Model) throws -> [RecordKey] {
        var targets: [RecordKey] = []
        if let parent = model.parentRecordName, let parentType = Model.parentRecordType { targets.append(RecordKey(parentType, parent)) }
        let references = Model.fieldDescriptors.filter { $0.type.referenceTarget != nil }
        let values = references.isEmpty ? [:] : model.encodeRemoteFields().values
        for field in references {
            guard let targetType = field.type.referenceTarget, let value = values[field.name] else { continue }
            switch value {
            case .reference(let reference): targets.append(RecordKey(targetType, reference.recordName))
            case .list(let items):
                for case .reference(let reference) in items { targets.append(RecordKey(targetType, reference.recordName)) }
            default: break
            }
        }
        return try targets.filter { try !isStored($0) }
    }

    func deletePulled(type: any SyncModel.Type, recordName: String) throws -> [RecordKey] {
        try deletePulled(type, recordName)
    }

    private func deletePulled<Model: SyncModel>(_ type: Model.Type, _ recordName: String) throws -> [RecordKey] {
        let writer = writer(.sync)
        if let model = try writer.fetch(type, recordName: recordName) { try writer.delete(model) }
        return writer.deleted
    }

    func setOwner(_ ownerName: String, type: any SyncModel.Type, recordName: String) throws {
        try setOwner(ownerName, type, recordName)
    }

    private func setOwner<Model: SyncModel>(_ ownerName: String, _ type: Model.Type, _ recordName: String) throws {
        let writer = writer(.sync)
        guard var model = try writer.fetch(type, recordName: recordName), model.ownerName != ownerName else { return }
        model.ownerName = ownerName
        try writer.save(model)
    }

    func recordNames(type: any SyncModel.Type, ownerName: String?) throws -> [String] {
        guard let table = try changes.tables.table(named: type.recordType) else { return [] }
        if let ownerName {
            return try database.query("SELECT _name FROM \(table.sqlName) WHERE _owner = ? ORDER BY _name", [.text(ownerName)]).map { $0.text(0) }
        }
        return try database.query("SELECT _name FROM \(table.sqlName) ORDER BY _name").map { $0.text(0) }
    }

    func isStored(type: any SyncModel.Type, recordName: String) throws -> Bool {
        try changes.tables.isStored(recordType: type.recordType, recordName: recordName)
    }

    func isStored(_ key: RecordKey) throws -> Bool {
        try changes.tables.isStored(recordType: key.recordType, recordName: key.recordName)
    }

    func childNames(type: any SyncModel.Type, parentRecordName: String) throws -> [String] {
        guard let table = try changes.tables.table(named: type.recordType) else { return [] }
        return try StoreReader(database: database, table: table).childNames(parentRecordName: parentRecordName)
    }

    func parentAndOwner(type: any SyncModel.Type, recordName: String) throws -> (parent: String?, owner: String)? {
        guard let table = try changes.tables.table(named: type.recordType) else { return nil }
        return try database.query("SELECT _parent, _owner FROM \(table.sqlName) WHERE _name = ?", [.text(recordName)]).first.map { ($0.optionalText(0), $0.text(1)) }
    }

    // MARK: - Server records

    static let syncRecordColumns = "zone_owner, zone, name, type, change_tag, fields, encrypted, modified, parent, share, creator, system_fields"

    private static let serverRecordColumns = "type, change_tag, fields, encrypted, modified, parent, share, creator, system_fields"

    /// The server versions kept in one zone for a list of names: the zone, then the names as one
    /// JSON array (`jsonArray`).
    private static let inZoneAmongNames = "zone_owner = ? AND zone = ? AND name IN (SELECT value FROM json_each(?))"

    private static func inZoneAmongNames(_ names: [String], _ zone: ZoneID) -> [SQLiteValue] {
        [.text(zone.ownerName), .text(zone.zoneName), .text(jsonArray(names))]
    }

    func serverRecord(_ id: RecordID) throws -> SyncRecord? {
        let rows = try database.query("SELECT \(Self.serverRecordColumns) FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
        return try rows.first.map { try Self.serverRecord($0, id: id) }
    }

    func serverRecords(_ names: [String], in zone: ZoneID) throws -> [String: SyncRecord] {
        guard !names.isEmpty else { return [:] }
        var records: [String: SyncRecord] = [:]
        for row in try database.query(
            "SELECT \(Self.serverRecordColumns), name FROM sync_records WHERE \(Self.inZoneAmongNames)", Self.inZoneAmongNames(names, zone)
        ) {
            let name = row.text(9)
            records[name] = try Self.serverRecord(row, id: RecordID(recordName: name, zoneID: zone))
        }
        return records
    }

    /// A server version from its row (`serverRecordColumns` first).
    private static func serverRecord(_ row: SQLiteRow, id: RecordID) throws -> SyncRecord {
        var record = SyncRecord(
            recordType: row.text(0), id: id, fields: try FieldsCodec.decode(row.blob(2)), encryptedFields: try FieldsCodec.decode(row.blob(3)),
            parentRecordName: row.optionalText(5), changeTag: row.optionalText(1), modificationDate: row.isNull(4) ? nil : Date(timeIntervalSince1970: row.real(4)))
        record.shareRecordName = row.optionalText(6)
        record.creatorUserRecordName = row.optionalText(7)
        record.systemFields = row.isNull(8) ? nil : SystemFields(archive: row.blob(8))
        return record
    }

    func serverChangeTag(_ id: RecordID) throws -> String?? {
        try database.query("SELECT change_tag FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
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
        try database.query(
            "INSERT OR REPLACE INTO sync_records (\(Self.syncRecordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [.text(record.id.zoneID.ownerName), .text(record.id.zoneID.zoneName), .text(record.id.recordName), .text(record.recordType),
             record.changeTag.map(SQLiteValue.text) ?? .null, .blob(FieldsCodec.encode(record.fields)), .blob(FieldsCodec.encode(record.encryptedFields)),
             record.modificationDate.map { .real($0.timeIntervalSince1970) } ?? .null,
             record.parentRecordName.map(SQLiteValue.text) ?? .null, record.shareRecordName.map(SQLiteValue.text) ?? .null,
             record.creatorUserRecordName.map(SQLiteValue.text) ?? .null, record.systemFields.map { .blob($0.archive) } ?? .null])
    }

    func removeServerRecord(_ id: RecordID) throws {
        try database.query("DELETE FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
    }

    func setUnconfirmedUpload(_ record: SyncRecord) throws {
        try database.query(
            "INSERT OR REPLACE INTO unconfirmed_uploads (zone_owner, zone, name, type, fields, encrypted, parent) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(record.id.zoneID.ownerName), .text(record.id.zoneID.zoneName), .text(record.id.recordName), .text(record.recordType),
             .blob(FieldsCodec.encode(record.fields)), .blob(FieldsCodec.encode(record.encryptedFields)), record.parentRecordName.map(SQLiteValue.text) ?? .null])
    }

    func unconfirmedUpload(_ id: RecordID) throws -> SyncRecord? {
        try database.query(
            "SELECT type, fields, encrypted, parent FROM unconfirmed_uploads WHERE zone_owner = ? AND zone = ? AND name = ?",
            [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)]
        ).first.map { row in
            SyncRecord(recordType: row.text(0), id: id, fields: try FieldsCodec.decode(row.blob(1)), encryptedFields: try FieldsCodec.decode(row.blob(2)), parentRecordName: row.optionalText(3))
        }
    }

    func removeUnconfirmedUpload(_ id: RecordID) throws {
        try database.query("DELETE FROM unconfirmed_uploads WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
    }

    func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID] {
        try database.query("SELECT name FROM sync_records WHERE zone_owner = ? AND zone = ? ORDER BY name", [.text(zone.ownerName), .text(zone.zoneName)]).map {
            RecordID(recordName: $0.text(0), zoneID: zone)
        }
    }

    func serverRecordIDs(recordType: String, recordName: String) throws -> [RecordID] {
        try database.query("SELECT zone_owner, zone FROM sync_records WHERE name = ? AND type = ? AND parent IS NOT NULL ORDER BY zone_owner, zone", [.text(recordName), .text(recordType)]).map {
            RecordID(recordName: recordName, zoneID: ZoneID(zoneName: $0.text(1), ownerName: $0.text(0)))
        }
    }

    // MARK: - Changes set aside

    func setAside(_ change: FailedChange) throws {
        try database.query(
            "INSERT OR REPLACE INTO failed_changes (type, name, owner, kind, code, message, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(change.recordType), .text(change.recordName), .text(change.ownerName), .integer(Int64(change.kind.rawValue)),
             .integer(Int64(change.error.cloudKitCode)), .text(change.error.message), .real(change.failedAt.timeIntervalSince1970)])
    }

    func failedChanges() throws -> [FailedChange] {
        try database.query("SELECT type, name, owner, kind, code, message, failed_at FROM failed_changes ORDER BY type, name").map(Self.failedChange)
    }

    func failedChange(recordType: String, recordName: String) throws -> FailedChange? {
        try database.query("SELECT type, name, owner, kind, code, message, failed_at FROM failed_changes WHERE type = ? AND name = ?", [.text(recordType), .text(recordName)]).first.map(Self.failedChange)
    }

    func removeFailedChange(recordType: String, recordName: String) throws {
        try database.query("DELETE FROM failed_changes WHERE type = ? AND name = ?", [.text(recordType), .text(recordName)])
    }

    private static func failedChange(_ row: SQLiteRow) -> FailedChange {
        FailedChange(
            recordType: row.text(0), recordName: row.text(1), ownerName: row.text(2),
            kind: ChangeKind(rawValue: Int(row.integer(3))) ?? .save,
            error: CloudError(cloudKitCode: Int(row.integer(4)), row.text(5)),
            failedAt: Date(timeIntervalSince1970: row.real(6)))
    }

    func purgeEverything() throws {
        for table in try changes.tables.all() {
            try database.forEachRow("SELECT _name FROM \(table.sqlName) ORDER BY _name") { row in
                changes.note(table.recordType, row.text(0), .delete, by: .sync)
            }
            try database.execute("DELETE FROM \(table.sqlName)")
        }
        try database.execute("DELETE FROM history; DELETE FROM sync_records; DELETE FROM unconfirmed_uploads; DELETE FROM sync_state; DELETE FROM catalog_received; DELETE FROM asset_cache; DELETE FROM asset_cache_orphans; DELETE FROM failed_changes; DELETE FROM conflict_resolutions; DELETE FROM conflicts; DELETE FROM conflict_fields; DELETE FROM natural_key_checks; DELETE FROM natural_key_merges;")
    }

    // MARK: - State

    func state(_ key: String) throws -> String? {
        try database.query("SELECT value FROM sync_state WHERE key = ?", [.text(key)]).first?.text(0)
    }

    func setState(_ key: String, _ value: String?) throws {
        if let value {
            try database.query("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        } else {
            try database.query("DELETE FROM sync_state WHERE key = ?", [.text(key)])
        }
    }

    func stateKeys(prefix: String) throws -> [String] {
        // `>=` and `<` on the prefix rather than LIKE, whose wildcards a key may hold.
        try database.query("SELECT key FROM sync_state WHERE key >= ? AND key < ? ORDER BY key", [.text(prefix), .text(prefix + "\u{10FFFF}")]).map { $0.text(0) }
    }
}
