import Foundation
import Testing
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime

/// What the store keeps so that an idle pass does not read the whole asset cache: the bytes of
/// the files on this device, and the entries whose model was deleted. Both are kept by triggers;
/// these tests hold them against the entries themselves.
@Suite("Asset cache: the store's bookkeeping")
struct AssetCacheBookkeepingTests {
    private func entry(_ name: String, _ state: AssetCacheState, _ size: Int64, pinned: Bool = false) -> AssetCacheEntry {
        AssetCacheEntry(key: AssetKey(\Note.cover, recordName: name), state: state, suffix: "jpg", byteSize: size, isPinned: pinned)
    }

    /// The bytes counted from the entries, as eviction counted them before the store kept them.
    private func countedBytes(_ store: SyncStore) throws -> Int64 {
        try store.assetEntries(in: nil).filter(\.state.hasLocalFile).reduce(0) { $0 + $1.byteSize }
    }

    /// Breaking it: leave out the update trigger, or count a state without a file, and the kept
    /// total parts from the entries at the state change or at the reopening.
    @Test func theKeptBytesFollowEveryWriteAndReopening() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("asset-bytes-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let store = try SyncStore(url: url)
            try store.save([Note(recordName: "a"), Note(recordName: "b"), Note(recordName: "c")])
            try store.setAssetEntry(entry("a", .local, 100))
            try store.setAssetEntry(entry("b", .remote, 70))
            try store.setAssetEntry(entry("c", .cached, 30))
            #expect(try store.cachedAssetBytes() == 130)
            try store.setAssetEntry(entry("b", .cached, 70))  // downloaded
            try store.setAssetEntry(entry("c", .remote, 30))  // evicted
            try store.setAssetEntry(entry("a", .local, 250))  // another file attached
            #expect(try store.cachedAssetBytes() == 320)
            #expect(try store.cachedAssetBytes() == countedBytes(store))
            try store.sqliteTransaction { try $0.removeAssetEntry(AssetKey(\Note.cover, recordName: "b")) }
            #expect(try store.cachedAssetBytes() == 250)
        }
        let reopened = try SyncStore(url: url)
        #expect(try reopened.cachedAssetBytes() == 250)
        #expect(try reopened.cachedAssetBytes() == countedBytes(reopened))
    }

    /// Breaking it: drop the deletion trigger of the model tables, and the deleted model's entry
    /// is never found; skip the check of the model, and the saved-again one is lost.
    @Test func aDeletedModelsEntryIsFoundOnceAndASavedAgainOneIsKept() throws {
        let store = try SyncStore(url: nil)
        try store.save([Note(recordName: "gone"), Note(recordName: "back"), Note(recordName: "kept")])
        for name in ["gone", "back", "kept"] { try store.setAssetEntry(entry(name, .cached, 10)) }
        #expect(try store.takeOrphanedAssetEntries().isEmpty)
        try store.delete(Note.self, recordName: "gone")
        try store.delete(Note.self, recordName: "back")
        try store.save(Note(recordName: "back"))
        #expect(try store.takeOrphanedAssetEntries().map(\.key.recordName) == ["gone"])
        #expect(try store.takeOrphanedAssetEntries().isEmpty, "each deletion is told once")
    }

    /// An entry whose model went while nothing watched (a store of an earlier version) is found
    /// when the store opens. Breaking it: skip the scan at opening.
    @Test func anEntryWithoutItsModelAtOpeningIsFound() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("asset-orphans-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let store = try SyncStore(url: url)
            try store.save(Note(recordName: "here"))
            try store.setAssetEntry(entry("here", .cached, 10))
            try store.setAssetEntry(entry("never", .cached, 10))
            _ = try store.takeOrphanedAssetEntries()
        }
        let reopened = try SyncStore(url: url)
        #expect(try reopened.takeOrphanedAssetEntries().map(\.key.recordName) == ["never"])
    }
}
