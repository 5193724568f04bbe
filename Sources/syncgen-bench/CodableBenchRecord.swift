import Foundation
import SyncRuntime
import SyncLocalCloud

/// The benchmark model written by hand, Codable, with the same 20 fields as the generated
/// `BenchRecord`: what the reflective and the JSON bridges work on.
struct CodableBenchRecord: Codable, Equatable {
    var recordName: String
    var title: String
    var subtitle: String
    var body: String
    var author: String
    var category: String
    var rank: Int64
    var views: Int64
    var likes: Int64
    var score: Double
    var ratio: Double
    var done: Bool
    var pinned: Bool
    var createdAt: Date
    var updatedAt: Date
    var dueAt: Date?
    var note: String?
    var tags: [String]
    var place: SyncLocation
    var thumbnail: Data
    /// The referenced record's name.
    var owner: String
}

extension BenchRecord {
    /// A record with every field set, different for each `index`.
    static func sample(_ index: Int) -> BenchRecord {
        BenchRecord(
            recordName: "record-\(index)", title: "Title \(index)", subtitle: "Subtitle", body: String(repeating: "body ", count: 8),
            author: "author-\(index % 17)", category: "cat-\(index % 5)", rank: Int64(index), views: Int64(index * 3),
            likes: 7, score: Double(index) / 3, ratio: 0.5, done: index % 2 == 0, pinned: false,
            createdAt: Date(timeIntervalSince1970: Double(index)), updatedAt: Date(timeIntervalSince1970: 1_700_000_000),
            dueAt: index % 3 == 0 ? nil : Date(timeIntervalSince1970: 1_800_000_000), note: index % 4 == 0 ? nil : "note",
            tags: ["a", "b", "c"], place: SyncLocation(latitude: 48.1, longitude: 11.6), thumbnail: Data(repeating: 7, count: 32),
            owner: RecordReference(recordName: "owner-\(index % 11)"))
    }

    var codableTwin: CodableBenchRecord {
        CodableBenchRecord(
            recordName: recordName, title: title, subtitle: subtitle, body: body, author: author, category: category,
            rank: rank, views: views, likes: likes, score: score, ratio: ratio, done: done, pinned: pinned,
            createdAt: createdAt, updatedAt: updatedAt, dueAt: dueAt, note: note, tags: tags, place: place,
            thumbnail: thumbnail, owner: owner.recordName)
    }
}
