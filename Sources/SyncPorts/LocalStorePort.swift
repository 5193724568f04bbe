import Foundation
import SyncCore

/// The local store as the sync engine sees it. `SyncStore` implements it; only the engine (and
/// this package's tests) reach it: an app reads and writes through `SyncStore`'s own API.
///
/// The engine reads and writes only inside `transaction`: what it commits together (a pulled page
/// with its server versions and change token, a push's results, a merge and its ancestor) lands
/// whole or not at all, and no write of the app interleaves with it. A crash between two
/// transactions leaves the store as one of them left it; nothing is ever half-applied.
package protocol LocalStorePort: ModelImports {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (any StoreTransaction) throws -> T) throws -> T

    /// Runs `body` in one transaction, its model writes stamped with `author` (the engine's
    /// app-facing calls: publishing, deleting a shared root).
    func write<T>(author: StoreAuthor, _ body: (any ModelWriter) throws -> T) throws -> T

    /// Fires after the app's writes (never the engine's own).
    func changes() -> AsyncStream<Void>
}

/// One transaction of the local store, as the sync engine uses it: every topic of the store,
/// valid only inside the `transaction` call that hands it out. A rule that needs fewer topics
/// takes only those (`any ServerVersions & StoredModels`).
package typealias StoreTransaction = StoreHistory & StoredModels & NaturalKeyMerges & ServerVersions & SetAsideChanges & ConflictLog & AccountParking & EngineState & CatalogProgress & AssetEntries & KnownShares & KeptResults & LostChangeNotices
    & BackfilledValues

/// Typed writes inside one local-store transaction.
package protocol ModelWriter: AnyObject {
    func save<Model: SyncModel>(_ model: Model) throws
    func delete<Model: SyncModel>(_ model: Model) throws
    func fetch<Model: SyncModel>(_ type: Model.Type, recordName: String) throws -> Model?
}
