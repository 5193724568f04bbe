import SyncCore
import SyncPorts
/// The keys of the engine's small state in the local store, in one place: each is written and
/// read through here, so no two spellings of one key can drift apart.
enum SyncStateKeys {
    /// The signed-in user the store's data belongs to.
    static let account = SignedInAccountKey.stateKey

    /// This device among a record's uploads (`UploadDevice`).
    static let uploadDevice = "upload.device"

    /// The change token of a database's feed.
    static func databaseToken(_ scope: DatabaseScope) -> String {
        "token.database.\(scope.rawValue)"
    }

    /// The change token of one zone's feed, in the database it is read from.
    static func zoneToken(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        zoneTokenPrefix + zoneSuffix(zone, scope)
    }

    static let zoneTokenPrefix = "token.zone."

    /// When a page of one zone's feed was last applied (seconds since 1970): set with its token.
    static func zonePulled(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        zonePulledPrefix + zoneSuffix(zone, scope)
    }

    static let zonePulledPrefix = "pulled.zone."

    /// The record keys one zone's feed was last fetched with (`ModelRegistry.keysSignature`): set
    /// with its token. A zone fetched with fewer keys than the app now reads is fetched again
    /// from scratch (`PullPhase.refetchZonesForNewKeys`).
    static func zoneKeys(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        "keys.zone." + zoneSuffix(zone, scope)
    }

    /// A zone the database's change feed said changed, whose changes this device has not fetched
    /// to their end yet (CKSyncEngine's `zoneIDsWithUnfetchedServerChanges`): set when the feed
    /// lists it, cleared by the transaction that lands its last page, or when the zone goes.
    static func zoneUnfetched(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        zoneUnfetchedPrefix + zoneSuffix(zone, scope)
    }

    static let zoneUnfetchedPrefix = "unfetched.zone."

    /// The fetch from scratch of one zone under way (`ServerVersions.markListed`'s listing), kept
    /// until its last page: a fetch cut off goes on from its last page's token, still listing.
    static func zoneRefetch(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        "refetch.zone." + zoneSuffix(zone, scope)
    }

    /// How a key of one zone's feed names it, after its prefix; `zone(inKey:after:)` reads it back.
    private static func zoneSuffix(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        "\(scope.rawValue).\(zone.ownerName).\(zone.zoneName)"
    }

    /// The zone and database a `zoneToken` or `zonePulled` key names, after its prefix.
    static func zone(inKey key: String, after prefix: String) -> (zone: ZoneID, scope: DatabaseScope)? {
        let parts = key.dropFirst(prefix.count).split(separator: ".", maxSplits: 2).map(String.init)
        guard key.hasPrefix(prefix), parts.count == 3, let scope = DatabaseScope(rawValue: parts[0]) else { return nil }
        return (ZoneID(zoneName: parts[2], ownerName: parts[1]), scope)
    }

    /// Set while the user's deletion of a private zone (in Settings) waits for the app's decision.
    static let userDeletedZonePrefix = "zone.userDeleted."

    static func userDeletedZone(_ zone: ZoneID) -> String {
        userDeletedZonePrefix + zone.zoneName
    }

    /// A share acceptance that could not complete yet.
    static let pendingAcceptancePrefix = "pendingAccept."

    static func pendingAcceptance(_ metadata: ShareMetadata) -> String {
        "\(pendingAcceptancePrefix)\(metadata.ownerName).\(metadata.shareID.zoneID.zoneName).\(metadata.shareID.recordName)"
    }

    /// A zone whose records moved into another zone of its owner (``ZoneMoves``), by the zone and
    /// the database this device reads it in: the value is the name of the zone it moved into.
    static func zoneMoved(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        zoneMovedPrefix + zoneSuffix(zone, scope)
    }

    static let zoneMovedPrefix = "moved.zone."

    /// A move of one of the user's zones this device began (`SyncEngine.moveZone(_:into:)`): the
    /// value is the target's name. Kept until every record this device holds of the zone is in the
    /// target, so a move cut off at any point goes on at the next pass.
    static func zoneMoveBegun(_ zone: ZoneID) -> String {
        zoneMoveBegunPrefix + zone.zoneName
    }

    static let zoneMoveBegunPrefix = "move.begun."

    /// Set once both markers of a move this device began are in the cloud, with its learned move:
    /// what is left is moving the records.
    static func zoneMoveMarked(_ zone: ZoneID) -> String {
        "move.marked." + zone.zoneName
    }

    /// A record whose copy in a zone that moved was deleted before its copy in the zone it moved
    /// into was known here (``ZoneMoves``), by its ID in that zone: the value is its record type.
    /// Kept until the pull looked it up there.
    static func movedCopyToCheck(_ id: RecordID) -> String {
        "\(movedCopyToCheckPrefix)\(id.zoneID.ownerName)\u{1}\(id.zoneID.zoneName)\u{1}\(id.recordName)"
    }

    static let movedCopyToCheckPrefix = "move.check."

    /// A copy left in a zone that moved, sealed by this device, whose deletion this device is about
    /// to send (``ZoneMovePhase``): set before the request goes, so a copy found gone later is
    /// known as this device's own deletion (a reply lost, or the app killed), never taken for the
    /// user's.
    static func movedCopyDeletionSent(_ id: RecordID) -> String {
        "move.deleting.\(id.zoneID.ownerName)\u{1}\(id.zoneID.zoneName)\u{1}\(id.recordName)"
    }

    /// The record a `movedCopyToCheck` key names.
    static func movedCopy(inKey key: String) -> RecordID? {
        let parts = key.dropFirst(movedCopyToCheckPrefix.count).split(separator: "\u{1}", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard key.hasPrefix(movedCopyToCheckPrefix), parts.count == 3 else { return nil }
        return RecordID(recordName: parts[2], zoneID: ZoneID(zoneName: parts[1], ownerName: parts[0]))
    }

    /// The names of the user's zones this device mirrored after its last pass began
    /// (`ZoneMirroring`); none kept: every zone.
    static let mirroredZones = "mirrored.zones"

    /// The copy a participant is keeping of a share they are leaving, while the leave is not done.
    static func copyOfLeftShare(root: String, ownerName: String) -> String {
        "\(copyOfLeftSharePrefix)\(ownerName).\(root)"
    }

    /// The copy a participant is keeping of a zone-wide share they are leaving. No owner is named
    /// "zone" (CloudKit's owner names start with an underscore), so it never meets a root's key.
    static func copyOfLeftShare(zone: ZoneID) -> String {
        "\(copyOfLeftSharePrefix)zone.\(zone.ownerName).\(zone.zoneName)"
    }

    static let copyOfLeftSharePrefix = "leave.copy."

    /// When a catalog type was last refreshed to its end (seconds since 1970), as the clock read
    /// it when that refresh began.
    static func catalogRefreshed(_ recordType: String) -> String {
        catalogRefreshedPrefix + recordType
    }

    static let catalogRefreshedPrefix = "catalog.refreshed."

    /// A refresh of a catalog type asked for (by its subscription or the app) and not done yet:
    /// the number of requests so far, so one made while a refresh runs outlives that refresh.
    static let catalogRequestedPrefix = "catalog.requested."

    static func catalogRequested(_ recordType: String) -> String {
        catalogRequestedPrefix + recordType
    }

    /// When a followed public record (`SyncConfiguration.followedRecords`) was last read, as
    /// `catalogRefreshed` keeps a catalog's; a record type holds no "/", so no key is another's.
    static func followedRecordRefreshed(_ recordType: String, _ recordName: String) -> String {
        "followed.refreshed.\(recordType)/\(recordName)"
    }

    /// A read of a followed public record asked for and not done yet, as `catalogRequested`.
    static func followedRecordRequested(_ recordType: String, _ recordName: String) -> String {
        "followed.requested.\(recordType)/\(recordName)"
    }

    /// A record a page could not deliver (``UnreadableRecords``), by zone and name.
    static let unreadableRecordPrefix = "record.unreadable."

    static func unreadableRecords(in zone: ZoneID) -> String {
        "\(unreadableRecordPrefix)\(zone.ownerName)\u{1}\(zone.zoneName)\u{1}"
    }

    static func unreadableRecord(_ id: RecordID) -> String {
        unreadableRecords(in: id.zoneID) + id.recordName
    }
}
