// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// A search for records of one type (Apple, `CKQuery`). CloudKit reads its predicate and sort
/// descriptors; Foundation on Linux can neither build a format predicate nor a sort descriptor by
/// key, so the stand-in's query also carries the conditions as values (`conditions`, `sorts`),
/// set by the gateway's one platform file.
public final class CKQuery: NSObject, NSSecureCoding {
    public static var supportsSecureCoding: Bool { true }

    public let recordType: CKRecord.RecordType
    public let predicate: NSPredicate
    public var sortDescriptors: [NSSortDescriptor]?
    /// The conditions a record meets, all of them: what the predicate says here.
    package let conditions: [FieldCondition]
    /// The fields to sort by, each ascending or descending: what the sort descriptors say here.
    package let sorts: [FieldSort]

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate) {
        self.recordType = recordType
        self.predicate = predicate
        conditions = []
        sorts = []
    }

    /// The stand-in's query: its conditions as values.
    package init(recordType: CKRecord.RecordType, conditions: [FieldCondition], sorts: [FieldSort]) {
        self.recordType = recordType
        predicate = NSPredicate(value: true)
        self.conditions = conditions
        self.sorts = sorts
    }

    public func encode(with coder: NSCoder) {
        coder.encode(recordType as NSString, forKey: "recordType")
        // Each condition as its field, its comparison and its values (a list, by position).
        coder.encode(conditions.map(\.field) as NSArray, forKey: "fields")
        coder.encode(conditions.map(\.comparison.rawValue) as NSArray, forKey: "comparisons")
        var values = RecordFields()
        for (index, condition) in conditions.enumerated() { values.append(String(index), .list(condition.values)) }
        coder.encode(FieldsCodec.encode(values) as NSData, forKey: "values")
        coder.encode(sorts.map(\.field) as NSArray, forKey: "sortFields")
        coder.encode(sorts.map { $0.ascending ? "ascending" : "descending" } as NSArray, forKey: "sortDirections")
    }

    public init?(coder: NSCoder) {
        guard let recordType = coder.decodeObject(of: NSString.self, forKey: "recordType"),
            let fields = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "fields") as? [String],
            let comparisons = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "comparisons") as? [String],
            let data = coder.decodeObject(of: NSData.self, forKey: "values"), let values = try? FieldsCodec.decode(data as Data),
            let sortFields = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "sortFields") as? [String],
            let directions = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "sortDirections") as? [String],
            fields.count == comparisons.count, sortFields.count == directions.count
        else { return nil }
        var conditions: [FieldCondition] = []
        for (index, field) in fields.enumerated() {
            guard let comparison = FieldCondition.Comparison(rawValue: comparisons[index]), case .list(let list) = values[String(index)] else { return nil }
            conditions.append(FieldCondition(field, comparison, list))
        }
        self.recordType = recordType as String
        predicate = NSPredicate(value: true)
        self.conditions = conditions
        sorts = zip(sortFields, directions).map { FieldSort($0, ascending: $1 == "ascending") }
    }
}

/// Where a query's results stopped (Apple, `CKQueryOperation.Cursor`): no public initialiser;
/// archived to be kept. It holds the query and zone it continues, as CloudKit's does.
public final class CKQueryCursor: NSObject, NSSecureCoding {
    public static var supportsSecureCoding: Bool { true }

    package let query: CKQuery
    package let zoneID: CKRecordZone.ID?
    /// LocalCloud's cursor.
    package let archive: Data

    package init(query: CKQuery, zoneID: CKRecordZone.ID?, archive: Data) {
        self.query = query
        self.zoneID = zoneID
        self.archive = archive
    }

    public func encode(with coder: NSCoder) {
        coder.encode(query, forKey: "query")
        if let zoneID { coder.encode(zoneID, forKey: "zoneID") }
        coder.encode(archive as NSData, forKey: "cursor")
    }

    public init?(coder: NSCoder) {
        guard let query = coder.decodeObject(of: CKQuery.self, forKey: "query"),
            let archive = coder.decodeObject(of: NSData.self, forKey: "cursor")
        else { return nil }
        self.query = query
        zoneID = coder.decodeIfPresent(CKRecordZoneID.self, forKey: "zoneID")
        self.archive = archive as Data
    }
}

/// A query's operation (Apple, `CKQueryOperation`): here only its nested names.
public final class CKQueryOperation: NSObject {
    public typealias Cursor = CKQueryCursor

    /// Let the server choose how many results a page holds (Apple, `CKQueryOperation.maximumResults`).
    public static let maximumResults = 0
}

extension CKDatabase {
    public func records(
        matching query: CKQuery, inZoneWith zoneID: CKRecordZone.ID? = nil, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults
    ) async throws -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        try await page(query, zoneID: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit, cursor: nil)
    }

    public func records(
        continuingMatchFrom queryCursor: CKQueryOperation.Cursor, desiredKeys: [CKRecord.FieldKey]? = nil,
        resultsLimit: Int = CKQueryOperation.maximumResults
    ) async throws -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        try await page(queryCursor.query, zoneID: queryCursor.zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit, cursor: QueryCursor(archive: queryCursor.archive))
    }
}
#endif
