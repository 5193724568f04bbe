import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension SQLiteStoreTransaction: StoreHistory {
    private static let historyTokenKey = "history.token"
    /// History entries that are app changes (`StoreAuthor.isEngine`, in SQL).
    static let appChangesOnly = "author != '\(StoreAuthor.sync.storedValue)'"

    func historyToken() throws -> Int64 {
        Int64(try state(Self.historyTokenKey) ?? "0") ?? 0
    }

    func unpushedChanges(limit: Int?) throws -> (changes: [HistoryEntry], readThrough: Int64) {
        let token = try historyToken()
        var changes: [HistoryEntry] = []
        var last = token
        try database.forEachRow("SELECT seq, type, name, kind, author, tombstone FROM history WHERE seq > ? ORDER BY seq LIMIT ?", [.integer(token), .integer(Int64(limit ?? -1))]) { row throws(SQLiteError) in
            last = row.integer(0)
            let author = row.text(4)
            guard !StoreAuthor.isEngine(storedValue: author) else { return }
            changes.append(HistoryEntry(
                sequence: row.integer(0), recordType: row.text(1), recordName: row.text(2),
                kind: ChangeKind(rawValue: Int(row.integer(3))) ?? .save, author: author,
                tombstone: row.isNull(5) ? [:] : Self.tombstone(row.blob(5))))
        }
        return (changes, last)
    }

    private static func tombstone(_ blob: Data) -> [String: String] {
        var tombstone: [String: String] = [:]
        for (name, value) in (try? FieldsCodec.decode(blob)) ?? [:] {
            if case .string(let text) = value { tombstone[name] = text }
        }
        return tombstone
    }

    func hasUnpushedChanges() throws -> Bool {
        try !database.query("SELECT 1 FROM history WHERE seq > ? AND \(Self.appChangesOnly) LIMIT 1", [.integer(try historyToken())]).isEmpty
    }

    func hasLocalChange(recordType: String, recordName: String) throws -> Bool {
        try !database.query(
            """
            SELECT 1 FROM history WHERE seq > ? AND type = ? AND name = ? AND \(Self.appChangesOnly)
            UNION ALL SELECT 1 FROM failed_changes WHERE type = ? AND name = ? LIMIT 1
            """,
            [.integer(try historyToken()), .text(recordType), .text(recordName), .text(recordType), .text(recordName)]
        ).isEmpty
    }

    func recordsWithLocalChanges() throws -> (records: Set<RecordKey>, readThrough: Int64) {
        let changed = try recordsChanged(after: try historyToken())
        return (changed.records.union(try setAsideRecords()), changed.readThrough)
    }

    /// The records with a change set aside.
    func setAsideRecords() throws -> Set<RecordKey> {
        Set(try database.query("SELECT type, name FROM failed_changes").map { RecordKey($0.text(0), $0.text(1)) })
    }

    func recordsChanged(after sequence: Int64) throws -> (records: Set<RecordKey>, readThrough: Int64) {
        var records: Set<RecordKey> = []
        var last = sequence
        // By the history's own key: the entries after a sequence are few, the whole history is not.
        try database.forEachRow("SELECT seq, type, name, author FROM history WHERE seq > ? ORDER BY seq", [.integer(sequence)]) { row throws(SQLiteError) in
            last = row.integer(0)
            if !StoreAuthor.isEngine(storedValue: row.text(3)) { records.insert(RecordKey(row.text(1), row.text(2))) }
        }
        return (records, last)
    }

    func commitHistoryToken(_ sequence: Int64) throws {
        try setState(Self.historyTokenKey, String(sequence))
        // What was read and pushed is no longer needed (the newest entry read stays, so sequence
        // numbers keep growing past the token).
        try database.query("DELETE FROM history WHERE seq < ?", [.integer(sequence)])
    }

    func commitHistoryTokenIfNothingWaits() throws -> Bool {
        guard try !hasUnpushedChanges() else { return false }
        let last = try database.query("SELECT MAX(seq) FROM history").first.flatMap { $0.isNull(0) ? nil : $0.integer(0) }
        if let last, last > (try historyToken()) { try commitHistoryToken(last) }
        return true
    }

    func requeue(recordType: String, recordName: String, ownerName: String) throws {
        guard try changes.tables.isStored(recordType: recordType, recordName: recordName) else { return try queueDeletion(recordType: recordType, recordName: recordName, ownerName: ownerName) }
        try asApp { try $0.recordHistory(type: recordType, name: recordName, kind: .save, tombstone: nil) }
    }

    func dropUnpushedChanges(recordType: String, recordName: String) throws -> Bool {
        let token = try historyToken()
        let waiting = try !database.query(
            "SELECT 1 FROM history WHERE seq > ? AND type = ? AND name = ? AND \(Self.appChangesOnly) LIMIT 1",
            [.integer(token), .text(recordType), .text(recordName)]
        ).isEmpty
        guard waiting else { return false }
        try database.query(
            "UPDATE history SET author = ? WHERE seq > ? AND type = ? AND name = ? AND \(Self.appChangesOnly)",
            [.text(Self.forgotten), .integer(token), .text(recordType), .text(recordName)])
        return true
    }

    func forgetPushedChanges(of records: Set<RecordKey>, through sequence: Int64) throws {
        // One walk of the round's entries by the history's key, then each entry by its key: no
        // scan per record (a round holds up to thousands of them).
        var settled: [Int64] = []
        try database.forEachRow(
            "SELECT seq, type, name FROM history WHERE seq > ? AND seq <= ? AND \(Self.appChangesOnly)", [.integer(try historyToken()), .integer(sequence)]
        ) { row throws(SQLiteError) in
            if records.contains(RecordKey(row.text(1), row.text(2))) { settled.append(row.integer(0)) }
        }
        for seq in settled { try database.query("UPDATE history SET author = ? WHERE seq = ?", [.text(Self.forgotten), .integer(seq)]) }
    }

    /// The author a forgotten entry of the app's takes: the engine's, which nothing reads as a
    /// change to push and the token's next commit prunes. Kept, not deleted: a deleted newest
    /// entry would let the next write take its sequence number again, one a pull already read.
    private static let forgotten = StoreAuthor.sync.storedValue

    func queueDeletion(recordType: String, recordName: String, ownerName: String) throws {
        let tombstone: RecordFields = [RecordFieldNames.recordName: .string(recordName), RecordFieldNames.ownerName: .string(ownerName)]
        try asApp { try $0.recordHistory(type: recordType, name: recordName, kind: .delete, tombstone: tombstone) }
    }
}
