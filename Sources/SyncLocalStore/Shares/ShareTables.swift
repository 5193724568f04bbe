import SyncStorage

/// The shares this user has, as the cloud last returned them (`KnownShares`).
enum ShareTables {
    static let migrations: [DatabaseMigrator.Step] = [
        // `share` is the share as JSON (`ShareRecord`); `permission` what it lets this user do,
        // NULL when the cloud did not say.
        DatabaseMigrator.Step("shares", sql: """
            CREATE TABLE IF NOT EXISTS sync_shares (
                zone_owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
                permission TEXT,
                share TEXT NOT NULL,
                PRIMARY KEY (zone_owner, zone, name));
            """),
    ]
}
