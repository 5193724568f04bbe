import Foundation
import SyncCore
import SyncPorts

extension SyncDiagnostics {
    /// What the store says, read in one transaction: the part a store file gives without the
    /// engine that wrote it.
    package static func read(from store: any LocalStorePort, at now: Date, includingContents: Bool) throws -> SyncDiagnostics {
        try store.transaction { store in
            let failed = try store.failedChanges()
            var pending: [String: Int] = [:]
            for key in try pendingRecords(in: store, besides: failed) { pending[key.recordType, default: 0] += 1 }
            var entries: [String: Int] = [:]
            for entry in try store.assetEntries(in: nil) { entries[entry.state.rawValue, default: 0] += 1 }
            return SyncDiagnostics(
                takenAt: now,
                account: try store.state(SyncStateKeys.account),
                zones: try zones(in: store),
                pendingChanges: pending,
                setAside: failed.map {
                    SetAsideChange(
                        recordType: $0.recordType, recordName: $0.recordName, ownerName: $0.ownerName, kind: "\($0.kind)",
                        errorCode: $0.error.cloudKitCode, error: $0.error.message, failedAt: $0.failedAt)
                },
                unreadableRecords: try UnreadableRecords.all(in: store).map {
                    UnreadableRecordNote(
                        recordName: $0.id.recordName, zone: "\($0.id.zoneID)", errorCode: $0.error.cloudKitCode, failedFetches: $0.failedFetches,
                        isSetAside: $0.isSetAside, isUnreadableByThisVersion: $0.isUnreadableByThisVersion)
                },
                parked: try store.parkedChanges(),
                pendingAcceptances: try store.stateKeys(prefix: SyncStateKeys.pendingAcceptancePrefix).count,
                recentConflicts: try store.recentConflicts(limit: 20).map { conflict($0, includingContents: includingContents) },
                catalogs: try catalogs(in: store),
                assetCache: AssetCache(entriesByState: entries, bytesOnDevice: try store.cachedAssetBytes(), limit: nil),
                engine: nil)
        }
    }

    /// The records whose change waits to be pushed: changed here, and not among `setAside` (the
    /// store's set-aside changes, read by the caller in the same transaction), by type and name.
    package static func pendingRecords(in store: any StoreTransaction, besides setAside: [FailedChange]) throws -> [RecordKey] {
        let setAsideKeys = Set(setAside.map { RecordKey($0.recordType, $0.recordName) })
        return try store.recordsWithLocalChanges().records.subtracting(setAsideKeys)
            .sorted { ($0.recordType, $0.recordName) < ($1.recordType, $1.recordName) }
    }

    private static func zones(in store: any StoreTransaction) throws -> [Zone] {
        var zones: [String: Zone] = [:]
        // Each state a zone keeps, by its key's prefix, noted on the zone's one entry.
        func each(_ prefix: String, _ note: (inout Zone, _ value: String?) -> Void) throws {
            for key in try store.stateKeys(prefix: prefix) {
                guard let (zone, scope) = SyncStateKeys.zone(inKey: key, after: prefix) else { continue }
                note(&zones["\(scope.rawValue) \(zone)", default: Zone(scope: scope, zoneName: zone.zoneName, ownerName: zone.ownerName, hasToken: false)], try store.state(key))
            }
        }
        try each(SyncStateKeys.zoneTokenPrefix) { zone, _ in zone.hasToken = true }
        try each(SyncStateKeys.zonePulledPrefix) { zone, value in
            zone.lastPulledAt = value.flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:))
        }
        try each(SyncStateKeys.zoneUnfetchedPrefix) { zone, _ in zone.hasUnfetchedChanges = true }
        try each(SyncStateKeys.zoneMovedPrefix) { zone, value in zone.movedInto = value }
        return zones.sorted { $0.key < $1.key }.map(\.value)
    }

    private static func catalogs(in store: any StoreTransaction) throws -> [Catalog] {
        var catalogs: [String: Catalog] = [:]
        for key in try store.stateKeys(prefix: SyncStateKeys.catalogRefreshedPrefix) {
            let type = String(key.dropFirst(SyncStateKeys.catalogRefreshedPrefix.count))
            let refreshed = try store.state(key).flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:))
            catalogs[type] = Catalog(recordType: type, lastRefreshedAt: refreshed, refreshRequested: false)
        }
        for key in try store.stateKeys(prefix: SyncStateKeys.catalogRequestedPrefix) {
            let type = String(key.dropFirst(SyncStateKeys.catalogRequestedPrefix.count))
            catalogs[type, default: Catalog(recordType: type, lastRefreshedAt: nil, refreshRequested: false)].refreshRequested = true
        }
        return catalogs.sorted { $0.key < $1.key }.map(\.value)
    }

    private static func conflict(_ conflict: RecordConflict, includingContents: Bool) -> Conflict {
        let values = includingContents
            ? Dictionary(uniqueKeysWithValues: conflict.fields.map { field in
                (field.field, [field.ancestor, field.local, field.server, field.resolved].map { $0.map { "\($0)" } ?? "none" })
            })
            : nil
        return Conflict(
            recordType: conflict.recordType, recordName: conflict.recordID.recordName, resolvedAt: conflict.resolvedAt,
            fields: conflict.fields.map(\.field), values: values)
    }
}

extension SyncDiagnostics.Zone {
    init(scope: DatabaseScope, zoneName: String, ownerName: String, hasToken: Bool) {
        self.init(scope: scope, zoneName: zoneName, ownerName: ownerName, hasToken: hasToken, lastPulledAt: nil)
    }
}
