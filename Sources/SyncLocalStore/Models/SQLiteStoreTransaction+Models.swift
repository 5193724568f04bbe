import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: StoredModels {
    func uploadRecord(type: any SyncModel.Type, recordName: String, routes: ZoneRoutes) throws -> SyncRecord? {
        try uploadRecord(type, recordName: recordName, routes: routes)
    }

    func uploadRecords(type: any SyncModel.Type, recordNames: [String], routes: ZoneRoutes) throws -> [String: SyncRecord] {
        try uploadRecords(type, recordNames: recordNames, routes: routes)
    }

    /// The row is read once: it gives the model and the time of its last save.
    private func uploadRecord<Model: SyncModel>(_ type: Model.Type, recordName: String, routes: ZoneRoutes) throws -> SyncRecord? {
        guard let table = try changes.tables.table(named: type.recordType),
            let stored = try StoreReader(database: database, table: table).fetchWithModified(type, recordNames: [recordName]).first
        else { return nil }
        return Self.uploadRecord(of: stored.model, modified: stored.modified, routes: routes)
    }

    private func uploadRecords<Model: SyncModel>(_ type: Model.Type, recordNames: [String], routes: ZoneRoutes) throws -> [String: SyncRecord] {
        guard !recordNames.isEmpty, let table = try changes.tables.table(named: type.recordType) else { return [:] }
        var records: [String: SyncRecord] = [:]
        records.reserveCapacity(recordNames.count)
        for stored in try StoreReader(database: database, table: table).fetchWithModified(type, recordNames: recordNames) {
            records[stored.model.recordName] = Self.uploadRecord(of: stored.model, modified: stored.modified, routes: routes)
        }
        return records
    }

    /// The record a stored model uploads, with the time of its last save on this device.
    private static func uploadRecord<Model: SyncModel>(of model: Model, modified: Date, routes: ZoneRoutes) -> SyncRecord {
        var record = model.makeRecord(routes: routes)
        record.fields[RecordFieldNames.clientModifiedAt] = .date(modified)
        return record
    }

    func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey] {
        try applyPulled(record, type)
    }

    func insertPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey] {
        try applyPulled(record, type, stored: false)
    }

    func storedNames(type: any SyncModel.Type, among names: [String]) throws -> Set<String> {
        try changes.tables.storedNames(recordType: type.recordType, among: names)
    }


    private func applyPulled<Model: SyncModel>(_ record: SyncRecord, _ type: Model.Type, stored: Bool = true) throws -> [RecordKey] {
        let writer = self.writer(.sync)
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
        let writer = self.writer(.sync)
        if let model = try writer.fetch(type, recordName: recordName) { try writer.delete(model) }
        return writer.deleted
    }

    func setOwner(_ ownerName: String, type: any SyncModel.Type, recordName: String) throws {
        try setOwner(ownerName, type, recordName)
    }

    private func setOwner<Model: SyncModel>(_ ownerName: String, _ type: Model.Type, _ recordName: String) throws {
        let writer = self.writer(.sync)
        guard var model = try writer.fetch(type, recordName: recordName), model.ownerName != ownerName else { return }
        model.ownerName = ownerName
        try writer.save(model)
    }

    func recordNames(type: any SyncModel.Type, ownerName: String?) throws -> [String] {
        guard let table = try changes.tables.table(named: type.recordType) else { return [] }
        if let ownerName {
            // Another owner's rows are read by the index of others' rows; the user's own are most
            // of the table, read by a scan.
            let stored = StoredOwner.column(ownerName)
            let others = stored.isEmpty ? "" : " AND \(ModelTables.othersOnly)"
            return try database.query("SELECT _name FROM \(table.sqlName) WHERE _owner = ?\(others) ORDER BY _name", [.text(stored)]).map { $0.text(0) }
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
        try parentAndOwner(recordType: type.recordType, recordName: recordName)
    }

    func parentAndOwner(recordType: String, recordName: String) throws -> (parent: String?, owner: String)? {
        guard let table = try changes.tables.table(named: recordType) else { return nil }
        return try database.query("SELECT _parent, _owner FROM \(table.sqlName) WHERE _name = ?", [.text(recordName)]).first.map { ($0.optionalText(0), StoredOwner.name($0.text(1))) }
    }
}
