import SyncCore
import SyncPorts
/// The keys of the engine's small state in the local store, in one place: each is written and
/// read through here, so no two spellings of one key can drift apart.
enum SyncStateKeys {
    /// The signed-in user the store's data belongs to.
    static let account = "account.user"

    /// The change token of a database's feed.
    static func databaseToken(_ scope: DatabaseScope) -> String {
        "token.database.\(scope.rawValue)"
    }

    /// The change token of one zone's feed, in the database it is read from.
    static func zoneToken(_ zone: ZoneID, _ scope: DatabaseScope) -> String {
        "token.zone.\(scope.rawValue).\(zone.ownerName).\(zone.zoneName)"
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
}
