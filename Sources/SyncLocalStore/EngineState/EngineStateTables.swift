import SyncStorage

/// The engine's small state: change tokens, the signed-in user, pending share acceptances.
enum EngineStateTables {
    static let migrations: [DatabaseMigrator.Step] = [
        DatabaseMigrator.Step("engineState", sql: "CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);"),
    ]
}
