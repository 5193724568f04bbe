import Foundation
import SyncPorts
import SyncStorage

/// When each kept result of a server query was last kept, for eviction by age, and in what order,
/// for eviction by count: a clock that stands still, or is set back, never reorders them.
extension SQLiteStoreTransaction: KeptResults {
    func noteKept(recordType: String, recordNames: [String], at date: Date) throws {
        var order = try database.query("SELECT COALESCE(MAX(kept_order), 0) FROM kept_results WHERE type = ?", [.text(recordType)]).first?.integer(0) ?? 0
        for name in recordNames {
            order += 1
            try database.query(
                "INSERT OR REPLACE INTO kept_results (type, name, kept_at, kept_order) VALUES (?, ?, ?, ?)",
                [.text(recordType), .text(name), .real(date.timeIntervalSince1970), .integer(order)])
        }
    }

    func keptToEvict(recordType: String, keptBefore: Date?, keeping: Int?) throws -> [String] {
        var names: [String] = []
        if let keptBefore {
            names += try database.query(
                "SELECT name FROM kept_results WHERE type = ? AND kept_at < ? ORDER BY kept_order", [.text(recordType), .real(keptBefore.timeIntervalSince1970)]
            ).map { $0.text(0) }
        }
        if let keeping {
            let aged = Set(names)
            let beyond = try database.query(
                "SELECT name FROM kept_results WHERE type = ? ORDER BY kept_order DESC LIMIT -1 OFFSET ?", [.text(recordType), .integer(Int64(max(keeping, 0)))]
            ).map { $0.text(0) }
            names += beyond.reversed().filter { !aged.contains($0) }
        }
        return names
    }

    func forgetKept(recordType: String, recordNames: [String]) throws {
        for name in recordNames {
            try database.query("DELETE FROM kept_results WHERE type = ? AND name = ?", [.text(recordType), .text(name)])
        }
    }
}
