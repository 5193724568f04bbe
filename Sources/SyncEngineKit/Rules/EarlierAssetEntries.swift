import SyncCore
import SyncPorts

/// Entries written while a model held one asset name no field (''): each is the file of its
/// model's first asset field, the one on the record keys records carried then. The asset phase
/// names them at the engine's start and after an account's parked entries come back: for each,
/// it moves the file to its field's place, then keys the entry by the field here (a crash
/// between the two finds the file moved and moves nothing).
struct EarlierAssetEntries {
    /// The store topics the naming reads and writes.
    typealias Topics = AssetEntries

    let context: SyncContext

    /// Each entry that names no field, with the entry it becomes: keyed by its model's first
    /// asset field. An entry of a record type the engine no longer knows with an asset stays
    /// until it does.
    func namings(in store: any Topics) throws -> [(entry: AssetCacheEntry, named: AssetCacheEntry)] {
        try store.assetEntriesFromBeforeFields().compactMap { entry in
            guard let type = context.registry.cacheableType(forRecordType: entry.key.recordType),
                let field = type.assetFields.first(where: { $0.recordKeys == .first })
            else { return nil }
            var named = entry
            named.key.field = field.name
            return (entry, named)
        }
    }

    /// The entry keyed by its field, once its file is in the field's place.
    func keyByField(_ entry: AssetCacheEntry, as named: AssetCacheEntry, in store: any Topics) throws {
        try store.removeAssetEntry(entry.key)
        try store.setAssetEntry(named)
    }
}
