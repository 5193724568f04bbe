import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// What the engine reads to merge records sharing a natural key (``NaturalKeys``).
extension SQLiteStoreTransaction: NaturalKeyMerges {
    func prepareTable(for type: any SyncModel.Type) throws {
        try prepare(type)
    }

    private func prepare<Model: SyncModel>(_ type: Model.Type) throws {
        _ = try changes.tables.writing(type)
    }

    func naturalKeyChecks() throws -> [RecordKey] {
        try database.query("SELECT type, name FROM natural_key_checks ORDER BY type, name").map { RecordKey($0.text(0), $0.text(1)) }
    }

    func clearNaturalKeyChecks(_ keys: [RecordKey]) throws {
        for key in keys {
            try database.query("DELETE FROM natural_key_checks WHERE type = ? AND name = ?", [.text(key.recordType), .text(key.recordName)])
        }
    }

    func duplicates(of recordName: String, type: any SyncModel.Type) throws -> (owner: String, groups: [[String]])? {
        guard let table = try changes.tables.table(named: type.recordType),
            let stored = try changes.tables.row(recordType: type.recordType, recordName: recordName)
        else { return nil }
        var groups: [[String]] = []
        for key in type.uniqueKeys {
            guard let values = NaturalKeys.values(of: key, in: stored.fields, table: table) else { continue }
            let others = try NaturalKeys.others(key: key, values: values, owner: stored.owner, excluding: recordName, table: table, database)
            if !others.isEmpty { groups.append((others + [recordName]).sorted()) }
        }
        return (stored.owner, groups)
    }

    func noteMergedAway(type: any SyncModel.Type, name: String, into survivor: String, retiring: Bool) throws {
        try database.query("UPDATE natural_key_merges SET survivor = ? WHERE type = ? AND survivor = ?", [.text(survivor), .text(type.recordType), .text(name)])
        // The survivor itself, merged into `name` before (a copy waiting to retire into a record a
        // user deleted since, folded back into it): it is no copy any more, but the record.
        try database.query("DELETE FROM natural_key_merges WHERE type = ? AND name = ? AND survivor = name", [.text(type.recordType), .text(survivor)])
        try database.query("INSERT OR REPLACE INTO natural_key_merges (type, name, survivor, retiring) VALUES (?, ?, ?, ?)",
                           [.text(type.recordType), .text(name), .text(survivor), .integer(retiring ? 1 : 0)])
    }

    func retirements() throws -> [(recordType: String, recordName: String, survivor: String)] {
        try database.query("SELECT type, name, survivor FROM natural_key_merges WHERE retiring = 1 ORDER BY type, survivor, name").map {
            ($0.text(0), $0.text(1), $0.text(2))
        }
    }

    func isRetiring(type: any SyncModel.Type, recordName: String) throws -> Bool {
        try !database.query("SELECT 1 FROM natural_key_merges WHERE type = ? AND name = ? AND retiring = 1", [.text(type.recordType), .text(recordName)]).isEmpty
    }

    func forgetRetirement(recordType: String, recordName: String) throws {
        try database.query("DELETE FROM natural_key_merges WHERE type = ? AND name = ? AND retiring = 1", [.text(recordType), .text(recordName)])
        // Still a copy of its key perhaps, of another survivor now: checked again.
        try NaturalKeys.mark(recordType, recordName, database)
    }

    func survivor(ofMergedAway name: String, type: any SyncModel.Type) throws -> String? {
        try database.query("SELECT survivor FROM natural_key_merges WHERE type = ? AND name = ? AND retiring = 0", [.text(type.recordType), .text(name)]).first?.text(0)
    }

    func recordsReferencing(_ targets: [String], type: any SyncModel.Type, field: String) throws -> [String] {
        guard !targets.isEmpty, let table = try changes.tables.table(named: type.recordType), let column = table.column(named: field) else { return [] }
        if case .reference = column.kind {
            return try database.query(
                "SELECT _name FROM \(table.sqlName) WHERE \(ModelTable.quoted(field)) IN (SELECT value FROM json_each(?)) ORDER BY _name",
                [.text(QuotedText.jsonArray(targets))]
            ).map { $0.text(0) }
        }
        // A list of references is kept whole in its column: each list is read (merging duplicates
        // is rare; nothing else reads this way).
        let wanted = Set(targets)
        var names: [String] = []
        try database.forEachRow("SELECT _name, \(ModelTable.quoted(field)) FROM \(table.sqlName) WHERE \(ModelTable.quoted(field)) IS NOT NULL ORDER BY _name") { row throws(SQLiteError) in
            guard case .list(let items)? = try? column.kind.value(row, 1) else { return }
            if items.contains(where: { if case .reference(let reference) = $0 { wanted.contains(reference.recordName) } else { false } }) {
                names.append(row.text(0))
            }
        }
        return names
    }
}
