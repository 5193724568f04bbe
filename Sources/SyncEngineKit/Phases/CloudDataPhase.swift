import Foundation
import SyncCore
import SyncPorts

/// The app's decisions about the user's data in the cloud as a whole: after the user deleted it
/// in Settings, upload it again or let it go; or delete it all.
struct CloudDataPhase {
    let context: SyncContext
    let account: PassAccount

    /// Private zones the user deleted in Settings whose local data waits for the app's decision.
    func userDeletedZones() throws(SyncError) -> [ZoneID] {
        try context.transaction { try $0.stateKeys(prefix: SyncStateKeys.userDeletedZonePrefix) }.map {
            ZoneID(zoneName: String($0.dropFirst(SyncStateKeys.userDeletedZonePrefix.count)))
        }
    }

    /// The user wants the data back: each zone is created again and every local record of it
    /// queued to go up as it now is (``ZoneRebuild``, in the transaction that ends the wait), for
    /// the push the engine runs next.
    func queueUploadAgain() async throws(SyncError) {
        for zone in try userDeletedZones() {
            try await account.verify()
            try await context.cloud.saveZones([zone])
            try context.transaction { store in
                try store.setState(SyncStateKeys.userDeletedZone(zone), nil)
                try ZoneRebuild.queueEverything(of: zone, types: context.zonedTypes(in: zone), in: store)
            }
        }
    }

    /// The user meant it (Apple's guidance for a purge): this device's copy of each zone goes too,
    /// and the zone is created again, empty, so what the app writes from now on syncs.
    func removeLocalData() async throws(SyncError) {
        for zone in try userDeletedZones() {
            try await account.verify()
            try await context.cloud.saveZones([zone])
            try context.transaction { store in
                try ParentChain(context: context).removeCopy(of: zone, types: context.zonedTypes(in: zone), in: store)
                try store.setState(SyncStateKeys.userDeletedZone(zone), nil)
            }
        }
    }

    /// Deletes every record and share of one of the user's zones, read from its change feed.
    private func deleteEverything(in zone: ZoneID) async throws(SyncError) -> Int {
        var deleted = 0
        var token: ChangeToken?
        while true {
            let page: ZoneChanges
            do {
                page = try await context.cloud.fetchZoneChanges(in: zone, scope: .private, since: token, resultsLimit: nil, desiredKeys: [])
            } catch .cloud(let error) {
                // A zone that is gone holds nothing to delete.
                guard case .zoneGone = RecoveryPolicy.readFailure(error, zoneIn: .private) else { throw .cloud(error) }
                break
            }
            deleted += try await delete(page.changedShares.map(\.id) + page.changedRecords.map(\.id), in: .private)
            token = page.newToken
            if !page.moreComing { break }
        }
        return deleted
    }

    /// Deletes every record of the user's own zones (their shares with them) and every public
    /// record the user created. Record by record, not the zone: the user's other devices then see
    /// ordinary deletions and drop their copies (a deleted zone would be rebuilt and uploaded
    /// again by them, as a zone another client deleted by mistake is). The next pass brings the
    /// deletions here too. Returns how many records were deleted.
    func deleteAll() async throws(SyncError) -> Int {
        var deleted = 0
        for zone in context.ownZones {
            deleted += try await deleteEverything(in: zone)
        }
        let user = account.user
        let published = try context.transaction { store in
            try store.serverRecordIDs(inZone: SyncConstants.publicZone).filter { try store.serverRecord($0)?.isCreated(byUser: user) == true }
        }
        deleted += try await delete(published, in: .public)
        if !published.isEmpty {
            try context.transaction { store in
                // The next pass reads the mirrored catalogs again: the user's publications leave
                // them here. No pass reads the others: their copies of the publications go now.
                try CatalogRefresh.request(context.registry.publicRefreshes, in: store)
                for id in published {
                    guard let recordType = try store.serverRecord(id)?.recordType, let type = context.registry.type(forRecordType: recordType),
                        !context.registry.isMirrored(type)
                    else { continue }
                    try PublicCopies.forget(type: type, recordName: id.recordName, store: store)
                }
            }
        }
        return deleted
    }

    /// Deletes records in requests of at most `CloudKitLimits.maxItemsPerRequest`; a record already gone counts as done.
    private func delete(_ ids: [RecordID], in scope: DatabaseScope) async throws(SyncError) -> Int {
        var deleted = 0
        for start in stride(from: 0, to: ids.count, by: CloudKitLimits.maxItemsPerRequest) {
            let chunk = Array(ids[start..<min(start + CloudKitLimits.maxItemsPerRequest, ids.count)])
            try await account.verify()
            let result = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: chunk), in: scope)
            for id in chunk {
                switch RecoveryPolicy.answer(result.deletedRecords[id], for: id) {
                case .done: deleted += 1
                case .gone: continue
                case let other: throw .cloud(other.failure!)
                }
            }
        }
        return deleted
    }
}
