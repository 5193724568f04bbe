// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncPorts
import SyncStorage

/// A search for records of one type (Apple, `CKQuery`). CloudKit reads its predicate and sort
/// descriptors; Foundation on Linux can neither build a format predicate nor a sort descriptor by
/// key, so the stand-in's query also carries the conditions as values (`equalTo`, `sortedBy`),
/// set by the gateway's one platform file.
public final class CKQuery: NSObject, NSSecureCoding {
    public static var supportsSecureCoding: Bool { true }

    public let recordType: CKRecord.RecordType
    public let predicate: NSPredicate
    public var sortDescriptors: [NSSortDescriptor]?
    /// Fields that must equal these values, all of them: what the predicate says here.
    package let equalTo: RecordFields
    /// Field names to sort by, ascending: what the sort descriptors say here.
    package let sortedBy: [String]

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate) {
        self.recordType = recordType
        self.predicate = predicate
        equalTo = [:]
        sortedBy = []
    }

    /// The stand-in's query: its conditions as values.
    package init(recordType: CKRecord.RecordType, equalTo: RecordFields, sortedBy: [String]) {
        self.recordType = recordType
        predicate = NSPredicate(value: true)
        self.equalTo = equalTo
        self.sortedBy = sortedBy
    }

    public func encode(with coder: NSCoder) {
        coder.encode(recordType as NSString, forKey: "recordType")
        coder.encode(FieldsCodec.encode(equalTo) as NSData, forKey: "equalTo")
        coder.encode(sortedBy as NSArray, forKey: "sortedBy")
    }

    public init?(coder: NSCoder) {
        guard let recordType = coder.decodeObject(of: NSString.self, forKey: "recordType"),
            let equalTo = coder.decodeObject(of: NSData.self, forKey: "equalTo"),
            let fields = try? FieldsCodec.decode(equalTo as Data),
            let sortedBy = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "sortedBy") as? [String]
        else { return nil }
        self.recordType = recordType as String
        predicate = NSPredicate(value: true)
        self.equalTo = fields
        self.sortedBy = sortedBy
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
