import Foundation
@_spi(SyncgenGenerated) import SyncCore

/// `BenchRecord`'s bridge as a person would write it for this one model: every field named in
/// code, encoded straight into the record (the empty optionals listed as cleared), decoded by
/// name with the same checks of each value's type. The floor the generated bridge is held to.
enum HandWrittenBridge {
    static func record(of model: BenchRecord) -> SyncRecord {
        var fields = RecordFields(minimumCapacity: 20)
        fields.append("title", .string(model.title))
        fields.append("subtitle", .string(model.subtitle))
        fields.append("body", .string(model.body))
        fields.append("author", .string(model.author))
        fields.append("category", .string(model.category))
        fields.append("rank", .int64(model.rank))
        fields.append("views", .int64(model.views))
        fields.append("likes", .int64(model.likes))
        fields.append("score", .double(model.score))
        fields.append("ratio", .double(model.ratio))
        fields.append("done", .int64(model.done ? 1 : 0))
        fields.append("pinned", .int64(model.pinned ? 1 : 0))
        fields.append("createdAt", .date(model.createdAt))
        fields.append("updatedAt", .date(model.updatedAt))
        var cleared: Set<String> = []
        if let dueAt = model.dueAt { fields.append("dueAt", .date(dueAt)) } else { cleared.insert("dueAt") }
        if let note = model.note { fields.append("note", .string(note)) } else { cleared.insert("note") }
        fields.append("tags", .list(model.tags.map { .string($0) }))
        fields.append("place", .location(model.place))
        fields.append("thumbnail", .bytes(model.thumbnail))
        if model.owner.isSet {
            fields.append("owner", .reference(SyncReference(recordName: model.owner.recordName)))
        } else {
            cleared.insert("owner")
        }
        var record = SyncRecord(recordType: BenchRecord.recordType, id: RecordID(recordName: model.recordName, zoneID: model.zoneID()), fields: fields)
        record.clearedKeys = cleared
        return record
    }

    static func model(from record: SyncRecord) throws(FieldDecodingError) -> BenchRecord {
        var model = BenchRecord(recordName: record.id.recordName, ownerName: record.id.zoneID.ownerName, owner: .unset)
        if let value = try record.decode("title", as: String.self) { model.title = value }
        if let value = try record.decode("subtitle", as: String.self) { model.subtitle = value }
        if let value = try record.decode("body", as: String.self) { model.body = value }
        if let value = try record.decode("author", as: String.self) { model.author = value }
        if let value = try record.decode("category", as: String.self) { model.category = value }
        if let value = try record.decode("rank", as: Int64.self) { model.rank = value }
        if let value = try record.decode("views", as: Int64.self) { model.views = value }
        if let value = try record.decode("likes", as: Int64.self) { model.likes = value }
        if let value = try record.decode("score", as: Double.self) { model.score = value }
        if let value = try record.decode("ratio", as: Double.self) { model.ratio = value }
        if let value = try record.decode("done", as: Bool.self) { model.done = value }
        if let value = try record.decode("pinned", as: Bool.self) { model.pinned = value }
        if let value = try record.decode("createdAt", as: Date.self) { model.createdAt = value }
        if let value = try record.decode("updatedAt", as: Date.self) { model.updatedAt = value }
        model.dueAt = try record.decode("dueAt", as: Date.self)
        model.note = try record.decode("note", as: String.self)
        if let value = try record.decode("tags", as: [String].self) { model.tags = value }
        if let value = try record.decode("place", as: SyncLocation.self) { model.place = value }
        if let value = try record.decode("thumbnail", as: Data.self) { model.thumbnail = value }
        if let value = try record.decodeReference("owner", to: BenchRecord.self) { model.owner = value }
        return model
    }
}
