import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// What a catalog refresh under way has received, kept in the store rather than in memory: a
/// catalog of any size is reconciled a page at a time.
extension SQLiteStoreTransaction: CatalogProgress {
    func clearCatalogReceived(recordType: String) throws {
        try database.query("DELETE FROM catalog_received WHERE type = ?", [.text(recordType)])
    }

    func noteCatalogReceived(recordType: String, recordNames: [String]) throws {
        for name in recordNames {
            try database.query("INSERT OR IGNORE INTO catalog_received (type, name) VALUES (?, ?)", [.text(recordType), .text(name)])
        }
    }

    func catalogRecordsNotReceived(type: any SyncModel.Type, after: String?, limit: Int) throws -> [String] {
        guard let table = try changes.tables.table(named: type.recordType) else { return [] }
        // The model table's primary key gives the order and the seek; the received table's
        // primary key answers each probe.
        return try database.query(
            """
            SELECT _name FROM \(table.sqlName) WHERE _name > ?
                AND NOT EXISTS (SELECT 1 FROM catalog_received WHERE type = ? AND name = _name)
            ORDER BY _name LIMIT ?
            """,
            [.text(after ?? ""), .text(type.recordType), .integer(Int64(max(limit, 1)))]
        ).map { $0.text(0) }
    }
}
