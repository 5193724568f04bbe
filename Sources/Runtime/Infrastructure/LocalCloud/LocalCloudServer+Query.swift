import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension LocalCloudServer {
    /// One page of records of a type, filtered by equal fields and sorted; the cursor is where the
    /// page ended (records changed between pages may move across the boundary, as in CloudKit).
    func query(_ query: RecordQuery, scope: DatabaseScope, caller: Caller, defaultLimit: Int) throws -> QueryPage {
        // Apple, `CKRecord.encryptedValues`: "CloudKit doesn't support indexes on encrypted fields.
        // Don't include encrypted fields in your predicate or sort descriptors".
        for field in query.equalTo.names + query.sortedBy where try isEncryptedInSchema(field, of: query.recordType) {
            throw CloudError(.invalidArguments, "field '\(field)' of record type \(query.recordType) is encrypted; a query can neither filter nor sort on it")
        }
        var matches: [(record: StoredRecord, zone: StoredZone, access: ZoneAccess)] = []
        for (zone, access) in try zonesToSearch(for: query, scope: scope, caller: caller) {
            try database.forEachRow(
                "SELECT \(Self.recordColumns) FROM records WHERE owner = ? AND zone = ? AND type = ? AND deleted = 0",
                [.text(zone.owner), .text(zone.name), .text(query.recordType)]
            ) { row throws(SQLiteError) in
                do {
                    let stored = try storedRecord(row)
                    if query.equalTo.allSatisfy({ stored.fields[$0.name] == $0.value }) {
                        matches.append((stored, zone, access))
                    }
                } catch {
                    throw SQLiteError(code: -1, message: "corrupt record: \(error)")
                }
            }
        }
        matches.sort { lhs, rhs in
            Self.precedes(lhs.record, rhs.record, by: query.sortedBy) ?? ((lhs.zone.name, lhs.record.name) < (rhs.zone.name, rhs.record.name))
        }
        let offset = try query.cursor.map(Self.offset(of:)) ?? 0
        let limit = query.resultsLimit ?? defaultLimit
        let page = matches.dropFirst(offset).prefix(limit)
        var records: [SyncRecord] = []
        for match in page where try isVisible(match.record.name, in: match.zone, access: match.access) {
            records.append(try clientRecord(match.record, zone: match.zone, scope: scope, desiredKeys: query.desiredKeys, viewer: caller.user))
        }
        try store.count("records.fetched", by: Int64(records.count))
        let next = offset + page.count
        return QueryPage(records: records, cursor: next < matches.count ? QueryCursor(archive: Data("query:\(next)".utf8)) : nil)
    }

    /// The zones a query searches: the one it names, or every zone of the database (Apple,
    /// `CKQueryOperation.zoneID`: "If you don't specify a record zone, the search includes all
    /// record zones"). The shared database takes a zone (Apple, `CKDatabase.records(matching:
    /// inZoneWith:)`: "If you're searching a shared database, provide a record zone identifier").
    private func zonesToSearch(for query: RecordQuery, scope: DatabaseScope, caller: Caller) throws -> [(StoredZone, ZoneAccess)] {
        if let zoneID = query.zoneID {
            return [try access(zoneID, scope: scope, caller: caller, writing: false)]
        }
        switch scope {
        case .public:
            return [try access(SyncConstants.publicZone, scope: .public, caller: caller, writing: false)]
        case .shared:
            throw CloudError(.invalidArguments, "a query in the shared database names its zone")
        case .private:
            let user = try signedIn(caller)
            let names = try database.query("SELECT name FROM zones WHERE owner = ? AND state = 0 ORDER BY name", [.text(user)]).map { $0.text(0) }
            return names.map { (StoredZone(owner: user, name: $0), .full) }
        }
    }

    /// Sort order: each key ascending (records without it first); nil when the keys tie, and
    /// the zone and record names decide.
    private static func precedes(_ lhs: StoredRecord, _ rhs: StoredRecord, by keys: [String]) -> Bool? {
        for key in keys {
            let left = lhs.fields[key], right = rhs.fields[key]
            if left == right { continue }
            guard let left else { return true }
            guard let right else { return false }
            if let order = ascending(left, right) { return order }
        }
        return nil
    }

    private static func ascending(_ lhs: SyncFieldValue, _ rhs: SyncFieldValue) -> Bool? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a < b
        case (.int64(let a), .int64(let b)): a < b
        case (.double(let a), .double(let b)): a < b
        case (.date(let a), .date(let b)): a < b
        default: nil
        }
    }

    /// Where a cursor of LocalCloud's (`query:<offset>`) resumes; a cursor it did not write is
    /// refused as CloudKit refuses a malformed request.
    static func offset(of cursor: QueryCursor) throws(CloudError) -> Int {
        let text = String(decoding: cursor.archive, as: UTF8.self)
        guard text.hasPrefix("query:"), let offset = Int(text.dropFirst("query:".count)), offset >= 0 else {
            throw CloudError(.invalidArguments, "not a query cursor of this cloud")
        }
        return offset
    }
}
