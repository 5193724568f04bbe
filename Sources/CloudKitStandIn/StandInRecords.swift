// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncLocalCloud
import SyncPorts

/// What CloudKit's server does with the objects a client sends and what it returns, over
/// LocalCloud's records: a save carries the changed keys only and is based on the version its
/// change tag names; a returned record carries every field and its server metadata, nothing
/// changed. It enforces the rules CloudKit applies that LocalCloud, below the objects, cannot
/// see: a parent's action is none and in the record's zone, encrypted values take neither
/// references nor assets.
enum StandInRecords {
    static func zoneID(_ zone: CKRecordZone.ID) -> ZoneID { ZoneID(zoneName: zone.zoneName, ownerName: zone.ownerName) }
    static func zoneID(_ zone: ZoneID) -> CKRecordZone.ID { CKRecordZone.ID(zoneName: zone.zoneName, ownerName: zone.ownerName) }
    static func recordID(_ id: CKRecord.ID) -> RecordID { RecordID(recordName: id.recordName, zoneID: zoneID(id.zoneID)) }
    static func recordID(_ id: RecordID) -> CKRecord.ID { CKRecord.ID(recordName: id.recordName, zoneID: zoneID(id.zoneID)) }

    static func savePolicy(_ policy: CKModifyRecordsOperation.RecordSavePolicy) -> SavePolicy {
        switch policy {
        case .ifServerRecordUnchanged: .ifServerRecordUnchanged
        case .changedKeys: .changedKeys
        case .allKeys: .allKeys
        }
    }

    /// The save a client's record makes, or why CloudKit refuses it.
    static func save(_ ck: CKRecord) -> Result<SyncRecord, CKError> {
        let id = recordID(ck.recordID)
        var save = SyncRecord(recordType: ck.recordType, id: id)
        for key in ck.changedKeys() {
            guard let object = ck.object(forKey: key) else {
                save.clearedKeys.insert(key)
                continue
            }
            guard let value = value(object) else { return .failure(refusal("\(key) holds a \(type(of: object)), which CloudKit does not store")) }
            save.fields[key] = value
        }
        for key in ck.encryptedValues.changedKeys() {
            guard let object = ck.encryptedValues.object(forKey: key) else {
                save.clearedKeys.insert(key)
                save.clearedEncryptedKeys.insert(key)
                continue
            }
            // Apple, `CKRecord.encryptedValues`: any type "except CKAsset ... and CKRecord.Reference".
            if object is CKReference || object is CKAsset { return .failure(refusal("encrypted \(key) holds a reference or an asset")) }
            guard let value = value(object) else { return .failure(refusal("encrypted \(key) holds a \(type(of: object))")) }
            save.encryptedFields[key] = value
        }
        if let parent = ck.parent {
            // Apple, `CKRecord.parent`: "The reference must use the CKRecord.ReferenceAction.none
            // action"; a parent lives in its child's zone.
            guard parent.action == .none else { return .failure(refusal("a parent reference's action must be none")) }
            guard parent.recordID.zoneID == ck.recordID.zoneID else { return .failure(refusal("a parent must be in its child's zone")) }
            save.parentRecordName = parent.recordID.recordName
        }
        if let tag = ck.recordChangeTag {
            save.systemFields = LocalCloudSystemFields.archive(recordType: ck.recordType, id: id, changeTag: tag)
        }
        return .success(save)
    }

    private static func refusal(_ reason: String) -> CKError {
        CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey: reason])
    }

    /// A record as CloudKit's server returns it.
    static func ckRecord(_ record: SyncRecord) -> CKRecord {
        let ck = CKRecord(recordType: record.recordType, recordID: recordID(record.id))
        for (name, value) in record.fields { ck.setObject(object(value, in: ck.recordID.zoneID), forKey: name) }
        for (name, value) in record.encryptedFields { ck.encryptedValues.setObject(object(value, in: ck.recordID.zoneID), forKey: name) }
        ck.setParent(record.parentRecordName.map { CKRecord.ID(recordName: $0, zoneID: ck.recordID.zoneID) })
        ck.setServerMetadata(
            changeTag: record.changeTag, creationDate: record.creationDate, modificationDate: record.modificationDate,
            creator: record.creatorUserRecordName.map { CKRecord.ID(recordName: $0, zoneID: CKRecordZone.ID.default) },
            lastModifier: record.lastModifiedUserRecordName.map { CKRecord.ID(recordName: $0, zoneID: CKRecordZone.ID.default) },
            share: record.shareRecordName.map { CKRecord.Reference(recordID: CKRecord.ID(recordName: $0, zoneID: ck.recordID.zoneID), action: .none) })
        ck.markUnchanged()
        return ck
    }

    private static func object(_ value: SyncFieldValue, in zone: CKRecordZone.ID) -> any __CKRecordObjCValue {
        switch value {
        case .string(let string): string as NSString
        case .int64(let number): NSNumber(value: number)
        case .double(let number): NSNumber(value: number)
        case .date(let date): date as NSDate
        case .bytes(let data): data as NSData
        case .location(let location): CLLocation(latitude: location.latitude, longitude: location.longitude)
        case .reference(let reference):
            CKRecord.Reference(recordID: CKRecord.ID(recordName: reference.recordName, zoneID: zone), action: reference.action == .deleteSelf ? .deleteSelf : .none)
        case .asset(let asset): CKAsset(fileURL: asset.fileURL)
        case .list(let elements): elements.map { object($0, in: zone) } as NSArray
        }
    }

    private static func value(_ object: Any) -> SyncFieldValue? {
        switch object {
        case let reference as CKReference:
            .reference(SyncReference(recordName: reference.recordID.recordName, action: reference.action == .deleteSelf ? .deleteSelf : .none))
        case let asset as CKAsset: asset.fileURL.map { .asset(SyncAsset(fileURL: $0)) }
        case let location as CLLocation: .location(SyncLocation(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude))
        case let string as NSString: .string(string as String)
        case let date as NSDate: .date(date as Date)
        case let data as NSData: .bytes(data as Data)
        case let number as NSNumber:
            String(cString: number.objCType) == "d" || String(cString: number.objCType) == "f" ? .double(number.doubleValue) : .int64(number.int64Value)
        case let array as NSArray: .list(array.compactMap { value($0) })
        default: nil
        }
    }
}

/// LocalCloud's errors as CloudKit's: the number, the wait, a conflict's records, each item's error.
enum StandInErrors {
    static func ckError(_ error: CloudError) -> CKError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: error.message]
        if let retryAfter = error.retryAfter { userInfo[CKErrorRetryAfterKey] = NSNumber(value: retryAfter) }
        if error.userDidResetEncryptedData { userInfo[CKErrorUserDidResetEncryptedDataKey] = NSNumber(value: true) }
        if let server = error.serverRecord { userInfo[CKRecordChangedErrorServerRecordKey] = StandInRecords.ckRecord(server) }
        if let client = error.clientRecord { userInfo[CKRecordChangedErrorClientRecordKey] = StandInRecords.ckRecord(client) }
        if let ancestor = error.ancestorRecord { userInfo[CKRecordChangedErrorAncestorRecordKey] = StandInRecords.ckRecord(ancestor) }
        if !error.itemErrors.isEmpty {
            var items: [AnyHashable: any Error] = [:]
            for (id, itemError) in error.itemErrors { items[StandInRecords.recordID(id)] = ckError(itemError) }
            userInfo[CKPartialErrorsByItemIDKey] = items
        }
        return CKError(errorCode: error.cloudKitCode, userInfo: userInfo)
    }
}
#endif
