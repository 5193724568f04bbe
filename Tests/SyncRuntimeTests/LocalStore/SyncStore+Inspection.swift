import Foundation
@testable import SyncEngineKit
@testable import SyncLocalStore
import SyncRuntime
@testable import SyncLocalCloud

/// What tests read (and now and then set) of a store's engine state, each in one transaction of
/// its own, as the engine would.
extension SyncStore {
    func unpushedChanges() throws -> (changes: [HistoryEntry], readThrough: Int64) {
        try sqliteTransaction { try $0.unpushedChanges(limit: nil) }
    }

    func commitHistoryToken(_ sequence: Int64) throws {
        try sqliteTransaction { try $0.commitHistoryToken(sequence) }
    }

    func applyPulled(_ record: SyncRecord, as type: any SyncModel.Type) throws -> [RecordKey] {
        try sqliteTransaction { try $0.applyPulled(record, as: type) }
    }

    func serverRecord(_ id: RecordID) throws -> SyncRecord? {
        try sqliteTransaction { try $0.serverRecord(id) }
    }

    func isStored(_ key: RecordKey) throws -> Bool {
        try sqliteTransaction { try $0.isStored(key) }
    }

    func assetEntry(_ key: AssetKey) throws -> AssetCacheEntry? {
        try sqliteTransaction { try $0.assetEntry(key) }
    }

    func assetEntries(in states: Set<AssetCacheState>?) throws -> [AssetCacheEntry] {
        try sqliteTransaction { try $0.assetEntries(in: states) }
    }

    func setAssetEntry(_ entry: AssetCacheEntry) throws {
        try sqliteTransaction { try $0.setAssetEntry(entry) }
    }

    func failedChanges() throws -> [FailedChange] {
        try sqliteTransaction { try $0.failedChanges() }
    }

    func state(_ key: String) throws -> String? {
        try sqliteTransaction { try $0.state(key) }
    }
}

extension SyncStore {
    func cachedAssetBytes() throws -> Int64 {
        try sqliteTransaction { try $0.cachedAssetBytes() }
    }

    func takeOrphanedAssetEntries() throws -> [AssetCacheEntry] {
        try sqliteTransaction { try $0.takeOrphanedAssetEntries() }
    }
}
