import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: EngineState {
    func state(_ key: String) throws -> String? {
        try database.query("SELECT value FROM sync_state WHERE key = ?", [.text(key)]).first?.text(0)
    }

    func setState(_ key: String, _ value: String?) throws {
        if let value {
            try database.query("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        } else {
            try database.query("DELETE FROM sync_state WHERE key = ?", [.text(key)])
        }
    }

    func stateKeys(prefix: String) throws -> [String] {
        // `>=` and `<` on the prefix rather than LIKE, whose wildcards a key may hold.
        try database.query("SELECT key FROM sync_state WHERE key >= ? AND key < ? ORDER BY key", [.text(prefix), .text(prefix + "\u{10FFFF}")]).map { $0.text(0) }
    }
}
