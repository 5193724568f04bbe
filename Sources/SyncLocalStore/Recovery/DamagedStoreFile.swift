import Foundation
import SyncCore

/// A store's file on disk, as healing sees it: the note left beside it when SQLite reports damage
/// while the store runs (the next `SyncStore(healing:)` checks the file), and the move that sets
/// a damaged file aside, with the log and index SQLite keeps beside it, for support.
struct DamagedStoreFile: Sendable {
    let url: URL

    /// The files SQLite keeps for one database: the file, its write-ahead log, the log's index.
    static let companions = ["", "-wal", "-shm"]

    private var notePath: String { url.path + "-damaged" }

    /// What the note says, or nil when there is none.
    var note: String? {
        FileManager.default.contents(atPath: notePath).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Leaves the note (once: the first damage met is the one told).
    func noteDamage(_ problem: String) {
        guard !FileManager.default.fileExists(atPath: notePath) else { return }
        _ = FileManager.default.createFile(atPath: notePath, contents: Data(problem.utf8))
    }

    func forgetNote() {
        try? FileManager.default.removeItem(atPath: notePath)
    }

    /// Whether the store's file is missing while a log of it is there: the log of a database that
    /// is gone (a backup that kept one file and not the other), which SQLite would replay into a
    /// new, empty file, giving pages of a database that is not there.
    var isLogWithoutItsFile: Bool {
        let log = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal"))?[.size] as? NSNumber
        return (log?.int64Value ?? 0) > 0 && !FileManager.default.fileExists(atPath: url.path)
    }

    /// Moves the file and what SQLite keeps beside it to `<name>.damaged-<time>` (and its `-wal`,
    /// `-shm`: SQLite finds them there when the kept file is opened), the note removed. Returns
    /// where the file went.
    func moveAside(at date: Date) throws -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let name = url.path + ".damaged-" + formatter.string(from: date)
        var kept = URL(fileURLWithPath: name)
        var attempt = 1
        while Self.companions.contains(where: { FileManager.default.fileExists(atPath: kept.path + $0) }) {
            attempt += 1
            kept = URL(fileURLWithPath: name + "-\(attempt)")
        }
        for companion in Self.companions where FileManager.default.fileExists(atPath: url.path + companion) {
            try FileManager.default.moveItem(atPath: url.path + companion, toPath: kept.path + companion)
        }
        forgetNote()
        return kept
    }
}
