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
    /// A query for records of a type that meet `conditions` (all of them: CloudKit's predicates
    /// join with `AND`), sorted by `sorts`. Apple, `CKQuery`, "Predicate Rules for Query
    /// Objects": the operators `==`, `!=`, `<`, `<=`, `>`, `>=`, `BEGINSWITH` and `IN`, on a key
    /// and a constant, a text search of the record's tokens (`allTokens`), and a location's
    /// distance (`distanceToLocation:fromLocation:`).
    static func query(recordType: String, conditions: [FieldCondition], sorts: [FieldSort], in zone: ZoneID?) throws(CloudError) -> CKQuery {
        #if canImport(CloudKit)
        var predicates: [NSPredicate] = []
        for condition in conditions {
            var objects: [NSObject] = []
            for value in condition.values {
                guard let object = try CloudKitRecords.queryValue(value, field: condition.field, in: zone) else {
                    throw CloudError(.invalidArguments, "\(recordType) cannot be queried by \(condition.field)")
                }
                objects.append(object)
            }
            let format = switch condition.comparison {
            case .equal: "%K == %@"
            case .notEqual: "%K != %@"
            case .less: "%K < %@"
            case .lessOrEqual: "%K <= %@"
            case .greater: "%K > %@"
            case .greaterOrEqual: "%K >= %@"
            case .beginsWith: "%K BEGINSWITH %@"
            case .isIn: "%K IN %@"
            case .allTokens: "ALL tokenize(%@, 'Cdl') IN allTokens"
            case .withinDistance: "distanceToLocation:fromLocation:(%K, %@) < %@"
            }
            if condition.comparison == .allTokens {
                predicates.append(NSPredicate(format: format, argumentArray: [objects[0]]))
                continue
            }
            if condition.comparison == .withinDistance {
                predicates.append(NSPredicate(format: format, argumentArray: [condition.field, objects[0], objects[1]]))
                continue
            }
            let argument: Any = condition.comparison == .isIn ? objects : objects[0]
            predicates.append(NSPredicate(format: format, argumentArray: [condition.field, argument]))
        }
        let predicate = predicates.isEmpty ? NSPredicate(value: true) : NSCompoundPredicate(andPredicateWithSubpredicates: predicates)
        let query = CKQuery(recordType: recordType, predicate: predicate)
        query.sortDescriptors = sorts.isEmpty ? nil : sorts.map { NSSortDescriptor(key: $0.field, ascending: $0.ascending) }
        return query
        #else
        return CKQuery(recordType: recordType, conditions: conditions, sorts: sorts)
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
