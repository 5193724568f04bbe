import Foundation
import SyncCore
import SyncStorage

/// The reports of stores healed, kept until the app acknowledges them.
extension SQLiteStoreTransaction {
    func recordRecovery(_ report: StoreRecovery) throws {
        let recovered = try JSONEncoder().encode(report.recovered.map { [$0.recordType, $0.recordName] })
        let notRecovered = try JSONEncoder().encode(report.notRecovered)
        try database.query(
            "INSERT INTO store_recoveries (outcome, problem, damaged_file, recovered, not_recovered, at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(report.outcome.rawValue), .text(report.problem), report.damagedFile.map { .text($0.path) } ?? .null,
             .text(String(decoding: recovered, as: UTF8.self)), .text(String(decoding: notRecovered, as: UTF8.self)),
             .real(report.date.timeIntervalSince1970)])
    }

    func recoveries() throws -> [StoreRecovery] {
        try database.query("SELECT outcome, problem, damaged_file, recovered, not_recovered, at FROM store_recoveries ORDER BY id").map { row in
            let recovered = try JSONDecoder().decode([[String]].self, from: Data(row.text(3).utf8))
            return StoreRecovery(
                outcome: StoreRecovery.Outcome(rawValue: row.text(0)) ?? .rebuilt, problem: row.text(1),
                damagedFile: row.optionalText(2).map { URL(fileURLWithPath: $0) },
                recovered: recovered.compactMap { $0.count == 2 ? RecordKey($0[0], $0[1]) : nil },
                notRecovered: try JSONDecoder().decode([String].self, from: Data(row.text(4).utf8)),
                date: Date(timeIntervalSince1970: row.real(5)))
        }
    }

    func forgetRecoveries() throws {
        try database.execute("DELETE FROM store_recoveries")
    }
}
