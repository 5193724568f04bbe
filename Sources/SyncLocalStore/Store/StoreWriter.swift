import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
import SyncStorage

/// Writes inside one store transaction, each stamped with the transaction's author. Valid only
/// inside the `write` call that hands it out.
public final class StoreWriter: ModelWriter {
    let database: SQLiteDatabase
    let author: StoreAuthor
    /// When this transaction's saves happen, unless a save says otherwise.
    let now: Date
    /// Whether this writer recorded a change of the app (never one of the engine's own).
    private(set) var wroteAppChange = false
    /// The records this writer deleted, a parent's subtree included, in the order they went.
    private(set) var deleted: [RecordKey] = []
    /// The transaction's changed models, for the commit feed.
    let changes: TransactionChanges

    init(database: SQLiteDatabase, author: StoreAuthor, now: Date, changes: TransactionChanges) {
        self.database = database
        self.author = author
        self.now = now
        self.changes = changes
    }

    /// Saves a model. The app's saves are checked against what CloudKit accepts first
    /// (`RecordRefusal`); the engine's come from the cloud, which already did.
    public func save<Model: SyncModel>(_ model: Model) throws {
        try save(model, modified: now, checked: !author.isEngine)
    }

    /// Saves with a given modification time: a pulled record keeps the time its writer edited it.
    func save<Model: SyncModel>(_ model: Model, modified: Date, checked: Bool = false) throws {
        try save(model, modified: modified, checked: checked, changing: nil)
    }

    /// Saves a stored model of which only the fields at `keyPaths` changed: their columns and the
    /// model's modification time are written, and the other columns are left as they are (an edit
    /// of one field costs a write of one column, and the indexes of the others are not touched).
    /// The model is checked whole, as `save` checks it. A model the store does not hold as given
    /// (not stored, under another owner or parent, or with values kept beside its columns) is
    /// saved whole. Throws `LocalStoreError` for a key path that is not a field of the schema.
    public func update<Model: SyncModel>(_ model: Model, changing keyPaths: PartialKeyPath<Model>...) throws {
        try update(model, changing: try Self.fieldNames(keyPaths))
    }

    /// `update(_:changing:)` of the fields of these names.
    func update<Model: SyncModel>(_ model: Model, changing names: Set<String>) throws {
        try save(model, modified: now, checked: !author.isEngine, changing: names)
    }

    /// The schema fields the key paths name.
    static func fieldNames<Model: SyncModel>(_ keyPaths: [PartialKeyPath<Model>]) throws -> Set<String> {
        try Set(keyPaths.map { keyPath in
            guard let name = Model.fieldName(for: keyPath) else {
                throw LocalStoreError(.other, "\(Model.recordType): \(keyPath) is not a field of the schema; an update names the fields it changes")
            }
            return name
        })
    }

    /// A save, whole (`changing` nil) or of the fields `changing` names.
    private func save<Model: SyncModel>(_ model: Model, modified: Date, checked: Bool, changing: Set<String>?) throws {
        let stored = model.encodeStoredFields()
        if checked {
            try Self.refuseWhatCloudKitWould(model, stored: stored, modified: modified)
            try refuseReadOnlyShare(model, .save)
        }
        let table = try changes.tables.writing(Model.self)
        if checked, Model.uniqueKeys.contains(where: { key in changing.map { !$0.isDisjoint(with: key) } ?? true }) {
            try refuseDuplicateKeys(of: model, stored: stored, table: table)
        }
        let updated = try changing.map {
            try table.update(name: model.recordName, owner: model.ownerName, parent: model.parentRecordName, modified: modified, fields: stored, only: $0, in: database)
        } ?? false
        if !updated {
            try table.write(name: model.recordName, owner: model.ownerName, parent: model.parentRecordName, modified: modified, fields: stored, to: database)
        }
        try recordHistory(type: Model.recordType, name: model.recordName, kind: .save, tombstone: nil)
        changes.note(Model.recordType, model.recordName, .save, by: author)
    }

    /// Throws ``DuplicateNaturalKey`` when the save would make the model share a natural key with
    /// another record of its owner: a new record, or a key changed to another's. The app's writes
    /// never make a duplicate here (records made on other devices still can, and the engine
    /// merges them); an edit of a record that keeps its key is never refused, even while a
    /// duplicate pulled from another device waits to be merged.
    private func refuseDuplicateKeys<Model: SyncModel>(of model: Model, stored: RecordFields, table: ModelTable) throws {
        guard !Model.uniqueKeys.isEmpty else { return }
        let before = try changes.tables.row(recordType: Model.recordType, recordName: model.recordName)
        for key in Model.uniqueKeys {
            guard let values = NaturalKeys.values(of: key, in: stored, table: table) else { continue }
            if let before, before.owner == model.ownerName, NaturalKeys.values(of: key, in: before.fields, table: table) == values { continue }
            guard let existing = try NaturalKeys.others(key: key, values: values, owner: model.ownerName, excluding: model.recordName, table: table, database).first
            else { continue }
            throw DuplicateNaturalKey(recordType: Model.recordType, recordName: model.recordName, key: key, existingRecordName: existing)
        }
    }

    /// Throws the `RecordRefusal` CloudKit would answer the model's upload with.
    ///
    /// The stored form holds every field the record uploads, under the same names and values, so
    /// a record whose stored form is more than `uploadOverheadBound` under the limit cannot be
    /// over it: only records near the limit are encoded as they upload (the common save costs
    /// nothing more than its name and number checks). A number that cannot sync is refused on a
    /// field kept on this device too: the store gives back what was saved, or refuses it.
    static func refuseWhatCloudKitWould<Model: SyncModel>(_ model: Model, stored: RecordFields, modified: Date) throws(RecordRefusal) {
        if let reason = RecordRefusal.recordNameProblem(model.recordName) {
            throw .invalidRecordName(recordType: Model.recordType, recordName: model.recordName, reason: reason)
        }
        if let (field, value) = RecordRefusal.nonFiniteNumber(in: stored) {
            throw .notFinite(recordType: Model.recordType, recordName: model.recordName, field: field, value: value)
        }
        guard RecordSize.of(stored) > CloudKitLimits.maxRecordBytes - uploadOverheadBound else { return }
        if let refusal = RecordRefusal.check(uploadForm(of: model, modified: modified)) { throw refusal }
    }

    /// More than the runtime adds to a record's uploaded fields beyond its stored ones: the edit
    /// time, the asset markers, the publication lifecycle's fields, two field counts.
    static let uploadOverheadBound = 4096

    /// The record a model uploads, as the push sends it: its fields and the edit time.
    static func uploadForm<Model: SyncModel>(of model: Model, modified: Date) -> SyncRecord {
        var record = model.makeRecord()
        record.fields[RecordFieldNames.clientModifiedAt] = .date(modified)
        return record
    }

    /// Deletes a model and the records under it (`SyncModel.childTypes`), children before
    /// parents; each tombstone keeps the values of its tombstone key paths.
    public func delete<Model: SyncModel>(_ model: Model) throws {
        if !author.isEngine { try refuseReadOnlyShare(model, .delete) }
        try deleteTree(model)
    }

    /// Deletes a model and the records under it, children first.
    private func deleteTree<Model: SyncModel>(_ model: Model) throws {
        for childType in Model.childTypes { try deleteChildren(childType, of: model.recordName) }
        try database.query("DELETE FROM \(try changes.tables.table(for: Model.self).sqlName) WHERE _name = ?", [.text(model.recordName)])
        guard database.changes > 0 else { return }
        deleted.append(RecordKey(Model.recordType, model.recordName))
        var tombstone = RecordFields()
        for keyPath in Model.tombstoneKeyPaths {
            tombstone[keyPath.name] = .string(model[keyPath: keyPath.keyPath])
        }
        try recordHistory(type: Model.recordType, name: model.recordName, kind: .delete, tombstone: tombstone)
        changes.note(Model.recordType, model.recordName, .delete, by: author)
    }

    private func deleteChildren<Child: SyncModel>(_ type: Child.Type, of parent: String) throws {
        for name in try StoreReader(database: database, table: changes.tables.table(for: type)).childNames(parentRecordName: parent) {
            if let child = try fetch(type, recordName: name) { try deleteTree(child) }
        }
    }

    /// One history entry, stamped with this writer's author.
    func recordHistory(type: String, name: String, kind: ChangeKind, tombstone: RecordFields?) throws {
        try database.run("INSERT INTO history (type, name, kind, author, tombstone, at) VALUES (?, ?, ?, ?, ?, ?)") { (parameters: inout SQLiteParameters) throws(SQLiteError) in
            try parameters.set(1, .text(type))
            try parameters.set(2, .text(name))
            try parameters.set(3, .integer(Int64(kind.rawValue)))
            try parameters.set(4, .text(author.storedValue))
            if let tombstone { try parameters.set(5, .blob(FieldsCodec.encode(tombstone))) }
            try parameters.set(6, .real(now.timeIntervalSince1970))
        }
        if !author.isEngine { wroteAppChange = true }
    }

    /// The model of that type and name as this transaction sees it, or nil.
    public func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model? {
        try StoreReader(database: database, table: changes.tables.table(for: type)).fetch(type, recordName: recordName)
    }

    /// Every model of the type as this transaction sees it.
    public func fetchAll<Model: SyncModel>(_ type: Model.Type) throws -> [Model] {
        try StoreReader(database: database, table: changes.tables.table(for: type)).fetchAll(type)
    }
}
