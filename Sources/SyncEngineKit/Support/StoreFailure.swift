import Foundation
import SyncCore
import SyncPorts

extension SyncError {
    /// Runs work on the local store, each failure as what it is: the store's database
    /// (`localStore`, with the store's reason), or a `SyncError` the work threw itself (a request
    /// made inside it, a file of the asset cache).
    static func reportingStoreFailures<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            throw SyncError(storeFailure: error)
        }
    }

    /// A failure met while working on the local store.
    init(storeFailure error: any Error) {
        switch error {
        case let error as SyncError: self = error
        case let error as CloudError: self = .cloud(error)
        case AssetError.store(let failure): self = .localStore(failure)
        case let error as AssetError: self = .assetFiles(error)
        default: self = .localStore(LocalStoreError(storeFailure: error))
        }
    }
}

extension LocalStoreError {
    /// A failure met inside a call to the local store, as the store's error: what the store
    /// threw itself (its database, with the reason), or anything else as `other`.
    init(storeFailure error: any Error) {
        self = error as? LocalStoreError ?? LocalStoreError(.other, "\(error)")
    }
}
