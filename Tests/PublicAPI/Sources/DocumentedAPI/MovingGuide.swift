import Foundation
import SyncRuntime

/// "Moving an app to syncgen": the old app's notes, read from its own SQLite file, imported
/// once, in batches, with their photos. Each note's record name comes from its old id, so every
/// device of the user makes the same records from the same data.
func importOldNotes(from oldStore: URL, photos: URL, into engine: SyncEngine) throws -> ImportProgress {
    let rows = try SQLiteFile(url: oldStore).read(sql: "SELECT id, title, created, photo FROM notes ORDER BY id")
    let notes = rows.lazy.map { row in
        let note = Note(
            recordName: "note-\(row.integer("id") ?? 0)",
            title: row.text("title") ?? "Untitled",
            createdAt: row.double("created").map(Date.init(timeIntervalSince1970:)) ?? Date())
        let photo = row.text("photo").map { ImportedFile(\Note.photo, url: photos.appendingPathComponent($0)) }
        return ImportedModel(note, files: photo.map { [$0] } ?? [])
    }
    return try engine.importModels(notes, as: "notes-from-version-1", batchSize: 500) { progress in
        print("moved \(progress.read) of \(rows.count) notes")
    }
}

/// Once the import is done and its first push went up whole, the old file can go.
func removeOldStoreOnceUploaded(_ oldStore: URL, engine: SyncEngine) async throws {
    guard case .completed = await engine.sync(), engine.status.pendingChanges == 0 else { return }
    try FileManager.default.removeItem(at: oldStore)
}
