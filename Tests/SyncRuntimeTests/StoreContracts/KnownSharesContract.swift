import Foundation
import SyncCore
import SyncPorts
import Testing

/// `KnownShares`: a share kept as the cloud returned it, over the one of its ID, until forgotten
/// by ID or with its zone, and whether a zone keeps any; what the app reads offline (`SyncStore.knownShare(of:)`).
@Suite("Store contract: known shares")
struct KnownSharesContract {
    @Test(arguments: StoreShape.allCases)
    func aShareIsKeptOverItsLastVersionUntilForgotten(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let root = SharedList(recordName: "groceries", title: "Groceries")
        let id = RecordID(recordName: "share-groceries", zoneID: ContractStore.zone)
        var share = ShareRecord(id: id, rootRecordName: "groceries", participants: [], publicPermission: .none)
        try contract.transaction { (store: any KnownShares & ServerVersions) in
            // A root names its share in its server version: that is how its share is found.
            var rootVersion = root.makeRecord(syncZoneName: ContractStore.zone.zoneName)
            rootVersion.shareRecordName = id.recordName
            try store.setServerRecord(rootVersion)
            try store.keepShare(share)
        }
        share.publicPermission = .readOnly
        try contract.transaction { (store: any KnownShares) in try store.keepShare(share) }
        #expect(try contract.store.knownShare(of: root)?.publicPermission == .readOnly)
        #expect(try contract.transaction { (store: any KnownShares) in
            try store.keepsShares(inZone: ContractStore.zone) && !store.keepsShares(inZone: ZoneID(zoneName: "Other"))
        }, "a zone keeps a share, another none")
        try contract.transaction { (store: any KnownShares) in try store.forgetShare(id) }
        #expect(try contract.store.knownShare(of: root) == nil)
        try contract.transaction { (store: any KnownShares) in
            try store.keepShare(share)
            try store.forgetShares(inZone: ContractStore.zone)
        }
        #expect(try contract.store.knownShare(of: root) == nil)
        #expect(try !contract.transaction { (store: any KnownShares) in try store.keepsShares(inZone: ContractStore.zone) })
    }
}
