/// What a participant keeps when they leave someone else's zone-wide share
/// (`SyncEngine.leaveShare(_:keepingACopy:)`): copies in their own zones, as new records of
/// theirs.
public enum ZoneShareCopy: Sendable, Hashable {
    /// Every record of the zone this device holds.
    case wholeZone
    /// Only the records this user created there (the household they leave keeps the rest), each
    /// with the records above it: an item they added to someone else's list takes that list
    /// along, without its other items.
    case ownRecords
}
