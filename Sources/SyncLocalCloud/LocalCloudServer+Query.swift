import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension LocalCloudServer {
    /// One page of records of a type, filtered and sorted; the cursor is the offset where the page
    /// ended. Apple, `CKQueryOperation.init(cursor:)`: "A cursor isn't a snapshot of the previous
    /// search results; it stores a relative offset into the results list. An operation that you
    /// create from a cursor performs a new search, sorts the new set of results, and uses the
    /// previous offset value to determine where the next batch of results starts." So a record
    /// removed before the cursor between two pages makes the next page pass over one that
    /// exists, and one added before it makes a record come twice.
    ///
    /// A query without sort keys is in zone and record name order. While nothing changed since
    /// its cursor, a page seeks from the last record the cursor names; otherwise, without
    /// conditions, SQLite skips to the offset in the index, reading no record before it, and with
    /// conditions the records before the offset are read to find the matches. A sorted query
    /// reads the type's records to sort them.
    func query(_ query: RecordQuery, scope: DatabaseScope, caller: Caller, limit: Int, indexes: [String: [String: Set<String>]]? = nil, locationResolution: Double = 0
    ) throws -> QueryPage {
        if let reason = query.inexpressibleCondition { throw CloudError(.invalidArguments, reason) }
        // Apple, `CKRecord.encryptedValues`: "CloudKit doesn't support indexes on encrypted fields.
        // Don't include encrypted fields in your predicate or sort descriptors".
        for field in query.conditions.map(\.field) + query.sorts.map(\.field) where try isEncryptedInSchema(field, of: query.recordType) {
            throw CloudError(.invalidArguments, "field '\(field)' of record type \(query.recordType) is encrypted; a query can neither filter nor sort on it")
        }
        let deployed = indexes.map { $0[query.recordType] ?? [:] }
        if let deployed, let missing = Self.missingIndex(query, deployed) { throw CloudError(.invalidArguments, missing) }
        let matcher = RecordMatcher(query.conditions, deployed: deployed, locationResolution: locationResolution)
        let zones = try zonesToSearch(for: query, scope: scope, caller: caller)
        let (page, cursor) = query.sorts.isEmpty
            ? try unsortedPage(of: query, matching: matcher, in: zones, limit: limit)
            : try sortedPage(of: query, matching: matcher, in: zones, limit: limit)
        var records: [SyncRecord] = []
        var unreadable: [RecordID: CloudError] = [:]
        for match in page where try isVisible(match.record.name, in: match.zone, access: match.access) {
            if let fault = readFault(match.record.name) {
                unreadable[RecordID(recordName: match.record.name, zoneID: clientZoneID(match.zone, scope: scope))] = fault
                continue
            }
            records.append(try clientRecord(match.record, zone: match.zone, scope: scope, desiredKeys: query.desiredKeys, viewer: caller.user))
        }
        try store.count("records.fetched", by: Int64(records.count))
        return QueryPage(records: records, cursor: cursor, unreadableRecords: unreadable)
    }

    private typealias Match = (record: StoredRecord, zone: StoredZone, access: ZoneAccess)

    /// The `limit` matches in zone and record name order from the cursor's offset, and the cursor
    /// of the page after them (nil when none is left).
    private func unsortedPage(of query: RecordQuery, matching matcher: RecordMatcher, in zones: [(StoredZone, ZoneAccess)], limit: Int) throws -> ([Match], QueryCursor?) {
        let resume = try query.cursor.map(resumePoint(of:))
        let offset = resume?.offset ?? 0
        let ordered = zones.sorted { $0.0.name.utf8.lexicographicallyPrecedes($1.0.name.utf8) }
        // Nothing changed since the cursor: the page after its last record is the offset's page.
        let after = try resume.flatMap { point in try ordered.allSatisfy { try currentZoneSequence($0.0) <= point.issued } ? point.last : nil }
        var skip = after == nil ? offset : 0
        var matches: [Match] = []
        for (zone, access) in ordered {
            if let after, zone.name.utf8.lexicographicallyPrecedes(after.zone.utf8) { continue }
            var sql = "SELECT \(Self.recordColumns) FROM records WHERE owner = ? AND zone = ? AND type = ? AND deleted = 0"
            var arguments: [SQLiteValue] = [.text(zone.owner), .text(zone.name), .text(query.recordType)]
            if let after, after.zone == zone.name {
                sql += " AND name > ?"
                arguments.append(.text(after.name))
            }
            sql += " ORDER BY name"
            if query.conditions.isEmpty {
                // Every row matches: SQLite skips to the offset and reads the page (and one more).
                var read = 0
                try forEachMatch(sql + " LIMIT ? OFFSET ?", arguments + [.integer(Int64(limit + 1 - matches.count)), .integer(Int64(skip))], of: matcher) { stored in
                    read += 1
                    matches.append((stored, zone, access))
                    return true
                }
                // A zone that held no more than the offset: what it held counts against it.
                if read > 0 {
                    skip = 0
                } else if skip > 0 {
                    skip = max(0, skip - (try recordCount(of: query.recordType, in: zone)))
                }
            } else {
                try forEachMatch(sql, arguments, of: matcher) { stored in
                    guard skip == 0 else {
                        skip -= 1
                        return true
                    }
                    matches.append((stored, zone, access))
                    // One more than the page tells whether another page follows.
                    return matches.count <= limit
                }
            }
            if matches.count > limit { break }
        }
        guard matches.count > limit else { return (matches, nil) }
        let page = Array(matches.prefix(limit))
        let last = page[page.count - 1]
        return (page, try queryCursor(offset: offset + limit, last: (last.zone.name, last.record.name)))
    }

    /// How many records of a type a zone holds.
    private func recordCount(of recordType: String, in zone: StoredZone) throws -> Int {
        Int(try database.query(
            "SELECT COUNT(*) FROM records WHERE owner = ? AND zone = ? AND type = ? AND deleted = 0", [.text(zone.owner), .text(zone.name), .text(recordType)]
        ).first?.integer(0) ?? 0)
    }

    /// Every match, sorted by the query's keys, and the `limit` after the cursor's offset.
    private func sortedPage(of query: RecordQuery, matching matcher: RecordMatcher, in zones: [(StoredZone, ZoneAccess)], limit: Int) throws -> ([Match], QueryCursor?) {
        var matches: [Match] = []
        for (zone, access) in zones {
            try forEachMatch(
                "SELECT \(Self.recordColumns) FROM records WHERE owner = ? AND zone = ? AND type = ? AND deleted = 0",
                [.text(zone.owner), .text(zone.name), .text(query.recordType)], of: matcher
            ) { stored in
                matches.append((stored, zone, access))
                return true
            }
        }
        matches.sort { lhs, rhs in
            Self.precedes(lhs.record, rhs.record, by: query.sorts) ?? ((lhs.zone.name, lhs.record.name) < (rhs.zone.name, rhs.record.name))
        }
        let offset = try query.cursor.map(resumePoint(of:))?.offset ?? 0
        let page = Array(matches.dropFirst(offset).prefix(limit))
        let next = offset + page.count
        return (page, next < matches.count ? try queryCursor(offset: next) : nil)
    }

    /// The records `sql` reads that meet the query's conditions, each handed to `body` until
    /// it returns false.
    /// Counts the records read in `query.recordsRead`: what a page cost the server.
    private func forEachMatch(_ sql: String, _ arguments: [SQLiteValue], of matcher: RecordMatcher, _ body: (StoredRecord) -> Bool) throws {
        var going = true
        var read: Int64 = 0
        defer { try? store.count("query.recordsRead", by: read) }
        try database.forEachRow(sql, arguments) { row throws(SQLiteError) in
            read += 1
            guard going else { return }
            do {
                let stored = try storedRecord(row)
                if matcher.matches(stored.fields) { going = body(stored) }
            } catch {
                throw SQLiteError.corrupt("a record cannot be read: \(error)")
            }
        }
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

    /// Sort order: each key ascending (records without it first) or descending (last); nil when
    /// the keys tie, and the zone and record names decide.
    private static func precedes(_ lhs: StoredRecord, _ rhs: StoredRecord, by keys: [FieldSort]) -> Bool? {
        for key in keys {
            let left = lhs.fields[key.field], right = rhs.fields[key.field]
            if left == right { continue }
            guard let left else { return key.ascending }
            guard let right else { return !key.ascending }
            if let order = ascending(left, right) { return order == key.ascending }
        }
        return nil
    }

    /// Whether a record's value of a field meets a condition; a record without the field meets
    /// none (a comparison with nothing is false). A distance is as coarse as `locationResolution`
    /// (`LocalCloud.Configuration.locationResolution` says why).
    static func meets(_ value: SyncFieldValue?, _ condition: FieldCondition, locationResolution: Double) -> Bool {
        guard let value, let target = condition.values.first else { return false }
        switch condition.comparison {
        case .equal: return same(value, target)
        case .notEqual: return !same(value, target)
        case .less: return order(value, target) == .orderedAscending
        case .lessOrEqual: return [.orderedAscending, .orderedSame].contains(order(value, target))
        case .greater: return order(value, target) == .orderedDescending
        case .greaterOrEqual: return [.orderedDescending, .orderedSame].contains(order(value, target))
        case .beginsWith:
            // By bytes: case and accents count, as CloudKit's `BEGINSWITH` without modifiers.
            guard case .string(let text) = value, case .string(let prefix) = target else { return false }
            return text.utf8.starts(with: prefix.utf8)
        case .isIn: return condition.values.contains { same(value, $0) }
        case .contains:
            guard case .list(let items) = value else { return false }
            return items.contains { same($0, target) }
        case .allTokens: return false  // the record's text, not one value (`RecordMatcher`)
        case .withinDistance:
            guard case .location(let place) = value, case .location(let center) = target, case .double(let radius)? = condition.values.last else { return false }
            return distance(place, center) < radius + locationResolution
        }
    }

    /// Whether a record's value is the one a condition names. Apple, `CKQuery`, "Sample Predicate
    /// Format Strings": "String-based comparisons are case-insensitive, but otherwise, all
    /// comparisons must be an exact match", and a reference matches "when the ID in the locally
    /// created CKRecord.Reference object is the same ID as in the specified field" (its delete
    /// action is no part of it).
    static func same(_ value: SyncFieldValue, _ target: SyncFieldValue) -> Bool {
        switch (value, target) {
        case (.string(let a), .string(let b)): a.caseInsensitiveCompare(b) == .orderedSame
        case (.reference(let a), .reference(let b)): a.recordName == b.recordName
        default: value == target
        }
    }

    /// How a record's value stands to a condition's, for a range (`<`, `<=`, `>`, `>=`): text
    /// case aside, as its equality (`same`), by the same sentence of Apple's page ("String-based
    /// comparisons are case-insensitive"); nil for values that have no order.
    private static func order(_ value: SyncFieldValue, _ target: SyncFieldValue) -> ComparisonResult? {
        switch (value, target) {
        case (.string(let a), .string(let b)): return a.caseInsensitiveCompare(b)
        default:
            if value == target { return .orderedSame }
            return ascending(value, target).map { $0 ? .orderedAscending : (ascending(target, value) == true ? .orderedDescending : .orderedSame) }
        }
    }

    /// The great-circle distance between two places in meters, on a sphere of the Earth's mean
    /// radius (Apple, `CLLocation.distance(from:)`: "the distance (in meters)" measured "by
    /// tracing a line between them that follows the curvature of the Earth").
    static func distance(_ a: SyncLocation, _ b: SyncLocation) -> Double {
        let radians = Double.pi / 180
        let (latitude1, latitude2) = (a.latitude * radians, b.latitude * radians)
        let halfChord = pow(sin((latitude2 - latitude1) / 2), 2)
            + cos(latitude1) * cos(latitude2) * pow(sin((b.longitude - a.longitude) * radians / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(halfChord)))
    }

    /// Why CloudKit refuses the query under the deployed schema's indexes of its record type, or
    /// nil: a condition on a field not marked `QUERYABLE`, a sort by one not `SORTABLE` (CloudKit's
    /// answer to such a query is a failed request, "Field '…' is not marked queryable").
    static func missingIndex(_ query: RecordQuery, _ indexes: [String: Set<String>]) -> String? {
        // A query with no condition asks for every record by its ID: CloudKit answers it only
        // where the record type's `___recordID` is marked QUERYABLE ("Field 'recordName' is not
        // marked queryable" otherwise), which is why the `.ckdb` export marks it on public types.
        if query.conditions.isEmpty, indexes["___recordID"]?.contains("QUERYABLE") != true {
            return "Field 'recordName' is not marked queryable (record type \(query.recordType))"
        }
        if query.conditions.contains(where: { $0.comparison == .allTokens }), !indexes.values.contains(where: { $0.contains("SEARCHABLE") }) {
            return "Record type \(query.recordType) has no field marked searchable"
        }
        if let field = query.conditions.filter({ $0.comparison != .allTokens }).map(\.field).first(where: { indexes[$0]?.contains("QUERYABLE") != true }) {
            return "Field '\(field)' is not marked queryable (record type \(query.recordType))"
        }
        if let field = query.sorts.map(\.field).first(where: { indexes[$0]?.contains("SORTABLE") != true }) {
            return "Field '\(field)' is not marked sortable (record type \(query.recordType))"
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
}

/// A query's conditions, ready to test records against: each text search's words split once,
/// not once a record, and the fields a search reads known.
struct RecordMatcher {
    private let conditions: [FieldCondition]
    /// Each condition's words, for a text search; nil for the others.
    private let words: [Set<String>?]
    /// The fields a text search reads: those the deployed schema marks searchable, or every text
    /// field (nil) where no schema is deployed.
    private let searchable: Set<String>?
    /// How far beyond a distance condition's radius a record may lie and match.
    private let locationResolution: Double

    init(_ conditions: [FieldCondition], deployed: [String: Set<String>]?, locationResolution: Double) {
        self.conditions = conditions
        self.locationResolution = locationResolution
        words = conditions.map { condition in
            guard condition.comparison == .allTokens, case .string(let text)? = condition.values.first else { return nil }
            return Self.searchedWords(of: text)
        }
        searchable = deployed.map { Set($0.filter { $0.value.contains("SEARCHABLE") }.keys) }
    }

    /// Whether a record's fields meet every condition.
    func matches(_ fields: RecordFields) -> Bool {
        zip(conditions, words).allSatisfy { condition, words in
            guard let words else { return LocalCloudServer.meets(fields[condition.field], condition, locationResolution: locationResolution) }
            return holdsEvery(words, in: fields)
        }
    }

    /// Whether the record's searchable text holds every word of a text search. Apple,
    /// `CKRecord.allTokens()`: a record's tokens are its string values broken "apart at
    /// whitespace boundaries"; the search's words are compared with them as
    /// `tokenize(%@, 'Cdl')` says, case and accents aside.
    private func holdsEvery(_ wanted: Set<String>, in fields: RecordFields) -> Bool {
        guard !wanted.isEmpty else { return false }
        var tokens: Set<String> = []
        for (name, value) in fields where searchable?.contains(name) ?? true {
            switch value {
            case .string(let string): tokens.formUnion(Self.words(of: string))
            case .list(let values):
                for case .string(let string) in values { tokens.formUnion(Self.words(of: string)) }
            default: continue
            }
        }
        return wanted.isSubset(of: tokens)
    }

    /// A text's words: split at whitespace, each folded to compare case and accents aside.
    private static func words(of text: String) -> Set<String> {
        Set(text.split(whereSeparator: \.isWhitespace).map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) })
    }

    /// A search's words, but those CloudKit ignores. Apple, `CKQuery`, "Indexes and Full-Text
    /// Search": "In a full-text search, CloudKit ignores the following words if they appear in
    /// the token strings". A search of ignored words alone finds nothing here.
    private static func searchedWords(of text: String) -> Set<String> {
        words(of: text).subtracting(ignoredWords)
    }

    /// The words Apple's table lists.
    private static let ignoredWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of", "on", "or",
        "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
    ]
}
