import Foundation
import SyncCore
import SyncPorts

/// Every record of a zone moved into another zone of its owner at run time, as a household app
/// moves a person's zone into the household's when they start sharing
/// (`SyncEngine.moveZone(_:into:)`). The rules of how a move is announced and learned:
///
/// - A move is announced by a marker (record type `SyncgenZoneMove`, fields `syncgenZoneFrom` and
///   `syncgenZoneInto`),
///   saved in the zone moved out of, then in the zone moved into, before any record moves. The
///   first marker claims the zone: it is saved only if none is there, so two devices that move one
///   zone at once agree on one target.
/// - A pull lands a page's markers before its records. A zone's feed gives its marker before any
///   record the move saved into it or deleted from it, so a device learns "A now lives in B"
///   before it meets a moved record or a copy's deletion, whichever zone it reads first: it sees
///   a move, never a deletion and a new record.
/// - A learned move is kept in the store's state and in memory (``KnownZoneMoves``), and the
///   routing rule (`ZoneRoutes`) sends every save and deletion of the zone's models to the target.
/// - A zone moves once: a zone moved away is never a target again, so moves never form a cycle and
///   may be learned in any order.
struct ZoneMoves {
    let context: SyncContext

    /// The name of a zone's marker in the zone moved out of: one per zone, as a zone moves once.
    static let markerName = "syncgen.zoneMove"

    /// The markers of a move of `zone` into `target`: the claim in `zone`, then the one in the
    /// target, named after the zone it came from (a target may take in several zones).
    static func markers(moving zone: ZoneID, into target: String) -> (claim: SyncRecord, arrival: SyncRecord) {
        let fields: RecordFields = [RecordFieldNames.zoneMovedFrom: .string(zone.zoneName), RecordFieldNames.zoneMovedInto: .string(target)]
        let claim = SyncRecord(recordType: RecordFieldNames.zoneMoveRecordType, id: RecordID(recordName: markerName, zoneID: zone), fields: fields)
        let arrival = SyncRecord(
            recordType: RecordFieldNames.zoneMoveRecordType,
            id: RecordID(recordName: "\(markerName).\(zone.zoneName)", zoneID: ZoneID(zoneName: target, ownerName: zone.ownerName)), fields: fields)
        return (claim, arrival)
    }

    /// The upload ID a device's seal of a copy left in a zone that moved carries (``sealer(of:)``):
    /// the device's 8 digits, then a word no upload ID has (they are hexadecimal), so no save is
    /// taken for a seal.
    static func sealID(device: String) -> String {
        device + sealMark
    }

    /// What follows the device's digits in a seal's upload ID.
    private static let sealMark = "-sealed-"

    /// The device that sealed this version of a copy left in a zone that moved (its newest upload
    /// is a seal), or nil for any other version. A copy's seal is its removal's claim: only the
    /// device that sealed a copy deletes it, so a copy found gone after this device's own seal was
    /// deleted by someone who meant it (``ZoneMovePhase``).
    static func sealer(of version: SyncRecord) -> Substring? {
        guard let newest = version.uploadVersions.first, newest.hasSuffix(sealMark) else { return nil }
        return SyncRecord.uploadDevice(of: newest)
    }

    /// The move a marker announces: the zone moved (of the marker's owner) and the target's name;
    /// nil for a record that is not a marker, or one another app version wrote wrong.
    static func move(in record: SyncRecord) -> (zone: ZoneID, target: String)? {
        guard record.recordType == RecordFieldNames.zoneMoveRecordType,
            case .string(let from)? = record.fields[RecordFieldNames.zoneMovedFrom], case .string(let to)? = record.fields[RecordFieldNames.zoneMovedInto],
            from != to,
            CloudKitNaming.zoneNameProblem(with: from) == nil, CloudKitNaming.zoneNameProblem(with: to) == nil
        else { return nil }
        return (ZoneID(zoneName: from, ownerName: record.id.zoneID.ownerName), to)
    }

    /// Learns the moves a page's markers announce, in the page's transaction: kept in the store's
    /// state, and routed by at once. The first move learned of a zone stands (a zone moves once).
    func learn(_ records: [SyncRecord], scope: DatabaseScope, in store: any EngineState) throws {
        for record in records {
            guard let (zone, target) = Self.move(in: record) else { continue }
            try learn(zone, movedInto: target, scope: scope, in: store)
        }
    }

    /// Learns that `zone` moved into `target`, unless a move of it is known already.
    func learn(_ zone: ZoneID, movedInto target: String, scope: DatabaseScope, in store: any EngineState) throws {
        let key = SyncStateKeys.zoneMoved(zone, scope)
        guard try store.state(key) == nil else { return }
        try store.setState(key, target)
        context.zoneMoves.learn(zone, movedInto: target)
    }

    /// Whether `record` is a copy in a zone that moved away, of a record whose copy in the zone it
    /// moved into is known here: the latter is the record, and the copy is only to be removed.
    func isLeftBehind(_ record: SyncRecord, in store: any ServerVersions) throws -> Bool {
        let routes = context.routes
        guard routes.hasMoved(record.id.zoneID) else { return false }
        return try store.serverRecord(RecordID(recordName: record.id.recordName, zoneID: routes.resolve(record.id.zoneID))) != nil
    }

    /// Queues `record`, just pulled from one of the user's zones that moved away and not known in
    /// the zone it moved into (not ``isLeftBehind(_:in:)``), to be moved by this device, as the
    /// move's device moves the records it holds: its save goes to the target with this copy as
    /// its ancestor, and the copy is then removed (``ZoneMovePhase``). Such a record was saved
    /// into the old zone after the move began, by a device whose pull came just before the
    /// markers and its push just after, or by an app version from before moves existed; or the
    /// move's device has not moved it yet. Moved twice, the second save merges with the first.
    /// A record whose change waits here goes to the target with it; a copy a device sealed is that
    /// device's to move; one in a zone shared with this user is its owner's to move.
    func moveIfSavedIntoMovedZone(_ record: SyncRecord, type: any SyncModel.Type, scope: DatabaseScope, in store: any StoredModels & StoreHistory) throws {
        guard scope == .private, record.id.zoneID.ownerName == SyncConstants.currentUserOwnerName, context.routes.hasMoved(record.id.zoneID),
            Self.sealer(of: record) == nil,
            let stored = try store.parentAndOwner(type: type, recordName: record.id.recordName),
            try !store.hasLocalChange(recordType: type.recordType, recordName: record.id.recordName)
        else { return }
        try store.requeue(recordType: type.recordType, recordName: record.id.recordName, ownerName: stored.owner)
    }

    /// Whether the deletion of `id`, a copy in one of the user's zones that moved, is the user's:
    /// the version kept here is this device's seal, and this device never sent its deletion (only
    /// the device that sealed a copy deletes it). Then the record was deleted by someone who meant
    /// it, and ``deleteEverywhere(_:type:owner:in:)`` follows.
    func isDeletionOfSealedCopy(_ id: RecordID, in store: any ServerVersions & EngineState) throws -> Bool {
        guard context.routes.hasMoved(id.zoneID), let kept = try store.serverRecord(id), let sealer = Self.sealer(of: kept) else { return false }
        return try sealer == UploadDevice.id(in: store)[...] && store.state(SyncStateKeys.movedCopyDeletionSent(id)) == nil
    }

    /// A copy's deletion met by the pull in a zone that moved: a deletion this device noted it was
    /// sending (its reply lost, or the app killed) needs its note no more. Nothing is written for
    /// a zone that did not move.
    func forgetDeletionNote(of id: RecordID, in store: any EngineState) throws {
        guard context.routes.hasMoved(id.zoneID) else { return }
        try store.setState(SyncStateKeys.movedCopyDeletionSent(id), nil)
    }

    /// A copy this device sealed, deleted by someone who meant the record gone: the copy is
    /// forgotten, the deletion arrives at the model, and the moved copy is deleted from the cloud
    /// too (queued as the app's deletion, routed to the zone it moved into).
    func deleteEverywhere(_ id: RecordID, type: any SyncModel.Type, owner: String, in store: any CloudDeletionArrival.Topics & EngineState) throws {
        try store.removeServerRecord(id)
        try store.setState(SyncStateKeys.movedCopyDeletionSent(id), nil)
        let moved = RecordID(recordName: id.recordName, zoneID: context.routes.resolve(id.zoneID))
        try CloudDeletionArrival(context: context).arrive(moved, type: type, from: .pull(alongside: []), in: store)
        try store.queueDeletion(recordType: type.recordType, recordName: id.recordName, ownerName: owner)
    }

    /// A copy in a zone that moved, deleted in the cloud, of a model stored here whose copy in the
    /// zone it moved into is not known here: the move's own deletion of a copy it moved (the
    /// moved copy not pulled yet), or the record's deletion by a device that knew the move. The
    /// model stays, the copy's server version goes, and the record is noted to be looked up in
    /// the zone it moved into (`SyncStateKeys.movedCopyToCheck`), where the pull settles it.
    /// Returns false for any other deletion, which arrives as usual (``CloudDeletionArrival``).
    func deferDeletion(of id: RecordID, type: any SyncModel.Type, in store: any StoredModels & ServerVersions & EngineState) throws -> Bool {
        let routes = context.routes
        guard routes.hasMoved(id.zoneID), try store.parentAndOwner(type: type, recordName: id.recordName) != nil else { return false }
        let moved = RecordID(recordName: id.recordName, zoneID: routes.resolve(id.zoneID))
        guard try store.serverRecord(moved) == nil else { return false }
        try store.removeServerRecord(id)
        try store.setState(SyncStateKeys.movedCopyToCheck(moved), type.recordType)
        return true
    }

    /// The version known here of the record `id` names in a zone that moved into `id`'s zone: the
    /// version its first save there descends from.
    func copyLeftBehind(of id: RecordID, in store: any ServerVersions) throws -> SyncRecord? {
        let routes = context.routes
        for zone in routes.moves.keys.sorted(by: { $0.description < $1.description })
        where zone.ownerName == id.zoneID.ownerName && routes.resolve(zone) == id.zoneID {
            if let copy = try store.serverRecord(RecordID(recordName: id.recordName, zoneID: zone)) { return copy }
        }
        return nil
    }

    /// The moves the store keeps, for ``KnownZoneMoves`` when the engine starts.
    static func kept(in store: any EngineState) throws -> [ZoneID: String] {
        var moves: [ZoneID: String] = [:]
        for key in try store.stateKeys(prefix: SyncStateKeys.zoneMovedPrefix) {
            guard let (zone, _) = SyncStateKeys.zone(inKey: key, after: SyncStateKeys.zoneMovedPrefix), let target = try store.state(key) else { continue }
            moves[zone] = target
        }
        return moves
    }

    /// Why `zone` cannot move into `target` here, or nil: the target's name is one CloudKit
    /// takes, it is another zone, no zone moved away is either of them, this device mirrors the
    /// zone (it holds the records to move), and no share is kept of the zone (a share names its
    /// zone: a participant would lose what it shares).
    func problem(moving zone: ZoneID, into target: String, in store: any KnownShares) throws -> String? {
        let routes = context.routes
        if let problem = CloudKitNaming.zoneNameProblem(with: target) { return "'\(target)' is not a zone name CloudKit takes: \(problem)" }
        if routes.hasMoved(zone) { return "zone '\(zone.zoneName)' moved into '\(routes.resolve(zone).zoneName)' already" }
        if !context.ownZones.contains(zone) {
            return "no model of this app lives in zone '\(zone.zoneName)'; its zones are \(context.ownZones.map(\.zoneName).joined(separator: ", "))"
        }
        if target == zone.zoneName { return "zone '\(target)' cannot move into itself" }
        if !context.mirrors(zone, in: .private) {
            return "this device does not mirror zone '\(zone.zoneName)' (SyncConfiguration.mirroredZones): move it from one that does"
        }
        let targetZone = ZoneID(zoneName: target, ownerName: zone.ownerName)
        if routes.hasMoved(targetZone) { return "zone '\(target)' moved away into '\(routes.resolve(targetZone).zoneName)'; a zone moved away takes no records" }
        if try store.keepsShares(inZone: zone) {
            return "zone '\(zone.zoneName)' holds a share: stop sharing it first, or share the records again once they moved"
        }
        return nil
    }
}
