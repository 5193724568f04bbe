import SyncCore

/// How the store keeps a user's name (a record's owner, its zone's owner, who made or last
/// changed it) in a column: the signed-in user (`SyncConstants.currentUserOwnerName`, the owner
/// of most rows) as '', which takes no byte of a row or an index, and anyone else by name. The
/// one rule for `_owner` in the model tables and for `zone_owner`, `creator` and `modifier` in the
/// server versions (and the saves kept as sent): every write goes through `column`, every read
/// through `name(_:)` or, in SQL, `sql(_:)`. The tables of a few rows each (shares, conflicts,
/// parked changes) keep names as they are.
enum StoredOwner {
    /// The column's value for a user's name.
    static func column(_ name: String) -> String {
        name == SyncConstants.currentUserOwnerName ? "" : name
    }

    /// The user's name a column's value keeps.
    static func name(_ column: String) -> String {
        column.isEmpty ? SyncConstants.currentUserOwnerName : column
    }

    /// `name(_:)` in SQL, of the column `column` (NULL stays NULL).
    static func sql(_ column: String) -> String {
        "(CASE \(column) WHEN '' THEN '\(SyncConstants.currentUserOwnerName)' ELSE \(column) END)"
    }
}
