import Foundation
@_spi(SyncgenGenerated) import SyncCore
import SyncPorts
import SyncStorage

extension SyncStore {
    /// The author of an import's saves in the store's history: pushed like the app's own.
    package static let importAuthor = StoreAuthor.named("import")

    package func importState(_ name: String) throws -> (progress: ImportProgress, batch: ImportBatch?) {
        try reading { database in
            guard let row = try database.query(
                "SELECT read, imported, skipped, batch_end, batch_imported, batch_skipped FROM imports WHERE name = ?", [.text(name)]
            ).first else { return (ImportProgress(), nil) }
            let progress = ImportProgress(read: Int(row.integer(0)), imported: Int(row.integer(1)), skipped: Int(row.integer(2)))
            let batch = row.isNull(3) ? nil : ImportBatch(end: Int(row.integer(3)), imported: Int(row.integer(4)), skipped: Int(row.integer(5)))
            return (progress, batch)
        }
    }

    /// A batch saved before and read again (the import was killed before it settled) saves
    /// nothing more: its models are stored, and the counts of its first run stay.
    package func saveImportBatch<Model: SyncModel>(_ models: [Model], of name: String, endingAt end: Int) throws -> ImportBatch {
        try write(author: Self.importAuthor) { writer in
            let stored = try writer.changes.tables.storedNames(recordType: Model.recordType, among: models.map(\.recordName))
            let saved = try writer.database.query(
                "SELECT batch_imported, batch_skipped FROM imports WHERE name = ? AND batch_end = ?", [.text(name), .integer(Int64(end))]
            ).first.map { ImportBatch(end: end, imported: Int($0.integer(0)), skipped: Int($0.integer(1))) }
            var imported = 0
            for model in models where !stored.contains(model.recordName) {
                try writer.save(model)
                imported += 1
            }
            var batch = saved ?? ImportBatch(end: end, imported: 0, skipped: models.count)
            batch.imported += imported
            batch.skipped -= imported
            try writer.database.query(
                """
                INSERT INTO imports (name, read, imported, skipped, batch_end, batch_imported, batch_skipped) VALUES (?1, 0, 0, 0, ?2, ?3, ?4)
                ON CONFLICT (name) DO UPDATE SET batch_end = ?2, batch_imported = ?3, batch_skipped = ?4
                """, [.text(name), .integer(Int64(end)), .integer(Int64(batch.imported)), .integer(Int64(batch.skipped))])
            return batch
        }
    }

    package func settleImportBatch(of name: String) throws -> ImportProgress {
        try write { writer in
            try writer.database.query(
                """
                UPDATE imports SET read = batch_end, imported = imported + batch_imported, skipped = skipped + batch_skipped,
                    batch_end = NULL, batch_imported = NULL, batch_skipped = NULL
                WHERE name = ? AND batch_end IS NOT NULL
                """, [.text(name)])
            let row = try writer.database.query("SELECT read, imported, skipped FROM imports WHERE name = ?", [.text(name)]).first
            return row.map { ImportProgress(read: Int($0.integer(0)), imported: Int($0.integer(1)), skipped: Int($0.integer(2))) } ?? ImportProgress()
        }
    }
}
