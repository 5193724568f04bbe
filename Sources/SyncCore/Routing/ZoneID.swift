/// A record zone: a name and the user who owns it.
public struct ZoneID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The zone's name, unique within its owner's database.
    public var zoneName: String
    /// The user who owns the zone (``SyncConstants/currentUserOwnerName`` for the current user).
    public var ownerName: String

    /// A zone; by default one of the current user's.
    public init(zoneName: String, ownerName: String = SyncConstants.currentUserOwnerName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }

    /// Derived from the zone, never stored: see `DatabaseScope.forZone(_:)`.
    public var scope: DatabaseScope { .forZone(self) }

    /// Whether this is a custom zone, not a database's default zone: only custom zones commit a
    /// request's items atomically, track changes and hold shares (Apple, `CKRecordZone`: "Custom
    /// zones support other capabilities too, such as the ability to write multiple records as a
    /// single atomic transaction").
    public var isCustom: Bool { zoneName != SyncConstants.publicZoneName }

    /// The zone a record lives in: the public zone for public records, otherwise the record's
    /// owner's zone of the model's name (`zoneName`, the schema's `zone:`), or of the app's sync
    /// zone (`syncZoneName`) for a model without one. Saves and deletions both route through here,
    /// so a record is always deleted from the zone it was pushed to.
    public static func routing(
        scopes: Set<DatabaseScope>, zoneName: String? = nil, ownerName: String, syncZoneName: String = SyncConstants.defaultSyncZoneName
    ) -> ZoneID {
        if DatabaseScope.resolve(scopes: scopes, ownerName: ownerName) == .public {
            return SyncConstants.publicZone
        }
        return ZoneID(zoneName: zoneName ?? syncZoneName, ownerName: ownerName.isEmpty ? SyncConstants.currentUserOwnerName : ownerName)
    }

    public var description: String { "\(zoneName)/\(ownerName)" }
}
