import Foundation
import SyncCore

/// What a public catalog's refresh under way has received, so that what it did not receive is
/// found at its end without the catalog held in memory.
/// One topic of ``StoreTransaction``.
package protocol CatalogProgress: AnyObject {
    /// Forgets the records a catalog refresh noted as received: one begins, or one ended.
    func clearCatalogReceived(recordType: String) throws
    /// Notes records a catalog refresh received, page by page, so that what it did not receive
    /// is found at its end without the catalog held in memory.
    func noteCatalogReceived(recordType: String, recordNames: [String]) throws
    /// Up to `limit` names of the stored models of a catalog type that the refresh under way has
    /// not noted as received, in name order after `after` (from the first when nil).
    func catalogRecordsNotReceived(type: any SyncModel.Type, after: String?, limit: Int) throws -> [String]
}
