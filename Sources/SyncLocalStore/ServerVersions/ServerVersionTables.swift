import SyncCore
import SyncStorage

/// The last server version known of each record (a merge's ancestor, a save's change tag), and
/// the saves sent whose reply was never read.
enum ServerVersionTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("serverVersions", sql: """
            CREATE TABLE IF NOT EXISTS sync_records (
                zone_owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
                type TEXT NOT NULL,
                change_tag TEXT,
                fields BLOB NOT NULL, encrypted BLOB NOT NULL,
                modified REAL,
                parent TEXT,
                share TEXT,
                creator TEXT,
                system_fields BLOB,
                PRIMARY KEY (zone_owner, zone, name));
            -- A record's copies in every zone (a move leaves one behind until it is deleted); only
            -- records under a parent move, so the others cost nothing.
            CREATE INDEX IF NOT EXISTS sync_records_by_name ON sync_records (name) WHERE parent IS NOT NULL;
            -- Saves whose reply was lost: on the server or not, until a version of it says
            -- (`setUnconfirmedUpload`).
            CREATE TABLE IF NOT EXISTS unconfirmed_uploads (
                zone_owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
                type TEXT NOT NULL, fields BLOB NOT NULL, encrypted BLOB NOT NULL, parent TEXT,
                PRIMARY KEY (zone_owner, zone, name));
            """),
        DatabaseMigrator.Step("serverVersions.creator") { database in
            try database.addColumnIfMissing("creator", "TEXT", to: "sync_records")
        },
        // Server versions kept before system fields were: their next save is a new record to the
        // cloud, which answers with its version to merge onto (nothing is lost).
        DatabaseMigrator.Step("serverVersions.systemFields") { database in
            try database.addColumnIfMissing("system_fields", "BLOB", to: "sync_records")
        },
        // Who made a record and who last changed it, and when, as the server says: kept before
        // they were, a version has none until the record's next version arrives.
        DatabaseMigrator.Step("serverVersions.authorship") { database in
            try database.addColumnIfMissing("created", "REAL", to: "sync_records")
            try database.addColumnIfMissing("modifier", "TEXT", to: "sync_records")
            // A model's version by its owner and name (`RecordAuthorshipSQL`), zone aside.
            try database.execute("CREATE INDEX IF NOT EXISTS sync_records_by_owner_name ON sync_records (zone_owner, name)")
        },
        // Saves are kept as sent before they go out, not only once their reply is lost: a device
        // killed before it read a reply knows what the cloud may hold (`noteSent`). Several per
        // record (a save sent again after a crash is another upload); a save kept for a lost
        // reply before goes on as one.
        DatabaseMigrator.Step("serverVersions.sentUploads", sql: """
            -- Without a rowid: the rows live in their key's tree, one tree to write, since every
            -- save that goes out writes one, and its reply deletes it.
            CREATE TABLE IF NOT EXISTS sent_uploads (
                zone_owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL, upload TEXT NOT NULL,
                sent REAL NOT NULL, type TEXT NOT NULL, fields BLOB NOT NULL, encrypted BLOB NOT NULL, parent TEXT,
                PRIMARY KEY (zone_owner, zone, name, upload)) WITHOUT ROWID;
            INSERT OR IGNORE INTO sent_uploads (zone_owner, zone, name, upload, sent, type, fields, encrypted, parent)
                SELECT zone_owner, zone, name, '', 0, type, fields, encrypted, parent FROM unconfirmed_uploads;
            DROP TABLE unconfirmed_uploads;
            """),
        // Which fetch from scratch of its zone last listed a record (`markListed`): what such a
        // fetch did not list, the cloud no longer has.
        DatabaseMigrator.Step("serverVersions.listed") { database in
            try database.addColumnIfMissing("listed", "INTEGER", to: "sync_records")
        },
        // The user's name kept as '' (`StoredOwner`): the owner of most zones, and the maker of
        // most records.
        DatabaseMigrator.Step("serverVersions.userKeptAsEmpty") { database in
            let user = SQLiteValue.text(SyncConstants.currentUserOwnerName)
            for (table, columns) in [("sync_records", ["zone_owner", "creator", "modifier"]), ("sent_uploads", ["zone_owner"]), ("parked_sync_records", ["zone_owner", "creator", "modifier"])]
            where try database.tableExists(table) {
                for column in columns { try database.query("UPDATE \(table) SET \(column) = '' WHERE \(column) = ?", [user]) }
            }
        },
    ]
}
