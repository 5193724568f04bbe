// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation
import SyncCore
import SyncLocalCloud
import SyncPorts

/// How a save treats the server's copy (Apple, `CKModifyRecordsOperation.RecordSavePolicy`).
public final class CKModifyRecordsOperation: NSObject {
    public enum RecordSavePolicy: Int, Sendable {
        case ifServerRecordUnchanged = 0
        case changedKeys = 1
        case allKeys = 2
    }
}

/// One of a container's databases (Apple, `CKDatabase`), its async API. The stand-in's answers
/// LocalCloud's, turned into CloudKit's objects the way CloudKit's server returns them.
public final class CKDatabase: NSObject, Sendable {
    /// Which database (Apple, `CKDatabase.Scope`).
    public enum Scope: Int, Sendable {
        case `public` = 1
        case `private` = 2
        case shared = 3
    }

    /// A record zone's change (Apple, `CKDatabase.RecordZoneChange`).
    public enum RecordZoneChange {
        public struct Modification {
            public let record: CKRecord
        }

        public struct Deletion {
            public let recordID: CKRecord.ID
            public let recordType: CKRecord.RecordType
        }
    }

    /// A database's change (Apple, `CKDatabase.DatabaseChange`).
    public enum DatabaseChange {
        public struct Modification {
            public let zoneID: CKRecordZone.ID
        }

        public struct Deletion {
            /// Why a zone went away (Apple, `CKDatabase.DatabaseChange.Deletion.Reason`).
            public enum Reason: Sendable {
                case deleted, purged, encryptedDataReset
            }

            public let zoneID: CKRecordZone.ID
            public let purged: Bool
            public let reason: CKDatabase.DatabaseChange.Deletion.Reason
        }
    }

    public let databaseScope: CKDatabase.Scope
    let device: LocalCloudDevice
    let atomicFailure: StandInAtomicFailure

    init(device: LocalCloudDevice, databaseScope: CKDatabase.Scope, atomicFailure: StandInAtomicFailure) {
        self.device = device
        self.databaseScope = databaseScope
        self.atomicFailure = atomicFailure
    }

    var scope: DatabaseScope {
        switch databaseScope {
        case .public: .public
        case .private: .private
        case .shared: .shared
        }
    }

    /// Creates and deletes zones. Apple's async `modifyRecordZones(saving:deleting:)` returns each
    /// zone's result; the request itself throws only when it fails as a whole (the network, the
    /// account). A zone the database cannot hold fails alone.
    public func modifyRecordZones(
        saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID]
    ) async throws -> (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>]) {
        var saved: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
        var deleted: [CKRecordZone.ID: Result<Void, any Error>] = [:]
        guard databaseScope == .private else {
            // Apple, `CKError.badDatabase`: "Make sure you aren't submitting ... a record zone
            // create operation to the shared database."
            let refusal = CKError(.badDatabase, userInfo: [NSLocalizedDescriptionKey: "zones are created and deleted in the private database only"])
            for zone in recordZonesToSave { saved[zone.zoneID] = .failure(refusal) }
            for id in recordZoneIDsToDelete { deleted[id] = .failure(refusal) }
            return (saved, deleted)
        }
        let outcomes: (saved: [ZoneID: Result<Void, CloudError>], deleted: [ZoneID: Result<Void, CloudError>])
        do {
            outcomes = try await device.modifyZones(saving: recordZonesToSave.map { StandInRecords.zoneID($0.zoneID) }, deleting: recordZoneIDsToDelete.map(StandInRecords.zoneID))
        } catch {
            throw StandInErrors.ckError(error)
        }
        for zone in recordZonesToSave {
            saved[zone.zoneID] = outcomes.saved[StandInRecords.zoneID(zone.zoneID)].map { $0.map { zone }.mapError { StandInErrors.ckError($0) } }
        }
        for id in recordZoneIDsToDelete {
            deleted[id] = outcomes.deleted[StandInRecords.zoneID(id)].map { $0.mapError { StandInErrors.ckError($0) } }
        }
        return (saved, deleted)
    }

    /// Saves and deletes records. As CloudKit does, a save sends only the record's changed keys
    /// (a key set to nil removes it), and is based on the version its system fields name: a
    /// record made with `init(recordType:recordID:)` is new to the server.
    ///
    /// The answer is the async call's (Apple, `modifyRecords(saving:deleting:savePolicy:atomically:)`):
    /// "This method throws an error if the request fails, ... or when atomically is true and one
    /// or more of the specified changes fail; otherwise, the returned tuple includes any
    /// individual record errors." The thrown `partialFailure` carries each failed item's error in
    /// `partialErrorsByItemID`, and nothing of the items that went through: in a custom zone
    /// nothing did (the others fail with `batchRequestFailed`), but a default zone does not commit
    /// atomically (Apple, `isAtomic`: "If a record zone doesn't support the atomic capability,
    /// setting this property has no effect"), so there its good items are saved and not reported.
    /// The stand-in takes that strict reading.
    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) async throws -> (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]) {
        var saveResults: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        var deleteResults: [CKRecord.ID: Result<Void, any Error>] = [:]
        var saves: [(CKRecord.ID, SyncRecord)] = []
        var sharesToSave: [ShareRecord] = []
        for record in recordsToSave {
            if let share = record as? CKShare {
                switch StandInShares.save(share) {
                case .success(let save): sharesToSave.append(save)
                case .failure(let refusal): saveResults[record.recordID] = .failure(refusal)
                }
                continue
            }
            switch StandInRecords.save(record) {
            case .success(let save): saves.append((record.recordID, save))
            case .failure(let refusal): saveResults[record.recordID] = .failure(refusal)
            }
        }
        // What CloudKit refuses on the client's side fails its item; in an atomic request it
        // fails its custom zone's other items too, and none of them is sent.
        let refusedZones = atomically ? Set(saveResults.keys.map { StandInRecords.zoneID($0.zoneID) }.filter(\.isCustom)) : []
        let batchFailed = CKError(.batchRequestFailed, userInfo: [NSLocalizedDescriptionKey: "another item of the atomic request failed"])
        var toSave: [SyncRecord] = []
        for (id, save) in saves {
            if refusedZones.contains(save.id.zoneID) { saveResults[id] = .failure(batchFailed) } else { toSave.append(save) }
        }
        for share in sharesToSave where refusedZones.contains(share.id.zoneID) {
            saveResults[StandInRecords.recordID(share.id)] = .failure(batchFailed)
        }
        sharesToSave.removeAll { refusedZones.contains($0.id.zoneID) }
        var toDelete: [RecordID] = []
        for id in recordIDsToDelete {
            let recordID = StandInRecords.recordID(id)
            if refusedZones.contains(recordID.zoneID) { deleteResults[id] = .failure(batchFailed) } else { toDelete.append(recordID) }
        }
        let request = ModifyRequest(
            recordsToSave: toSave, sharesToSave: sharesToSave, recordIDsToDelete: toDelete,
            savePolicy: StandInRecords.savePolicy(savePolicy), isAtomic: atomically)
        let result: ModifyResult
        do {
            result = request.itemCount == 0 ? ModifyResult() : try await device.modify(request, in: scope)
        } catch {
            throw StandInErrors.ckError(error)
        }
        for (id, outcome) in result.savedRecords {
            saveResults[StandInRecords.recordID(id)] = outcome.map(StandInRecords.ckRecord).mapError { StandInErrors.ckError($0) }
        }
        for (id, outcome) in result.savedShares {
            saveResults[StandInRecords.recordID(id)] = outcome.map { StandInShares.ckShare($0) as CKRecord }.mapError { StandInErrors.ckError($0) }
        }
        for (id, outcome) in result.deletedRecords {
            deleteResults[StandInRecords.recordID(id)] = outcome.mapError { StandInErrors.ckError($0) }
        }
        guard atomically else { return (saveResults, deleteResults) }
        var failed: [AnyHashable: any Error] = [:]
        for (id, outcome) in saveResults { if case .failure(let error) = outcome { failed[id] = error } }
        for (id, outcome) in deleteResults { if case .failure(let error) = outcome { failed[id] = error } }
        guard failed.isEmpty else {
            let code: CKError.Code = switch atomicFailure {
            case .partialFailure, .partialFailureNamingNoItem: .partialFailure
            case .batchRequestFailed: .batchRequestFailed
            case .failingItemsCode:
                failed.values.compactMap { ($0 as? CKError)?.code }.filter { $0 != .batchRequestFailed }.sorted { $0.rawValue < $1.rawValue }.first ?? .batchRequestFailed
            }
            var userInfo: [String: Any] = [NSLocalizedDescriptionKey: "\(failed.count) of \(recordsToSave.count + recordIDsToDelete.count) items failed"]
            if atomicFailure != .partialFailureNamingNoItem { userInfo[CKPartialErrorsByItemIDKey] = failed }
            throw CKError(code, userInfo: userInfo)
        }
        return (saveResults, deleteResults)
    }

    public func records(
        for ids: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil
    ) async throws -> [CKRecord.ID: Result<CKRecord, any Error>] {
        do {
            let fetched = try await device.fetchRecords(ids.map(StandInRecords.recordID), desiredKeys: desiredKeys, in: scope)
            var results: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
            for (id, outcome) in fetched {
                results[StandInRecords.recordID(id)] = outcome.map(StandInRecords.ckRecord).mapError { StandInErrors.ckError($0) }
            }
            // A share is a record too: IDs no record has may be shares.
            let missing = fetched.compactMap { id, outcome in if case .failure(let error) = outcome, error.code == .unknownItem { id } else { nil } }
            if !missing.isEmpty {
                for (id, outcome) in try await device.fetchShares(missing, in: scope) {
                    if case .success(let share) = outcome { results[StandInRecords.recordID(id)] = .success(StandInShares.ckShare(share)) }
                }
            }
            return results
        } catch {
            throw StandInErrors.ckError(error)
        }
    }

    public func recordZoneChanges(
        inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, desiredKeys: [CKRecord.FieldKey]? = nil, resultsLimit: Int? = nil
    ) async throws -> (
        modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>],
        deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool
    ) {
        let changes: ZoneChanges
        do {
            changes = try await device.fetchZoneChanges(
                in: StandInRecords.zoneID(zoneID), scope: scope, since: changeToken.map { ChangeToken(archive: $0.archive) },
                resultsLimit: resultsLimit, desiredKeys: desiredKeys)
        } catch {
            throw StandInErrors.ckError(error)
        }
        var modifications: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>] = [:]
        for record in changes.changedRecords {
            let ck = StandInRecords.ckRecord(record)
            modifications[ck.recordID] = .success(CKDatabase.RecordZoneChange.Modification(record: ck))
        }
        for share in changes.changedShares {
            let ck = StandInShares.ckShare(share)
            modifications[ck.recordID] = .success(CKDatabase.RecordZoneChange.Modification(record: ck))
        }
        // A record the server cannot serve is a failed result among the good ones.
        for (id, error) in changes.unreadableRecords {
            modifications[StandInRecords.recordID(id)] = .failure(StandInErrors.ckError(error))
        }
        let deletions = changes.deletedRecords.map { CKDatabase.RecordZoneChange.Deletion(recordID: StandInRecords.recordID($0.id), recordType: $0.recordType) }
        return (modifications, deletions, CKServerChangeToken(archive: changes.newToken.archive), changes.moreComing)
    }

    public func databaseChanges(
        since changeToken: CKServerChangeToken?, resultsLimit: Int? = nil
    ) async throws -> (
        modifications: [CKDatabase.DatabaseChange.Modification], deletions: [CKDatabase.DatabaseChange.Deletion],
        changeToken: CKServerChangeToken, moreComing: Bool
    ) {
        let changes: DatabaseChanges
        do {
            changes = try await device.fetchDatabaseChanges(in: scope, since: changeToken.map { ChangeToken(archive: $0.archive) })
        } catch {
            throw StandInErrors.ckError(error)
        }
        let modifications = changes.changedZones.map { CKDatabase.DatabaseChange.Modification(zoneID: StandInRecords.zoneID($0)) }
        let deletions = changes.deletedZones.sorted { $0.key.description < $1.key.description }.map { zone, reason in
            let why: CKDatabase.DatabaseChange.Deletion.Reason = switch reason {
            case .deleted: .deleted
            case .purged: .purged
            case .encryptedDataReset: .encryptedDataReset
            }
            return CKDatabase.DatabaseChange.Deletion(zoneID: StandInRecords.zoneID(zone), purged: why == .purged, reason: why)
        }
        return (modifications, deletions, CKServerChangeToken(archive: changes.newToken.archive), changes.moreComing)
    }

    /// One page of a query, from LocalCloud.
    func page(
        _ query: CKQuery, zoneID: CKRecordZone.ID?, desiredKeys: [CKRecord.FieldKey]?, resultsLimit: Int, cursor: QueryCursor?
    ) async throws -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        let request = RecordQuery(
            recordType: query.recordType, in: zoneID.map(StandInRecords.zoneID), conditions: query.conditions, sorts: query.sorts,
            desiredKeys: desiredKeys, resultsLimit: resultsLimit == CKQueryOperation.maximumResults ? nil : resultsLimit, cursor: cursor)
        let page: QueryPage
        do {
            page = try await device.query(request, in: scope)
        } catch {
            throw StandInErrors.ckError(error)
        }
        var results = page.records.map { record -> (CKRecord.ID, Result<CKRecord, any Error>) in
            let ck = StandInRecords.ckRecord(record)
            return (ck.recordID, .success(ck))
        }
        for (id, error) in page.unreadableRecords.sorted(by: { $0.key.recordName < $1.key.recordName }) {
            results.append((StandInRecords.recordID(id), .failure(StandInErrors.ckError(error))))
        }
        return (results, page.cursor.map { CKQueryCursor(query: query, zoneID: zoneID, archive: $0.archive) })
    }
}
#endif
