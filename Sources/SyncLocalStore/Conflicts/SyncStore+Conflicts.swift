import Foundation
@_spi(SyncgenGenerated) import SyncCore

/// The conflicts sync settled by itself (`RecordConflict`): kept for the app to show, and to take
/// another side's value afterwards, which is an edit like any other and syncs as one.
extension SyncStore {
    /// The record's kept conflicts, newest first.
    public func conflicts<Model: SyncModel>(of type: Model.Type, recordName: String) throws -> [RecordConflict] {
        try sqliteReading { try $0.conflicts(recordType: Model.recordType, recordName: recordName) }
    }

    /// The newest kept conflicts of every record, newest first.
    public func recentConflicts(limit: Int = 100) throws -> [RecordConflict] {
        try sqliteReading { try $0.recentConflicts(limit: limit) }
    }

    /// Sets `field` of the conflict's record to the value `side` had in the conflict (this
    /// device's, the server's, or the one both started from), as an edit of the app's, in one
    /// transaction. Throws ``ConflictValueError`` when the record is no longer stored, or when the
    /// field is not one the conflict names as a field of `type` (an asset's markers are not: attach
    /// the file again instead).
    public func applyConflictValue<Model: SyncModel>(_ side: ConflictSide, of field: String, in conflict: RecordConflict, to type: Model.Type) throws {
        guard conflict.recordType == Model.recordType, let values = conflict.field(field),
            Model.fieldDescriptors.contains(where: { $0.name == field && $0.type != .scalar(.asset) })
        else {
            throw ConflictValueError.notAField(recordType: conflict.recordType, field: field)
        }
        try write { writer in
            let name = conflict.recordID.recordName
            guard var model = try writer.fetch(type, recordName: name) else {
                throw ConflictValueError.recordNotStored(recordType: conflict.recordType, recordName: name)
            }
            var stored = model.encodeStoredFields()
            stored[field] = values.value(side)
            try model.applyStoredFields(from: SyncRecord(recordType: Model.recordType, id: conflict.recordID, fields: stored))
            try writer.save(model)
        }
    }

    /// Forgets a kept conflict (the app has shown it, or the user dismissed it).
    public func dismissConflict(_ conflict: RecordConflict) throws {
        try sqliteTransaction { try $0.removeConflict(id: conflict.id) }
    }
}

/// Why `SyncStore.applyConflictValue` could not take a conflict's value.
public enum ConflictValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The record was deleted since.
    case recordNotStored(recordType: String, recordName: String)
    /// The conflict holds no such field of the model (or it is an asset's marker).
    case notAField(recordType: String, field: String)

    public var description: String {
        switch self {
        case .recordNotStored(let type, let name): "\(type) '\(name)' is no longer stored"
        case .notAField(let type, let field): "the conflict holds no field '\(field)' of \(type) whose value can be taken"
        }
    }
}
