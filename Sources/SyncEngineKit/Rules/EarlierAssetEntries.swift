import SyncCore
import SyncPorts

/// Entries written while a model held one asset name no field (''): each is the file of its
/// model's first asset field, the one on the record keys records carried then. Named at the
/// engine's start, and when an account's parked entries come back.
struct EarlierAssetEntries {
    let context: SyncContext

    /// Moves each such entry's file to its field's place, then keys the entry by the field; a
    /// crash between the two finds the file moved and moves nothing. An entry of a record type
    /// the engine no longer knows with an asset stays until it does.
    func nameTheirFields(_ files: any AssetFileStoring) throws(SyncError) {
        for entry in try context.transaction({ try $0.assetEntriesFromBeforeFields() }) {
            guard let type = context.registry.cacheableType(forRecordType: entry.key.recordType),
                let field = type.assetFields.first(where: { $0.recordKeys == .first })
            else { continue }
            var named = entry
            named.key.field = field.name
            do {
                try files.moveFile(of: entry.key, to: named.key, suffix: entry.suffix)
            } catch {
                throw .assetFiles(.fileSystem(named.key, "the file of an earlier version could not be moved: \(error)"))
            }
            try context.transaction { store in
                try store.removeAssetEntry(entry.key)
                try store.setAssetEntry(named)
            }
        }
    }
}
