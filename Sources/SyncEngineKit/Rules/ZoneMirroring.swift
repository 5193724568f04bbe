import Foundation
import SyncCore
import SyncPorts

/// Which of the user's zones this device mirrors (`SyncConfiguration.mirroredZones`), settled
/// against what it mirrored before, in one transaction at the start of a pull:
///
/// - A zone dropped is forgotten here and nowhere else: its records go from the store, each as a
///   pull's deletion would take it (nothing goes up), with their server versions, and the device
///   stops following the zone's changes. A record with a change still to go up stays, and so do
///   the records above it: nothing the user wrote is lost, and the push sends it.
/// - A zone chosen is marked as having changes this device has not fetched, so the pull reads
///   it from its start (the database's feed would not name a zone that did not change).
///
/// What was mirrored is kept in the store's state; a store that kept nothing mirrored every zone.
struct ZoneMirroring {
    /// The store topics settling the mirrored zones reads and writes.
    typealias Topics = StoredModels & ServerVersions & EngineState & StoreHistory

    let context: SyncContext

    /// What changed: the zones dropped and the zones chosen, each in name order.
    struct Change: Equatable {
        var dropped: [ZoneID] = []
        var chosen: [ZoneID] = []
    }

    @discardableResult
    func settle(in store: any Topics) throws -> Change {
        let own = context.ownZones
        let now = Set(context.mirroredOwnZones.map(\.zoneName))
        let kept = try store.state(SyncStateKeys.mirroredZones)
        let before = kept.map { Set($0.split(separator: "\n").map(String.init)) } ?? Set(own.map(\.zoneName))
        var change = Change()
        for zone in own {
            switch (before.contains(zone.zoneName), now.contains(zone.zoneName)) {
            case (true, false):
                try forget(zone, in: store)
                change.dropped.append(zone)
            case (false, true):
                try store.setState(SyncStateKeys.zoneUnfetched(zone, .private), "1")
                change.chosen.append(zone)
            default:
                continue
            }
        }
        // Written only when it changed: a pass that changes nothing writes nothing here.
        let written = now.sorted().joined(separator: "\n")
        if kept != written { try store.setState(SyncStateKeys.mirroredZones, written) }
        return change
    }

    /// Forgets a dropped zone here: its records without a change to go up (children before
    /// parents, so a parent above a kept child stays too), their server versions, and where the
    /// device stood in the zone's changes.
    private func forget(_ zone: ZoneID, in store: any Topics) throws {
        let owner = SyncConstants.currentUserOwnerName
        var kept: Set<RecordKey> = []
        for type in childrenFirst(context.zonedTypes(in: zone)) {
            for name in try store.recordNames(type: type, ownerName: owner) {
                let key = RecordKey(type.recordType, name)
                var keep = try store.hasLocalChange(recordType: type.recordType, recordName: name)
                for childType in type.childTypes where !keep {
                    keep = try store.childNames(type: childType, parentRecordName: name).contains { kept.contains(RecordKey(childType.recordType, $0)) }
                }
                if keep {
                    kept.insert(key)
                    continue
                }
                try store.removeServerRecord(RecordID(recordName: name, zoneID: zone))
                try store.deletePulled(type: type, recordName: name)
            }
        }
        try ZoneServerState.stopFollowing(zone, scope: .private, in: store)
    }

    /// The zone's models, each after every model that lives under it.
    private func childrenFirst(_ types: [any SyncModel.Type]) -> [any SyncModel.Type] {
        func depth(_ type: any SyncModel.Type) -> Int {
            var depth = 0
            var parent = type.parentRecordType
            while let name = parent, let next = types.first(where: { $0.recordType == name }), depth < types.count {
                depth += 1
                parent = next.parentRecordType
            }
            return depth
        }
        return types.sorted { depth($0) > depth($1) }
    }
}
