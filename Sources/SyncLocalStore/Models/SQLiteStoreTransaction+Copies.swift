@_spi(SyncgenGenerated) import SyncCore

extension SQLiteStoreTransaction {
    func saveCopy(type: any SyncModel.Type, recordName: String, as copyName: String, ownerName: String, renaming names: [String: String]) throws -> String? {
        try saveCopy(type, recordName, copyName, ownerName, names)
    }

    /// The copy is made from the model's stored form (local-only fields included), so it holds
    /// everything the device keeps of the original.
    private func saveCopy<Model: SyncModel>(_ type: Model.Type, _ recordName: String, _ copyName: String, _ ownerName: String, _ names: [String: String]) throws -> String? {
        try asApp { writer in
            guard let original = try writer.fetch(type, recordName: recordName) else { return nil }
            var fields = RecordFields()
            for (name, value) in original.encodeStoredFields() { fields[name] = Self.renamingReferences(in: value, names) }
            var copy = Model(emptyRecordNamed: copyName, ownerName: ownerName)
            try copy.applyStoredFields(from: SyncRecord(recordType: Model.recordType, id: RecordID(recordName: copyName, zoneID: ZoneID(zoneName: "", ownerName: ownerName)), fields: fields))
            do {
                try writer.save(copy)
            } catch let duplicate as DuplicateNaturalKey {
                return duplicate.existingRecordName
            }
            return copyName
        }
    }

    /// A value with every reference (the parent's, a list's items) to a renamed record renamed.
    private static func renamingReferences(in value: SyncFieldValue, _ names: [String: String]) -> SyncFieldValue {
        switch value {
        case .reference(var reference):
            reference.recordName = names[reference.recordName] ?? reference.recordName
            return .reference(reference)
        case .list(let items):
            return .list(items.map { renamingReferences(in: $0, names) })
        default:
            return value
        }
    }
}
