/// CloudKit's fixed names the runtime routes by.
public enum SyncConstants {
    /// The owner name CloudKit uses for the current user's own zones (and for the public database).
    public static let currentUserOwnerName = "__defaultOwner__"
    /// The name of the default zone: the public database's only zone.
    public static let publicZoneName = "_defaultZone"
    /// The zone of every public record.
    public static let publicZone = ZoneID(zoneName: publicZoneName, ownerName: currentUserOwnerName)
    /// The custom zone private and shared records live in, unless configured otherwise.
    public static let defaultSyncZoneName = "SyncgenZone"
}
