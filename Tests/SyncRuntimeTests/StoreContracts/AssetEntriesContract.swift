import Foundation
import SyncCore
import SyncPorts
import Testing

/// `AssetEntries`: one entry per asset field, read by key, record or state; the bytes on the
/// device follow every change of them.
@Suite("Store contract: asset entries")
struct AssetEntriesContract {
    static func entry(_ name: String, _ state: AssetCacheState, size: Int64, pinned: Bool = false) -> AssetCacheEntry {
        AssetCacheEntry(key: AssetKey(\Note.cover, recordName: name), state: state, suffix: "jpg", byteSize: size, isPinned: pinned)
    }

    /// Breaking it: bytes not following a change of state count a file that is gone, and the
    /// cache evicts what it need not.
    @Test(arguments: StoreShape.allCases)
    func entriesAreReadByKeyRecordAndStateAndTheirBytesFollow(_ shape: StoreShape) throws {
        let contract = try ContractStore(shape)
        let read = try contract.transaction { (store: any AssetEntries) in
            try store.setAssetEntry(Self.entry("a", .local, size: 10))
            try store.setAssetEntry(Self.entry("b", .cached, size: 5, pinned: true))
            try store.setAssetEntry(Self.entry("c", .remote, size: 100))
            return (try store.assetEntry(AssetKey(\Note.cover, recordName: "a"))?.state, try store.assetEntries(recordType: "Note", recordName: "b").count,
                    try store.assetEntries(in: [.remote]).map(\.key.recordName), try store.pinnedAssetEntries(in: [.cached]).map(\.key.recordName),
                    try store.cachedAssetBytes())
        }
        #expect(read.0 == .local && read.1 == 1 && read.2 == ["c"] && read.3 == ["b"])
        #expect(read.4 == 15, "files on this device only")
        let bytes = try contract.transaction { (store: any AssetEntries) in
            try store.setAssetEntry(Self.entry("c", .cached, size: 100))
            try store.removeAssetEntry(AssetKey(\Note.cover, recordName: "a"))
            return try store.cachedAssetBytes()
        }
        #expect(bytes == 105)
    }
}
