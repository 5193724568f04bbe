import Foundation
import SyncCore
import SyncPorts

/// Share lifecycle, a file per job: create (here: the root and its share in one request), change
/// who is in it and how (+Participants: invite, remove, permissions, stop, by the share's known
/// ID), accept (+Accept: the shared database read again from scratch, the root stored first),
/// leave (+Leave: only the shared subtree removed locally, a copy kept if asked).
struct SharePhase {
    let context: SyncContext

    /// The record name a root's share gets: chosen here, so it can be deleted by ID later.
    static func shareRecordName(forRoot root: String) -> String { "share-" + root }

    func share<Root: ShareableModel>(_ root: Root, title: String?, participants: [ShareParticipant], publicPermission: SharePermission) async throws(SyncError) -> ShareRecord {
        guard root.resolvedScope == .private else {
            throw .cloud(CloudError(.permissionFailure, "only the owner shares a record"))
        }
        let (local, base) = try context.transaction { store -> (SyncRecord?, SyncRecord?) in
            guard let record = try store.uploadRecord(type: Root.self, recordName: root.recordName, routes: context.routes) else { return (nil, nil) }
            return (record, try store.serverRecord(record.id))
        }
        guard let local else {
            throw .cloud(CloudError(.unknownItem, "\(Root.recordType) \(root.recordName) is not stored"))
        }
        let share = ShareRecord(
            id: RecordID(recordName: Self.shareRecordName(forRoot: root.recordName), zoneID: local.id.zoneID),
            rootRecordName: root.recordName, title: title ?? root.shareTitle, participants: participants, publicPermission: publicPermission)
        if let problem = ShareLinkRule.problem(saving: share, over: nil) { throw .cloud(CloudError(.invalidArguments, problem)) }
        // CloudKit refuses a new share unless its root is saved in the same request. A root the
        // server has goes unchanged (its edits wait for the push, which merges them); one it does
        // not have yet goes whole.
        var sentRoot = base.map(Self.unchanged) ?? local
        for attempt in 0..<2 {
            let result = try await context.cloud.modify(ModifyRequest(recordsToSave: [sentRoot], sharesToSave: [share]), in: .private)
            if attempt == 0, case .conflict(let error) = RecoveryPolicy.answer(result.savedRecords[sentRoot.id], for: sentRoot.id), let server = error.serverRecord {
                // The root changed on the server since this device last saw it (a child saved
                // under it is enough): go again with the server's tag, still changing nothing.
                sentRoot = Self.unchanged(server)
                continue
            }
            if let failure = result.partialFailure {
                // The zone commits atomically: the item that failed has its own error, its
                // sibling only `batchRequestFailed`. The app hears the cause.
                throw .cloud(RecoveryPolicy.cause(of: failure, naming: share.id) ?? failure)
            }
            let savedRoot = try result.savedRecords[sentRoot.id]!.value()
            let savedShare = try result.savedShares[share.id]!.value()
            // The root's version names its share, and the share is kept, together.
            try context.transaction { store in
                try store.keepShare(savedShare)
                guard var known = base else {
                    var whole = local
                    whole.base(onServerVersionOf: savedRoot)
                    whole.takeServerMetadata(of: savedRoot)
                    whole.shareRecordName = share.id.recordName
                    return try store.setServerRecord(whole)
                }
                // The tag moves only when the server's copy was the one this device knew: a root
                // edited elsewhere keeps the older tag, so its next push merges.
                if sentRoot.changeTag == known.changeTag { known.base(onServerVersionOf: savedRoot) }
                known.shareRecordName = share.id.recordName
                try store.setServerRecord(known)
            }
            return savedShare
        }
        throw .cloud(CloudError(.serverRecordChanged, "\(Root.recordType) \(root.recordName) keeps changing on the server"))
    }

    /// A record as the server has it, to save again changing nothing but what comes with it.
    private static func unchanged(_ record: SyncRecord) -> SyncRecord {
        var unchanged = SyncRecord(recordType: record.recordType, id: record.id, parentRecordName: record.parentRecordName)
        unchanged.base(onServerVersionOf: record)
        return unchanged
    }

    /// Shares the user's whole zone: every record in it, and every record saved there later, with
    /// no share of its own. A zone that holds a root's share cannot be shared whole, and the cloud
    /// says so. Every model that can live in the zone must allow the shared database: a zone-wide
    /// share hands participants every record of the zone, and a model the schema keeps private
    /// would go with them.
    func shareZone(_ zoneName: String?, title: String, participants: [ShareParticipant], publicPermission: SharePermission) async throws(SyncError) -> ShareRecord {
        let subject = try zoneSubject(zoneName)
        let privateOnly = context.zonedTypes(in: subject.id.zoneID).filter { !$0.syncScopes.contains(.shared) }.map { $0.recordType }
        guard privateOnly.isEmpty else {
            throw .cloud(CloudError(.invalidArguments, "a zone-wide share hands participants every record of the zone, and \(privateOnly.joined(separator: ", ")) may only be private (scopes without shared): share roots instead"))
        }
        let share = ShareRecord(id: subject.id, rootRecordName: nil, title: title, participants: participants, publicPermission: publicPermission)
        if let problem = ShareLinkRule.problem(saving: share, over: nil) { throw .cloud(CloudError(.invalidArguments, problem)) }
        try await context.cloud.saveZones([subject.id.zoneID])
        let saved = try await context.cloud.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id]
        return try keep(try RecoveryPolicy.answer(saved, for: subject).result.value())
    }

    /// Keeps a share the cloud just returned, so the app reads it offline and the store checks
    /// writes against it (`KnownShares`).
    func keep(_ share: ShareRecord) throws(SyncError) -> ShareRecord {
        try context.transaction { try $0.keepShare(share) }
        return share
    }
}
