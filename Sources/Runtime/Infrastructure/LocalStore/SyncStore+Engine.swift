import Foundation

extension SyncStore: LocalStorePort {
    public func write<T>(author: StoreAuthor, _ body: (any ModelWriter) throws -> T) throws -> T {
        try write(author: author) { (writer: StoreWriter) in try body(writer) }
    }

    private static let historyTokenKey = "history.token"

    /// Every unpushed change at once.
    public func unpushedChanges() throws -> (changes: [HistoryEntry], readThrough: Int64) {
        try unpushedChanges(limit: nil)
    }

    public func unpushedChanges(limit: Int?) throws -> (changes: [HistoryEntry], readThrough: Int64) {
        try database.withLock { database in
            let token = try Self.historyToken(database)
            var changes: [HistoryEntry] = []
            var last = token
            try database.forEachRow("SELECT seq, type, name, kind, author, tombstone FROM history WHERE seq > ? ORDER BY seq LIMIT ?", [.integer(token), .integer(Int64(limit ?? -1))]) { row throws(SQLiteError) in
                last = row.integer(0)
                let author = row.text(4)
                guard author != StoreAuthor.sync.storedValue else { return }
                var tombstone: [String: String] = [:]
                if !row.isNull(5), let fields = try? FieldsCodec.decode(row.blob(5)) {
                    for (name, value) in fields { if case .string(let text) = value { tombstone[name] = text } }
                }
                changes.append(HistoryEntry(
                    sequence: row.integer(0), recordType: row.text(1), recordName: row.text(2),
                    kind: HistoryEntry.Kind(rawValue: Int(row.integer(3))) ?? .save, author: author, tombstone: tombstone))
            }
            return (changes, last)
        }
    }

    public func hasUnpushedChanges() throws -> Bool {
        try database.withLock { database in
            let token = try Self.historyToken(database)
            return try !database.query("SELECT 1 FROM history WHERE seq > ? AND author != ? LIMIT 1", [.integer(token), .text(StoreAuthor.sync.storedValue)]).isEmpty
        }
    }

    public func commitHistoryToken(_ sequence: Int64) throws {
        try database.withLock { database in
            try database.transaction {
                try database.query("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", [.text(Self.historyTokenKey), .text(String(sequence))])
                // What was read and pushed is no longer needed (the newest entry read stays, so
                // sequence numbers keep growing past the token).
                try database.query("DELETE FROM history WHERE seq < ?", [.integer(sequence)])
            }
        }
    }

    private static func historyToken(_ database: SQLiteDatabase) throws -> Int64 {
        Int64(try database.query("SELECT value FROM sync_state WHERE key = ?", [.text(historyTokenKey)]).first?.text(0) ?? "0") ?? 0
    }

    // MARK: - Models as records

    public func uploadRecord(type: any SyncModel.Type, recordName: String, syncZoneName: String) throws -> SyncRecord? {
        guard var record = try fetch(type, recordName: recordName)?.makeRecord(syncZoneName: syncZoneName) else { return nil }
        let modified = try database.withLock { try $0.query("SELECT modified FROM models WHERE type = ? AND name = ?", [.text(type.recordType), .text(recordName)]).first?.real(0) }
        if let modified {
            record.fields[RecordFieldNames.clientModifiedAt] = .date(Date(timeIntervalSince1970: modified))
        }
        return record
    }

    public func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [String] {
        try applyPulled(record, type)
    }

    private func applyPulled<Model: SyncModel>(_ record: SyncRecord, _ type: Model.Type) throws -> [String] {
        try write(author: .sync) { writer in
            var model = try writer.fetch(type, recordName: record.id.recordName)
                ?? Model(emptyRecordNamed: record.id.recordName, ownerName: record.id.zoneID.ownerName)
            model.ownerName = record.id.zoneID.ownerName
            try model.applyRemoteFields(from: record)
            try writer.save(model, modified: record.clientModifiedAt ?? writer.now)
            return try missingReferenceTargets(of: model, writer: writer)
        }
    }

    /// References (fields and the parent) whose target is not stored yet. They are kept as they
    /// are: the target may arrive later.
    private func missingReferenceTargets<Model: SyncModel>(of model: Model, writer: StoreWriter) throws -> [String] {
        var names: [String] = []
        if let parent = model.parentRecordName { names.append(parent) }
        for (name, value) in model.encodeRemoteFields().values where Model.fieldDescriptors.contains(where: { $0.name == name }) {
            switch value {
            case .reference(let reference): names.append(reference.recordName)
            case .list(let items):
                for case .reference(let reference) in items { names.append(reference.recordName) }
            default: break
            }
        }
        return try names.filter { name in
            try writer.database.query("SELECT 1 FROM models WHERE name = ? LIMIT 1", [.text(name)]).isEmpty
        }
    }

    public func deletePulled(type: any SyncModel.Type, recordName: String) throws {
        try delete(type, recordName: recordName, author: .sync)
    }

    public func setOwner(_ ownerName: String, type: any SyncModel.Type, recordName: String) throws {
        try setOwner(ownerName, type, recordName)
    }

    private func setOwner<Model: SyncModel>(_ ownerName: String, _ type: Model.Type, _ recordName: String) throws {
        try write(author: .sync) { writer in
            guard var model = try writer.fetch(type, recordName: recordName), model.ownerName != ownerName else { return }
            model.ownerName = ownerName
            try writer.save(model)
        }
    }

    public func recordNames(type: any SyncModel.Type, ownerName: String?) throws -> [String] {
        try database.withLock { database in
            if let ownerName {
                return try database.query("SELECT name FROM models WHERE type = ? AND owner = ? ORDER BY name", [.text(type.recordType), .text(ownerName)]).map { $0.text(0) }
            }
            return try database.query("SELECT name FROM models WHERE type = ? ORDER BY name", [.text(type.recordType)]).map { $0.text(0) }
        }
    }

    public func isStored(recordName: String) throws -> Bool {
        try database.withLock { try !$0.query("SELECT 1 FROM models WHERE name = ? LIMIT 1", [.text(recordName)]).isEmpty }
    }

    public func parentAndOwner(type: any SyncModel.Type, recordName: String) throws -> (parent: String?, owner: String)? {
        try database.withLock { database in
            try database.query("SELECT parent, owner FROM models WHERE type = ? AND name = ?", [.text(type.recordType), .text(recordName)]).first.map { ($0.optionalText(0), $0.text(1)) }
        }
    }

    // MARK: - Server records

    public func serverRecord(_ id: RecordID) throws -> SyncRecord? {
        try database.withLock { database in
            let rows = try database.query("SELECT type, change_tag, fields, encrypted, modified, parent, share FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
            guard let row = rows.first else { return nil }
            var record = SyncRecord(
                recordType: row.text(0), id: id, fields: try FieldsCodec.decode(row.blob(2)), encryptedFields: try FieldsCodec.decode(row.blob(3)),
                parentRecordName: row.optionalText(5), changeTag: row.optionalText(1), modificationDate: row.isNull(4) ? nil : Date(timeIntervalSince1970: row.real(4)))
            record.shareRecordName = row.optionalText(6)
            return record
        }
    }

    public func setServerRecord(_ record: SyncRecord) throws {
        try database.withLock { database in
            try database.query(
                "INSERT OR REPLACE INTO sync_records (zone_owner, zone, name, type, change_tag, fields, encrypted, modified, parent, share) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(record.id.zoneID.ownerName), .text(record.id.zoneID.zoneName), .text(record.id.recordName), .text(record.recordType),
                 record.changeTag.map(SQLiteValue.text) ?? .null, .blob(FieldsCodec.encode(record.fields)), .blob(FieldsCodec.encode(record.encryptedFields)),
                 record.modificationDate.map { .real($0.timeIntervalSince1970) } ?? .null,
                 record.parentRecordName.map(SQLiteValue.text) ?? .null, record.shareRecordName.map(SQLiteValue.text) ?? .null])
        }
    }

    public func removeServerRecord(_ id: RecordID) throws {
        try database.withLock { database in
            try database.query("DELETE FROM sync_records WHERE zone_owner = ? AND zone = ? AND name = ?", [.text(id.zoneID.ownerName), .text(id.zoneID.zoneName), .text(id.recordName)])
        }
    }

    public func serverRecordIDs(inZone zone: ZoneID) throws -> [RecordID] {
        try database.withLock { database in
            try database.query("SELECT name FROM sync_records WHERE zone_owner = ? AND zone = ?", [.text(zone.ownerName), .text(zone.zoneName)]).map {
                RecordID(recordName: $0.text(0), zoneID: zone)
            }
        }
    }

    // MARK: - State

    public func state(_ key: String) throws -> String? {
        try database.withLock { try $0.query("SELECT value FROM sync_state WHERE key = ?", [.text(key)]).first?.text(0) }
    }

    public func setState(_ key: String, _ value: String?) throws {
        try database.withLock { database in
            if let value {
                try database.query("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            } else {
                try database.query("DELETE FROM sync_state WHERE key = ?", [.text(key)])
            }
        }
    }

    public func purgeEverything() throws {
        try database.withLock { database in
            try database.transaction {
                try database.execute("DELETE FROM models; DELETE FROM history; DELETE FROM sync_records; DELETE FROM sync_state; DELETE FROM asset_cache;")
            }
        }
    }
}
