import Foundation
import SyncCore
import SyncStorage

/// The server's state in SQLite: the same tables in memory (tests) and in a file that several
/// processes share (devices of several users). Every rule of LocalCloud is written once, over this
/// store, so both modes behave alike by construction.
final class LocalCloudStore {
    /// Owner name public records are stored under (clients see `__defaultOwner__`).
    static let publicOwner = "__public__"

    let database: SQLiteDatabase

    init(_ location: SQLiteDatabase.Location) throws {
        database = try SQLiteDatabase(location)
        do {
            try Self.migrator.migrate(database)
            // The public database's one zone always exists.
            _ = try database.query("INSERT OR IGNORE INTO zones (owner, name, epoch, state, change_seq, min_token_seq) VALUES (?, ?, 0, 0, 0, 0)", [.text(Self.publicOwner), .text(SyncConstants.publicZoneName)])
        } catch MigrationError.newerFile(let fileKind, let unknownSteps) {
            let path = if case .file(let url) = location { " \(url.path)" } else { "" }
            throw MigrationError.newerFile(fileKind: fileKind + path, unknownSteps: unknownSteps)
        } catch MigrationError.otherFile(let fileKind, let firstStep) {
            // A device's store, say, given for the cloud's file: named, and left as it is.
            let path = if case .file(let url) = location { " \(url.path)" } else { "" }
            throw MigrationError.otherFile(fileKind: fileKind + path, firstStep: firstStep)
        }
    }

    /// The file's layout. A file made before steps were recorded runs them all, so each step
    /// leaves such a file right whatever layout it had (version 1, or 2).
    static let migrator = DatabaseMigrator(fileKind: "the LocalCloud file", steps: [
        DatabaseMigrator.Step("localCloud") { database in
            try database.execute(schema)
            try database.query("INSERT OR IGNORE INTO meta (key, value) VALUES ('seq', '0')")
        },
        // Version 1 kept subscriptions per device, and no record's previous version. A file of
        // version 1 keeps its subscriptions, each now its user's, and its devices; its records'
        // previous versions start with their next save.
        DatabaseMigrator.Step("localCloud.userSubscriptions") { database in
            guard try database.tableExists("subscriptions") else { return }
            for column in ["prev_tag TEXT", "prev_fields BLOB", "prev_encrypted BLOB", "prev_parent TEXT"] {
                try database.execute("ALTER TABLE records ADD COLUMN \(column)")
            }
            try database.query("INSERT OR IGNORE INTO user_subscriptions (user, scope, id, record_type) SELECT user, scope, id, record_type FROM subscriptions")
            try database.query("INSERT OR IGNORE INTO push_devices (device, user) SELECT device, user FROM subscriptions")
            try database.query("DROP TABLE subscriptions")
        },
        // The names accounts let themselves be found by (`LocalCloud.addAccount(name:)`).
        DatabaseMigrator.Step("localCloud.accountNames") { database in
            try database.execute("CREATE TABLE IF NOT EXISTS account_names (account TEXT PRIMARY KEY, components TEXT NOT NULL)")
        },
        // The point up to which the server forgot a user's database history
        // (`expireDatabaseChangeTokens`): earlier database tokens have expired.
        DatabaseMigrator.Step("localCloud.databaseHistory") { database in
            try database.execute("CREATE TABLE IF NOT EXISTS database_history (user TEXT NOT NULL, scope TEXT NOT NULL, forgotten INTEGER NOT NULL, PRIMARY KEY (user, scope))")
        },
        // What a query subscription watches beyond its type (its zone, its conditions, the
        // changes that fire it, once or always) and the alert it shows; an older file's
        // subscriptions fire on every change of their type, silently, as they did.
        DatabaseMigrator.Step("localCloud.querySubscriptions") { database in
            for column in ["zone TEXT", "conditions BLOB", "fires TEXT", "once INTEGER NOT NULL DEFAULT 0", "alert TEXT"] {
                try database.addColumnIfMissing(String(column.prefix { $0 != " " }), String(column.drop { $0 != " " }.dropFirst()), to: "user_subscriptions")
            }
            try database.addColumnIfMissing("alert", "TEXT", to: "notifications")
        },
    ])

    private static let schema = """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- Records each participant was handed, so one that leaves their shares reads as deleted.
        CREATE TABLE IF NOT EXISTS participant_views (
            owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL, user TEXT NOT NULL,
            PRIMARY KEY (owner, zone, name, user));
        CREATE TABLE IF NOT EXISTS accounts (
            name TEXT PRIMARY KEY,
            status TEXT NOT NULL);
        -- How people find an account to share with: an email address or a phone number.
        CREATE TABLE IF NOT EXISTS contacts (
            kind TEXT NOT NULL, value TEXT NOT NULL,
            account TEXT NOT NULL,
            PRIMARY KEY (kind, value));
        CREATE TABLE IF NOT EXISTS zones (
            owner TEXT NOT NULL, name TEXT NOT NULL,
            epoch INTEGER NOT NULL,
            state INTEGER NOT NULL,          -- 0 live, 1 deleted, 2 purged by the user, 3 encrypted data reset
            change_seq INTEGER NOT NULL,     -- the last change to the zone or its records
            min_token_seq INTEGER NOT NULL,  -- older tokens have expired
            PRIMARY KEY (owner, name));
        CREATE TABLE IF NOT EXISTS records (
            owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
            type TEXT NOT NULL,
            fields BLOB NOT NULL, encrypted BLOB NOT NULL,
            parent TEXT,
            change_tag TEXT NOT NULL,
            created REAL NOT NULL, modified REAL NOT NULL,
            creator TEXT NOT NULL, modifier TEXT NOT NULL,
            seq INTEGER NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            size INTEGER NOT NULL,
            prev_tag TEXT, prev_fields BLOB, prev_encrypted BLOB, prev_parent TEXT,  -- the version before
            PRIMARY KEY (owner, zone, name));
        CREATE INDEX IF NOT EXISTS records_by_change ON records (owner, zone, seq);
        -- A type's records of a zone in name order: an unsorted query's pages seek from where the
        -- last one ended.
        DROP INDEX IF EXISTS records_by_type;
        CREATE INDEX IF NOT EXISTS records_by_type_and_name ON records (owner, zone, type, deleted, name);
        CREATE INDEX IF NOT EXISTS records_by_parent ON records (owner, zone, parent);
        CREATE TABLE IF NOT EXISTS references_to (
            owner TEXT NOT NULL, zone TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
            PRIMARY KEY (owner, zone, source, target));
        CREATE INDEX IF NOT EXISTS references_by_target ON references_to (owner, zone, target);
        CREATE TABLE IF NOT EXISTS shares (
            owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
            root TEXT,
            title TEXT NOT NULL,
            participants TEXT NOT NULL,      -- JSON
            public_permission TEXT NOT NULL,
            change_tag TEXT NOT NULL,
            seq INTEGER NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (owner, zone, name));
        CREATE INDEX IF NOT EXISTS shares_by_root ON shares (owner, zone, root);
        CREATE TABLE IF NOT EXISTS memberships (
            user TEXT NOT NULL, owner TEXT NOT NULL, zone TEXT NOT NULL, share TEXT NOT NULL,
            permission TEXT NOT NULL,
            active INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            PRIMARY KEY (user, owner, zone, share));
        CREATE TABLE IF NOT EXISTS assets (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            bytes BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS user_subscriptions (
            user TEXT NOT NULL, scope TEXT NOT NULL, id TEXT NOT NULL, record_type TEXT,
            PRIMARY KEY (user, scope, id));
        CREATE INDEX IF NOT EXISTS user_subscriptions_by_type ON user_subscriptions (scope, record_type);
        CREATE TABLE IF NOT EXISTS push_devices (   -- the account each device is signed in to
            device TEXT PRIMARY KEY, user TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS push_devices_by_user ON push_devices (user);
        CREATE TABLE IF NOT EXISTS notifications (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            device TEXT NOT NULL, subscription TEXT NOT NULL, scope TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS schema_fields (
            record_type TEXT NOT NULL, field TEXT NOT NULL,
            value_type TEXT NOT NULL, encrypted INTEGER NOT NULL,
            PRIMARY KEY (record_type, field));
        CREATE TABLE IF NOT EXISTS quotas (   -- storage per owner (a user, or the public database)
            owner TEXT PRIMARY KEY, bytes INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS records_by_owner ON records (owner, deleted);
        CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        """

    /// The next number of the server's one change sequence: every write gets its own, so tokens
    /// and change tags order every change.
    func nextSequence() throws -> Int64 {
        let rows = try database.query("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq' RETURNING value")
        return Int64(rows.first?.text(0) ?? "0") ?? 0
    }

    func currentSequence() throws -> Int64 {
        Int64(try database.query("SELECT value FROM meta WHERE key = 'seq'").first?.text(0) ?? "0") ?? 0
    }

    func count(_ name: String, by amount: Int64 = 1) throws {
        guard amount != 0 else { return }
        try database.query("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", [.text(name), .integer(amount)])
    }
}
