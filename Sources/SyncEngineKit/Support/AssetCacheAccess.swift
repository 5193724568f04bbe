import SyncCore
import SyncPorts

/// What every part of the asset cache reaches the same way: its files, the store as asset calls
/// report it, and the announcement of an entry's state.
extension SyncContext {
    /// The cache's files, or why there are none.
    func assetFileStore() throws(AssetError) -> any AssetFileStoring {
        try assetFiles.get()
    }

    /// One transaction of the store, a failure reported as an asset error.
    func assetTransaction<T>(_ body: (any StoreTransaction) throws -> T) throws(AssetError) -> T {
        do {
            return try store.transaction(body)
        } catch let error as AssetError {
            throw error
        } catch {
            throw .store(LocalStoreError(storeFailure: error))
        }
    }

    /// Tells the app where an asset now stands.
    func announce(_ entry: AssetCacheEntry) {
        events.publish(.assetStateChanged(entry.key, entry.state))
    }
}
