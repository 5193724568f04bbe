import Foundation

extension LocalCloudServer {
    /// One page of records of a type, filtered by equal fields and sorted; the cursor is where the
    /// page ended (records changed between pages may move across the boundary, as in CloudKit).
    func query(_ query: RecordQuery, scope: DatabaseScope, caller: Caller, defaultLimit: Int) throws -> QueryPage {
        let zoneID = scope == .public ? SyncConstants.publicZone : ZoneID(zoneName: SyncConstants.publicZoneName)
        let (zone, access) = try self.access(zoneID, scope: scope, caller: caller, writing: false)
        // Apple, `CKRecord.encryptedValues`: "CloudKit doesn't support indexes on encrypted fields.
        // Don't include encrypted fields in your predicate or sort descriptors".
        for field in query.equalTo.names + query.sortedBy where try isEncryptedInSchema(field, of: query.recordType) {
            throw CloudError(.invalidArguments, "field '\(field)' of record type \(query.recordType) is encrypted; a query can neither filter nor sort on it")
        }
        var matches: [StoredRecord] = []
        try database.forEachRow(
            "SELECT \(Self.recordColumns) FROM records WHERE owner = ? AND zone = ? AND type = ? AND deleted = 0",
            [.text(zone.owner), .text(zone.name), .text(query.recordType)]
        ) { row throws(SQLiteError) in
            do {
                let stored = try storedRecord(row)
                if query.equalTo.allSatisfy({ stored.fields[$0.name] == $0.value }) {
                    matches.append(stored)
                }
            } catch {
                throw SQLiteError(code: -1, message: "corrupt record: \(error)")
            }
        }
        matches.sort { Self.precedes($0, $1, by: query.sortedBy) }
        let offset = Int(query.cursor.flatMap { Int($0.value) } ?? 0)
        let limit = query.resultsLimit ?? defaultLimit
        let page = matches.dropFirst(offset).prefix(limit)
        var records: [SyncRecord] = []
        for stored in page where try isVisible(stored.name, in: zone, access: access) {
            records.append(try clientRecord(stored, zone: zone, scope: scope, desiredKeys: query.desiredKeys, viewer: caller.user))
        }
        try store.count("records.fetched", by: Int64(records.count))
        let next = offset + page.count
        return QueryPage(records: records, cursor: next < matches.count ? QueryCursor(String(next)) : nil)
    }

    /// Sort order: each key ascending (records without it first), then record name.
    private static func precedes(_ lhs: StoredRecord, _ rhs: StoredRecord, by keys: [String]) -> Bool {
        for key in keys {
            let left = lhs.fields[key], right = rhs.fields[key]
            if left == right { continue }
            guard let left else { return true }
            guard let right else { return false }
            if let order = ascending(left, right) { return order }
        }
        return lhs.name < rhs.name
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
}
