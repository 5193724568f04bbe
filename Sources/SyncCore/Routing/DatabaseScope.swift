/// The three CloudKit databases a record can live in.
///
/// Which one a record belongs to is decided in one place, `resolve(scopes:ownerName:)`, and read
/// back from a zone in one place, `forZone(_:)`. The private and the public database share the owner
/// name `__defaultOwner__`, so only the zone name tells them apart: never route by owner alone.
public enum DatabaseScope: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case `private`, shared, `public`

    /// The database a record of a model declared with `scopes` lives in, given its zone owner.
    ///
    /// A model that may be private lives in the private database when the current user owns it and
    /// in the shared database when someone else does; a public-only model lives in the public
    /// database. (`[private, public]` is rejected by the schema validator.)
    public static func resolve(scopes: Set<DatabaseScope>, ownerName: String) -> DatabaseScope {
        // A set of at most three: looking at each is cheaper than hashing, on every save.
        if scopes.contains(where: { $0 == .private }) { return forOwner(ownerName) }
        return scopes.contains(where: { $0 == .public }) ? .public : .private
    }

    /// The database a zone belongs to: the public database's one zone is `_defaultZone`; any other
    /// zone is private when the current user owns it and shared otherwise.
    public static func forZone(_ zone: ZoneID) -> DatabaseScope {
        zone.zoneName == SyncConstants.publicZoneName ? .public : forOwner(zone.ownerName)
    }

    /// Private or shared by owner. Never decides "public": owner names cannot tell.
    static func forOwner(_ ownerName: String) -> DatabaseScope {
        ownerName.isEmpty || ownerName == SyncConstants.currentUserOwnerName ? .private : .shared
    }

    public static func < (lhs: DatabaseScope, rhs: DatabaseScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
