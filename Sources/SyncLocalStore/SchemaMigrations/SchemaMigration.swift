import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncStorage

extension SyncStore {
    /// Runs the app's migration to schema version `version` once per store: `body` registers its
    /// backfills (`SchemaMigration.backfill(_:_:)`), which run in one transaction with the
    /// version's mark, so a crash at any write leaves the store as it was, and the next launch
    /// runs the migration whole. A store that reached `version`, or a later one, skips it.
    /// Returns whether it ran.
    ///
    /// What a backfill writes is the app's change, pushed as any edit is: devices that compute
    /// the same value converge with no conflict. A value the cloud already holds is taken instead
    /// of computed, and one computed here yields to one the cloud holds when they meet (a device
    /// upgrading late never writes over what another device, or the user there, put in the field).
    /// Call it after opening the store, before starting the engine, once per version in order.
    @discardableResult
    public func migrate(toSchemaVersion version: Int, _ body: (SchemaMigration) throws -> Void) throws -> Bool {
        try write(author: SchemaMigration.author) { writer in
            if let reached = try Self.schemaVersion(in: writer.database), reached >= version { return false }
            try body(SchemaMigration(writer: writer))
            try writer.database.query("INSERT INTO schema_versions (version, migrated_at) VALUES (?, ?)", [.integer(Int64(version)), .real(writer.now.timeIntervalSince1970)])
            return true
        }
    }

    /// The last schema version this store migrated to (`migrate(toSchemaVersion:_:)`), or nil.
    public func schemaVersion() throws -> Int? {
        try reading { try Self.schemaVersion(in: $0) }
    }

    private static func schemaVersion(in database: SQLiteDatabase) throws -> Int? {
        try database.query("SELECT MAX(version) FROM schema_versions").first.flatMap { $0.isNull(0) ? nil : Int($0.integer(0)) }
    }
}

/// One schema version's migration of a store, inside its transaction
/// (`SyncStore.migrate(toSchemaVersion:_:)`).
public final class SchemaMigration {
    /// The author of a backfill's writes in the store's history: pushed like the app's own.
    public static let author = StoreAuthor.named("backfill")

    private let writer: StoreWriter
    /// Writes the cloud's value where the store had not read it: not a change to push.
    private let settler: StoreWriter

    init(writer: StoreWriter) {
        self.writer = writer
        settler = StoreWriter(database: writer.database, author: .sync, now: writer.now, changes: writer.changes)
    }

    /// Fills `field` of every stored model of its type with `compute(model)`. A record whose
    /// last known cloud version holds the field (another device backfilled it, or the user set it
    /// there) takes that value, and `compute` is not called for it. A model whose field already
    /// holds the computed value is not written. Returns how many models it changed.
    @discardableResult
    public func backfill<Model: SyncModel, Value: Equatable>(
        _ field: WritableKeyPath<Model, Value> & Sendable, _ compute: (Model) throws -> Value
    ) throws -> Int {
        guard let key = Model.fieldName(for: field) else {
            throw LocalStoreError(.other, "\(Model.recordType): \(field) is not a field of the schema; a backfill fills a field")
        }
        var changed = 0
        for var model in try writer.fetchAll(Model.self) {
            let known = try SQLiteStoreTransaction.serverRecord(recordType: Model.recordType, recordName: model.recordName, ownerName: model.ownerName, writer.database)
            if let known, known[field: key] != nil {
                let cloudValue = try Model(record: known)[keyPath: field]
                guard model[keyPath: field] != cloudValue else { continue }
                model[keyPath: field] = cloudValue
                try settler.update(model, changing: [key])
                changed += 1
                continue
            }
            let value = try compute(model)
            guard model[keyPath: field] != value else { continue }
            model[keyPath: field] = value
            try writer.update(model, changing: [key])
            if let stored = model.makeRecord()[field: key] {
                try BackfilledValuesSQL.note(stored, of: key, recordType: Model.recordType, recordName: model.recordName, writer.database)
            }
            changed += 1
        }
        return changed
    }
}
