// The only code of the gateway that differs by platform: a query's predicate and sort order
// (CloudKit reads an `NSPredicate` and `NSSortDescriptor`s, which Foundation on Linux cannot
// build from a key; the stand-in takes the same conditions as values), and a push's database
// (CloudKit's notification factory returns a subclass that says; a Swift initialiser cannot).
// The Apple branches are the pieces of the gateway the tests here do not run.
#if canImport(CloudKit)
import CloudKit
#else
import CloudKitStandIn
#endif
import Foundation
import SyncCore

enum CloudKitPlatform {
    /// A query for records of a type whose fields equal `equalTo` (all of them), sorted by the
    /// `sortedBy` fields, ascending.
    static func query(recordType: String, equalTo: RecordFields, sortedBy: [String], in zone: ZoneID?) throws(CloudError) -> CKQuery {
        #if canImport(CloudKit)
        var conditions: [NSPredicate] = []
        for (name, value) in equalTo {
            guard let object = try CloudKitRecords.queryValue(value, field: name, in: zone) else {
                throw CloudError(.invalidArguments, "\(recordType) cannot be queried by \(name)")
            }
            conditions.append(NSPredicate(format: "%K == %@", name, object))
        }
        let predicate = conditions.isEmpty ? NSPredicate(value: true) : NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
        let query = CKQuery(recordType: recordType, predicate: predicate)
        query.sortDescriptors = sortedBy.isEmpty ? nil : sortedBy.map { NSSortDescriptor(key: $0, ascending: true) }
        return query
        #else
        return CKQuery(recordType: recordType, equalTo: equalTo, sortedBy: sortedBy)
        #endif
    }

    /// The database a push's notification is of: CloudKit's factory returns a database or a
    /// query notification, which says; the stand-in's notification carries it.
    static func scope(of notification: CKNotification) -> CKDatabase.Scope? {
        #if canImport(CloudKit)
        (notification as? CKDatabaseNotification)?.databaseScope ?? (notification as? CKQueryNotification)?.databaseScope
        #else
        notification.scope
        #endif
    }
}
