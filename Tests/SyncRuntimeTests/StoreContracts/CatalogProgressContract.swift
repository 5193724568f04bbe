import Foundation
import SyncPorts
import Testing

/// `CatalogProgress`: what a catalog refresh received, so the stored models it did not receive
/// are found page by page, in name order.
@Suite("Store contract: catalog progress")
struct CatalogProgressContract {
    @Test(arguments: StoreShape.allCases)
    func whatARefreshDidNotReceiveIsFoundInPages(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        try contract.transaction { (store: any StoredModels & CatalogProgress) in
            for name in ["a", "b", "c", "d"] {
                _ = try store.insertPulled(PublishedNote(recordName: name, title: name).makeRecord(), as: PublishedNote.self)
            }
            try store.clearCatalogReceived(recordType: "PublishedNote")
            try store.noteCatalogReceived(recordType: "PublishedNote", recordNames: ["b"])
        }
        let (first, rest, cleared) = try contract.transaction { (store: any CatalogProgress) in
            let first = try store.catalogRecordsNotReceived(type: PublishedNote.self, after: nil, limit: 2)
            let rest = try store.catalogRecordsNotReceived(type: PublishedNote.self, after: first.last, limit: 2)
            try store.clearCatalogReceived(recordType: "PublishedNote")
            return (first, rest, try store.catalogRecordsNotReceived(type: PublishedNote.self, after: nil, limit: 10))
        }
        #expect(first == ["a", "c"] && rest == ["d"] && cleared == ["a", "b", "c", "d"])
    }
}
