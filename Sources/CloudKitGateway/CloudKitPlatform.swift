// The only code of the gateway that differs by platform: a query's and a query subscription's
// predicate and a query's sort order (CloudKit reads an `NSPredicate` and `NSSortDescriptor`s,
// which Foundation on Linux cannot build from a key; the stand-in takes the same conditions as
// values), and a push's database
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
    /// A query for records of a type that meet `conditions` (all of them: CloudKit's predicates
    /// join with `AND`, each said by `CloudKitRecords.predicateFormat(of:recordType:in:)`), sorted by
    /// `sorts`.
    static func query(recordType: String, conditions: [FieldCondition], sorts: [FieldSort], in zone: ZoneID?) throws(CloudError) -> CKQuery {
        #if canImport(CloudKit)
        let query = CKQuery(recordType: recordType, predicate: try predicate(recordType: recordType, conditions: conditions, in: zone))
        query.sortDescriptors = sorts.isEmpty ? nil : sorts.map { NSSortDescriptor(key: $0.field, ascending: $0.ascending) }
        return query
        #else
        return CKQuery(recordType: recordType, conditions: conditions, sorts: sorts)
        #endif
    }

    /// A query subscription to records of a type that meet `conditions`, all of them (as
    /// `query(recordType:conditions:sorts:in:)` says them), firing on `options`.
    static func querySubscription(id: String, recordType: String, conditions: [FieldCondition], in zone: ZoneID?, options: CKQuerySubscription.Options) throws(CloudError) -> CKQuerySubscription {
        #if canImport(CloudKit)
        let predicate = try predicate(recordType: recordType, conditions: conditions, in: zone)
        return CKQuerySubscription(recordType: recordType, predicate: predicate, subscriptionID: id, options: options)
        #else
        return CKQuerySubscription(recordType: recordType, conditions: conditions, subscriptionID: id, options: options)
        #endif
    }

    #if canImport(CloudKit)
    /// Every condition, joined with `AND`: true when there is none.
    private static func predicate(recordType: String, conditions: [FieldCondition], in zone: ZoneID?) throws(CloudError) -> NSPredicate {
        var predicates: [NSPredicate] = []
        for condition in conditions {
            let (format, arguments) = try CloudKitRecords.predicateFormat(of: condition, recordType: recordType, in: zone)
            predicates.append(NSPredicate(format: format, argumentArray: arguments))
        }
        return predicates.isEmpty ? NSPredicate(value: true) : NSCompoundPredicate(andPredicateWithSubpredicates: predicates)
    }
    #endif

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
