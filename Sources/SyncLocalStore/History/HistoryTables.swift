import SyncStorage

/// The history's table: every write of a model, stamped with its author, in order.
enum HistoryTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("history", sql: """
            -- Sequence numbers only grow: pruning always keeps the newest entry read, so a new entry
            -- never reuses a number at or below the committed token.
            CREATE TABLE IF NOT EXISTS history (
                seq INTEGER PRIMARY KEY,
                type TEXT NOT NULL, name TEXT NOT NULL,
                kind INTEGER NOT NULL,
                author TEXT NOT NULL,
                tombstone BLOB,
                at REAL);
            """),
        // History written before entries carried their time: a waiting change of then shows the
        // model's last save as its time.
        DatabaseMigrator.Step("history.at") { database in
            try database.addColumnIfMissing("at", "REAL", to: "history")
        },
    ]
}
