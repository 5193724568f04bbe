#if canImport(CloudKit)
import CloudKit
import CoreLocation
#else
import CloudKitStandIn
#endif
import Foundation
import SyncCore

/// Records between the port and CloudKit, both ways. A CloudKit object never leaves the function
/// that made it: `CKRecord` is not `Sendable`, the port's values are.
enum CloudKitRecords {
    static func zoneID(_ zone: ZoneID) -> CKRecordZone.ID {
        CKRecordZone.ID(zoneName: zone.zoneName, ownerName: zone.ownerName)
    }

    static func zoneID(_ zone: CKRecordZone.ID) -> ZoneID {
        ZoneID(zoneName: zone.zoneName, ownerName: zone.ownerName)
    }

    static func recordID(_ id: RecordID) -> CKRecord.ID {
        CKRecord.ID(recordName: id.recordName, zoneID: zoneID(id.zoneID))
    }

    static func recordID(_ id: CKRecord.ID) -> RecordID {
        RecordID(recordName: id.recordName, zoneID: zoneID(id.zoneID))
    }

    // MARK: To CloudKit

    /// The CloudKit record a save sends. Based on a known version (`systemFields`), it is that
    /// version rebuilt from its archive, so CloudKit compares its change tag; otherwise it is new.
    /// It carries the keys the record sets and clears (`nil`), nothing else: CloudKit keeps every
    /// other key of its copy.
    static func ckRecord(_ record: SyncRecord) throws(CloudError) -> CKRecord {
        let ck = try record.systemFields.map { (fields) throws(CloudError) in try rebuilt(fields, as: record) }
            ?? CKRecord(recordType: record.recordType, recordID: recordID(record.id))
        for (name, value) in record.fields {
            ck.setObject(try objectValue(value, in: record.id.zoneID, field: name, of: "\(record.recordType) \(record.id.recordName)"), forKey: name)
        }
        for (name, value) in record.encryptedFields {
            switch value {
            case .reference, .asset:
                // Apple, `CKRecord.encryptedValues`: encrypted values take neither.
                throw CloudError(.invalidArguments, "\(record.recordType) \(record.id.recordName): the encrypted field \(name) cannot hold a reference or an asset")
            default:
                ck.encryptedValues.setObject(try objectValue(value, in: record.id.zoneID, field: name, of: "\(record.recordType) \(record.id.recordName)"), forKey: name)
            }
        }
        for name in record.clearedKeys.sorted() {
            if record.clearedEncryptedKeys.contains(name) {
                ck.encryptedValues.setObject(nil, forKey: name)
            } else {
                ck.setObject(nil, forKey: name)
            }
        }
        // A parent's action is always none (CloudKit refuses any other).
        ck.parent = record.parentID.map { CKRecord.Reference(recordID: recordID($0), action: .none) }
        return ck
    }

    /// The version `fields` archived, as a record to save again; refused when it is not an
    /// archive of this record's system fields.
    private static func rebuilt(_ fields: SystemFields, as record: SyncRecord) throws(CloudError) -> CKRecord {
        let rebuilt: CKRecord?
        do {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: fields.archive)
            unarchiver.requiresSecureCoding = true
            // A damaged archive fails the save, never the process.
            unarchiver.decodingFailurePolicy = .setErrorAndReturn
            rebuilt = CKRecord(coder: unarchiver)
            unarchiver.finishDecoding()
        } catch {
            throw CloudError(.invalidArguments, "the system fields of \(record.id.recordName) are not an archive: \(error)")
        }
        guard let rebuilt, rebuilt.recordID == recordID(record.id), rebuilt.recordType == record.recordType else {
            throw CloudError(.invalidArguments, "the system fields kept for \(record.recordType) \(record.id.recordName) are not that record's")
        }
        return rebuilt
    }

    /// The object CloudKit stores for a value; `owner` names the record in an error.
    private static func objectValue(_ value: SyncFieldValue, in zone: ZoneID, field: String, of owner: String) throws(CloudError) -> any __CKRecordObjCValue {
        switch value {
        case .string(let string): return string as NSString
        case .int64(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .date(let date): return date as NSDate
        case .bytes(let data): return data as NSData
        case .location(let location): return CLLocation(latitude: location.latitude, longitude: location.longitude)
        case .reference(let reference):
            return CKRecord.Reference(recordID: recordID(RecordID(recordName: reference.recordName, zoneID: zone)), action: referenceAction(reference.action))
        case .asset(let asset): return CKAsset(fileURL: asset.fileURL)
        case .list(let elements):
            var objects: [Any] = []
            for element in elements {
                if case .list = element {
                    throw CloudError(.invalidArguments, "\(owner): the field \(field) holds a list of lists, which CloudKit does not store")
                }
                objects.append(try objectValue(element, in: zone, field: field, of: owner))
            }
            return objects as NSArray
        }
    }

    /// A value as a query's predicate compares it: the object CloudKit stores. Which values a
    /// query may compare is `RecordQuery.inexpressibleCondition`'s, checked before.
    static func queryValue(_ value: SyncFieldValue, field: String, in zone: ZoneID?) throws(CloudError) -> NSObject? {
        try objectValue(value, in: zone ?? SyncConstants.publicZone, field: field, of: "a query") as? NSObject
    }

    /// A condition as CloudKit's predicate says it: the format and its arguments, for
    /// `NSPredicate(format:argumentArray:)` (which only Apple's Foundation builds). Apple, `CKQuery`,
    /// "Predicate Rules for Query Objects": `==`, `!=`, `<`, `<=`, `>`, `>=`, `BEGINSWITH` and `IN`
    /// on a key and a constant, `CONTAINS` for a list's member ("only for testing list
    /// membership"), a text search of the record's tokens (`allTokens`), and a location's distance
    /// (`distanceToLocation:fromLocation:`). The condition's shape was checked
    /// before (`RecordQuery.inexpressibleCondition`).
    static func predicateFormat(of condition: FieldCondition, recordType: String, in zone: ZoneID?) throws(CloudError) -> (format: String, arguments: [Any]) {
        var objects: [NSObject] = []
        for value in condition.values {
            guard let object = try queryValue(value, field: condition.field, in: zone) else {
                throw CloudError(.invalidArguments, "\(recordType) cannot be queried by \(condition.field)")
            }
            objects.append(object)
        }
        let field = condition.field
        return switch condition.comparison {
        case .equal: ("%K == %@", [field, objects[0]])
        case .notEqual: ("%K != %@", [field, objects[0]])
        case .less: ("%K < %@", [field, objects[0]])
        case .lessOrEqual: ("%K <= %@", [field, objects[0]])
        case .greater: ("%K > %@", [field, objects[0]])
        case .greaterOrEqual: ("%K >= %@", [field, objects[0]])
        case .beginsWith: ("%K BEGINSWITH %@", [field, objects[0]])
        case .isIn: ("%K IN %@", [field, objects])
        case .contains: ("%K CONTAINS %@", [field, objects[0]])
        case .allTokens: ("ALL tokenize(%@, 'Cdl') IN allTokens", [objects[0]])
        case .withinDistance: ("distanceToLocation:fromLocation:(%K, %@) < %@", [field, objects[0], try radiusInKilometers(condition)])
        }
    }

    /// A distance condition's radius as CloudKit reads it: in kilometers, where the port (and
    /// `ServerPredicate.near(_:_:within:)`) speaks meters. Apple, `CKQuery`, "Sample Predicate
    /// Format Strings": `CGFloat radius = 10; // kilometers` for "within 10 kilometers"; the
    /// server's own query filter is `radiusInKilometers` (CKTool JS, `CKDBQueryFilter`).
    static func radiusInKilometers(_ condition: FieldCondition) throws(CloudError) -> NSNumber {
        guard case .double(let meters)? = condition.values.last else {
            throw CloudError(.invalidArguments, "a distance condition on \(condition.field) has no radius")
        }
        return NSNumber(value: meters / 1_000)
    }

    private static func referenceAction(_ action: ReferenceAction) -> CKRecord.ReferenceAction {
        switch action {
        case .none: .none
        case .deleteSelf: .deleteSelf
        }
    }

    // MARK: From CloudKit

    /// A record CloudKit returned, with its system fields archived for the next save.
    static func syncRecord(_ ck: CKRecord) throws(CloudError) -> SyncRecord {
        let id = recordID(ck.recordID)
        var record = SyncRecord(recordType: ck.recordType, id: id, parentRecordName: ck.parent?.recordID.recordName, changeTag: ck.recordChangeTag, modificationDate: ck.modificationDate)
        // A key the encrypted values hold is read there alone: `allKeys()` may list it and
        // `object(forKey:)` may read it (Apple says neither way), and read as a plain value it
        // would be written back unencrypted.
        let encrypted = ck.encryptedValues.allKeys()
        for name in ck.allKeys() where !encrypted.contains(name) {
            if let object = ck.object(forKey: name), let value = try fieldValue(object, field: name, of: ck) { record.fields[name] = value }
        }
        for name in encrypted {
            if let object = ck.encryptedValues.object(forKey: name), let value = try fieldValue(object, field: name, of: ck) { record.encryptedFields[name] = value }
        }
        record.shareRecordName = ck.share?.recordID.recordName
        record.creatorUserRecordName = ck.creatorUserRecordID?.recordName
        record.creationDate = ck.creationDate
        record.lastModifiedUserRecordName = ck.lastModifiedUserRecordID?.recordName
        record.systemFields = systemFields(of: ck)
        return record
    }

    /// CloudKit's archive of a record's metadata (`encodeSystemFields(with:)`).
    static func systemFields(of ck: CKRecord) -> SystemFields {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        ck.encodeSystemFields(with: archiver)
        archiver.finishEncoding()
        return SystemFields(archive: archiver.encodedData)
    }

    /// A field's value; nil for an asset CloudKit did not download (its key was not desired).
    private static func fieldValue(_ object: Any, field: String, of ck: CKRecord) throws(CloudError) -> SyncFieldValue? {
        switch object {
        case let reference as CKRecord.Reference:
            return .reference(SyncReference(recordName: reference.recordID.recordName, action: reference.action == .deleteSelf ? .deleteSelf : .none))
        case let asset as CKAsset:
            return asset.fileURL.map { .asset(SyncAsset(fileURL: $0)) }
        case let location as CLLocation:
            return .location(SyncLocation(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude))
        case let string as NSString:
            return .string(string as String)
        case let date as NSDate:
            return .date(date as Date)
        case let data as NSData:
            return .bytes(data as Data)
        case let number as NSNumber:
            // CloudKit keeps a number as it was written: a double stays a double.
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? .double(number.doubleValue) : .int64(number.int64Value)
        case let array as NSArray:
            var elements: [SyncFieldValue] = []
            for element in array {
                if let value = try fieldValue(element, field: field, of: ck) { elements.append(value) }
            }
            return .list(elements)
        default:
            throw CloudError(.invalidArguments, "\(ck.recordType) \(ck.recordID.recordName): the field \(field) holds a \(type(of: object)), which no model field takes")
        }
    }
}
