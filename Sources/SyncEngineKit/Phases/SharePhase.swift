import Foundation
import SyncCore
import SyncPorts

/// Share lifecycle: create (the root and its share in one request), invite, accept (the shared
/// database read again from scratch, the root stored first), stop (by the share's known ID),
/// leave (only the shared subtree removed locally).
struct SharePhase {
    let context: SyncContext

    /// The record name a root's share gets: chosen here, so it can be deleted by ID later.
    static func shareRecordName(forRoot root: String) -> String { "share-" + root }

    func share<Root: ShareableModel>(_ root: Root, title: String?, participants: [ShareParticipant], publicPermission: SharePermission) async throws(SyncError) -> ShareRecord {
        guard root.resolvedScope == .private else {
            throw .cloud(CloudError(.permissionFailure, "only the owner shares a record"))
        }
        let (local, base) = try context.transaction { store -> (SyncRecord?, SyncRecord?) in
            guard let record = try store.uploadRecord(type: Root.self, recordName: root.recordName, syncZoneName: context.configuration.syncZoneName) else { return (nil, nil) }
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
            if case .failure(let error) = result.savedRecords[sentRoot.id], error.code == .serverRecordChanged, let server = error.serverRecord, attempt == 0 {
                // The root changed on the server since this device last saw it (a child saved
                // under it is enough): go again with the server's tag, still changing nothing.
                sentRoot = Self.unchanged(server)
                continue
            }
            if let failure = result.partialFailure {
                // The zone commits atomically: the item that failed has its own error, its
                // sibling only `batchRequestFailed`. The app hears the cause.
                let cause = failure.itemErrors[share.id] ?? failure.itemErrors.values.first { $0.code != .batchRequestFailed }
                throw .cloud(cause ?? failure)
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
    func shareZone(title: String, participants: [ShareParticipant], publicPermission: SharePermission) async throws(SyncError) -> ShareRecord {
        let privateOnly = context.registry.zonedTypes.filter { !$0.syncScopes.contains(.shared) }.map { $0.recordType }
        guard privateOnly.isEmpty else {
            throw .cloud(CloudError(.invalidArguments, "a zone-wide share hands participants every record of the zone, and \(privateOnly.joined(separator: ", ")) may only be private (scopes without shared): share roots instead"))
        }
        let subject = zoneSubject
        let share = ShareRecord(id: subject.id, rootRecordName: nil, title: title, participants: participants, publicPermission: publicPermission)
        if let problem = ShareLinkRule.problem(saving: share, over: nil) { throw .cloud(CloudError(.invalidArguments, problem)) }
        try await context.cloud.saveZones([subject.id.zoneID])
        switch try await context.cloud.modify(ModifyRequest(sharesToSave: [share]), in: .private).savedShares[share.id] {
        case .success(let saved): return try keep(saved)
        case .failure(let error): throw .cloud(error)
        case nil: throw .cloud(CloudError(.serviceUnavailable, "no result for \(subject)"))
        }
    }

    /// Adds participants to an existing share. One already in it stays as they are; one who
    /// left or was removed is invited again.
    func invite(_ participants: [ShareParticipant], to subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        try await change(subject) { share throws(SyncError) in
            for participant in participants {
                guard let index = share.participants.firstIndex(where: { $0.isSamePerson(as: participant) }) else {
                    share.participants.append(participant)
                    continue
                }
                if share.participants[index].acceptanceStatus == .removed { share.participants[index] = participant }
            }
        }
    }

    /// The share as the cloud has it now; nil when there is none.
    func currentShare(of subject: ShareSubject) async throws(SyncError) -> ShareRecord? {
        switch try await context.cloud.fetchShares([subject.id], in: .private)[subject.id] {
        case .success(var share):
            // CloudKit does not say which root a fetched share is for (the root names its share,
            // not the other way round): the subject says.
            if share.rootRecordName == nil { share.rootRecordName = subject.rootRecordName }
            return try keep(share)
        case .failure(let error) where error.code == .unknownItem:
            try context.transaction { try $0.forgetShare(subject.id) }
            return nil
        case .failure(let error): throw .cloud(error)
        case nil: throw .cloud(CloudError(.serviceUnavailable, "no result for \(subject)"))
        }
    }

    /// Removes a person from the share: they lose the shared records at their next pass. The
    /// share goes to the cloud with them marked removed, and with everyone else as the cloud
    /// listed them: nobody the app did not name is removed, whether or not this device can tell
    /// who they are (a one-time link's invitee has no name until they accept).
    func remove(_ participant: ShareParticipant, from subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        try await change(subject) { share throws(SyncError) in
            share.participants[try Self.index(of: participant, in: share, subject: subject)].acceptanceStatus = .removed
        }
    }

    /// Changes what a person of the share may do.
    func setPermission(_ permission: SharePermission, of participant: ShareParticipant, on subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        guard permission != .none else {
            throw .cloud(CloudError(.invalidArguments, "a participant's permission is readOnly or readWrite; remove the participant to take the share away"))
        }
        return try await change(subject) { share throws(SyncError) in
            share.participants[try Self.index(of: participant, in: share, subject: subject)].permission = permission
        }
    }

    /// Opens the share to anyone with its link (`readOnly`, `readWrite`), or closes it (`none`):
    /// the cloud then removes whoever joined by the link.
    func setPublicPermission(_ permission: SharePermission, on subject: ShareSubject) async throws(SyncError) -> ShareRecord {
        try await change(subject) { share throws(SyncError) in share.publicPermission = permission }
    }

    /// Where a person other than the owner stands in the share, or an error naming them.
    private static func index(of participant: ShareParticipant, in share: ShareRecord, subject: ShareSubject) throws(SyncError) -> Int {
        guard let index = share.participants.firstIndex(where: { $0.isSamePerson(as: participant) && $0.acceptanceStatus != .removed }) else {
            throw .cloud(CloudError(.unknownItem, "\(participant.described) does not take part in \(subject)"))
        }
        guard share.participants[index].role != .owner else {
            throw .cloud(CloudError(.invalidArguments, "the owner of \(subject) stays in it; stop sharing to end it"))
        }
        return index
    }

    /// Changes the share as the cloud has it: fetched, changed, and saved over the version
    /// fetched. A save that meets a newer version (someone accepted, another device of the owner
    /// changed the share) fetches again and makes the change on that, once more.
    private func change(_ subject: ShareSubject, _ change: (inout ShareRecord) throws(SyncError) -> Void) async throws(SyncError) -> ShareRecord {
        for attempt in 0..<2 {
            guard let current = try await currentShare(of: subject) else {
                throw .cloud(CloudError(.unknownItem, "\(subject) does not exist"))
            }
            var share = current
            try change(&share)
            if let problem = ShareLinkRule.problem(saving: share, over: current) { throw .cloud(CloudError(.invalidArguments, problem)) }
            let result = try await context.cloud.modify(ModifyRequest(sharesToSave: [share]), in: .private)
            switch result.savedShares[subject.id] {
            case .success(let saved): return try keep(saved)
            case .failure(let error) where error.code == .serverRecordChanged && attempt == 0: continue
            case .failure(let error): throw .cloud(error)
            case nil: throw .cloud(CloudError(.serviceUnavailable, "no result for \(subject)"))
            }
        }
        throw .cloud(CloudError(.serverRecordChanged, "\(subject) keeps changing"))
    }

    /// Stops sharing: the share is deleted by its ID, never looked for.
    func stopSharing(_ subject: ShareSubject) async throws(SyncError) {
        let result = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: [subject.id]), in: .private)
        if let error = result.itemErrors[subject.id], error.code != .unknownItem { throw .cloud(error) }
        try context.transaction { store in
            try store.forgetShare(subject.id)
            guard let root = subject.rootRecordName, var server = try store.serverRecord(RecordID(recordName: root, zoneID: subject.id.zoneID)) else { return }
            server.shareRecordName = nil
            try store.setServerRecord(server)
        }
    }

    /// The share of a root, the user's own or someone else's: the one its server version names,
    /// else the name the engine gives a root's share.
    func subject<Root: ShareableModel>(of root: Root) throws(SyncError) -> ShareSubject {
        let rootID = root.makeRecord(syncZoneName: context.configuration.syncZoneName).id
        let name = try context.transaction { try $0.serverRecord(rootID)?.shareRecordName } ?? Self.shareRecordName(forRoot: root.recordName)
        return ShareSubject(id: RecordID(recordName: name, zoneID: rootID.zoneID), rootRecordName: root.recordName)
    }

    /// The share of the user's whole zone.
    var zoneSubject: ShareSubject {
        ShareSubject(id: RecordID(recordName: ShareRecord.zoneWideRecordName, zoneID: ZoneID(zoneName: context.configuration.syncZoneName, ownerName: SyncConstants.currentUserOwnerName)), rootRecordName: nil)
    }

    /// Keeps a share the cloud just returned, so the app reads it offline and the store checks
    /// writes against it (`KnownShares`).
    private func keep(_ share: ShareRecord) throws(SyncError) -> ShareRecord {
        try context.transaction { try $0.keepShare(share) }
        return share
    }

    /// The people invitations name, looked up in the cloud (the only way CloudKit makes
    /// participants), each with the invitation's permission. One that cannot be found fails the
    /// call, naming how it was looked up: a share never goes out to fewer people than asked.
    func participants(for invitations: [ShareInvitation]) async throws(SyncError) -> [ShareParticipant] {
        guard !invitations.isEmpty else { return [] }
        let found = try await context.cloud.participants(for: invitations.map(\.lookup))
        var participants: [ShareParticipant] = []
        for invitation in invitations {
            switch found[invitation.lookup] {
            case .success(var participant):
                participant.permission = invitation.permission
                participants.append(participant)
            case .failure(let error):
                throw .cloud(CloudError(error.code, "\(invitation.lookup) could not be found: \(error.message)", retryAfter: error.retryAfter))
            case nil:
                throw .cloud(CloudError(.serviceUnavailable, "no answer for \(invitation.lookup)"))
            }
        }
        return participants
    }

    /// Accepts the share a link leads to: its metadata is looked up, then accepted as below.
    /// Offline, the lookup fails and says so: there is nothing to remember yet.
    func accept(at url: URL) async throws(SyncError) {
        let metadata: ShareMetadata
        do {
            metadata = try await context.cloud.shareMetadata(for: url)
        } catch .cloud(let error) where error.code == .unknownItem {
            throw Self.shareGone(error)
        }
        try await accept(metadata)
    }

    /// A share's link or acceptance answered `unknownItem`: the share is gone (its owner stopped
    /// sharing, or deleted what it shared), which is the user's to know.
    private static func shareGone(_ error: CloudError) -> SyncError {
        var error = error
        error.userMessageKey = .shareUnavailable
        return .cloud(error)
    }

    /// Accepts a share. The shared database is then read from scratch (its token may already be
    /// past the zone), the root first so it shows at once. Offline or not ready, the acceptance
    /// is remembered and completed by a later pass.
    ///
    /// The metadata says first what the user is to the share: the owner opening their own link
    /// has the records in their private database already, and nothing is done; a share this
    /// user accepted already (on another device) is not accepted again, only read.
    func accept(_ metadata: ShareMetadata) async throws(SyncError) {
        guard metadata.participantRole != .owner else {
            try context.transaction { try $0.setState(SyncStateKeys.pendingAcceptance(metadata), nil) }
            return
        }
        if metadata.participantStatus != .accepted {
            do {
                try await context.cloud.acceptShare(metadata)
            } catch .cloud(let error) where RecoveryPolicy.isTransient(error) {
                try remember(metadata)
                throw .cloud(error)
            } catch .cloud(let error) where error.code == .unknownItem {
                // The share went between the link's lookup and its acceptance.
                throw Self.shareGone(error)
            }
        }
        let zone = ZoneID(zoneName: metadata.shareID.zoneID.zoneName, ownerName: metadata.ownerName)
        try context.transaction { store in
            try store.setState(SyncStateKeys.pendingAcceptance(metadata), nil)
            try store.setState(SyncStateKeys.databaseToken(.shared), nil)
            try store.setState(SyncStateKeys.zoneToken(zone, .shared), nil)
        }
        if let root = metadata.rootRecordName {
            let id = RecordID(recordName: root, zoneID: zone)
            if case .success(let record) = try await context.cloud.fetchRecords([id], desiredKeys: context.registry.keysWithoutAssetContents, in: .shared)[id],
                let type = context.registry.type(forRecordType: record.recordType)
            {
                try context.transaction { store in _ = try CloudVersionArrival(context: context).apply(record, as: type, in: store) }
            }
        }
        context.events.publish(.shareAccepted(metadata))
    }

    private func remember(_ metadata: ShareMetadata) throws(SyncError) {
        let json = String(decoding: (try? JSONEncoder().encode(metadata)) ?? Data(), as: UTF8.self)
        try context.transaction { try $0.setState(SyncStateKeys.pendingAcceptance(metadata), json) }
    }

    /// Acceptances that could not complete before; `accept` forgets each once it completes.
    func pendingAcceptances() throws(SyncError) -> [ShareMetadata] {
        try context.transaction { store in
            try store.stateKeys(prefix: SyncStateKeys.pendingAcceptancePrefix).compactMap { key in
                try store.state(key).flatMap { try? JSONDecoder().decode(ShareMetadata.self, from: Data($0.utf8)) }
            }
        }
    }

    /// Leaves someone else's share: deletes the share in the shared database and removes only
    /// the shared subtree locally (the owner's other shared lists in the zone stay). With
    /// `keepingACopy`, the subtree is first copied into the user's own zone
    /// (``SharedSubtreeCopy``); returns the copy of the root.
    func leave<Root: ShareableModel>(_ root: Root, keepingACopy: Bool) async throws(SyncError) -> Root? {
        let copy = keepingACopy ? try keepACopy(of: root) : nil
        let id = try subject(of: root).id
        try await deleteInSharedDatabase(id)
        let lost = try context.transaction { store in
            try store.forgetShare(id)
            try SharedSubtreeCopy.forget(root: root.recordName, ownerName: root.ownerName, in: store)
            return try ParentChain(context: context).removeSharedSubtree(root: root.recordName, type: Root.self, zone: id.zoneID, in: store)
        }
        // The copy holds what this device had changed; without one, the changes the cloud never
        // received went, and the app hears which.
        if copy == nil && !lost.isEmpty { context.events.publish(.shareEnded(id.zoneID, rootRecordName: root.recordName, lostChanges: lost)) }
        return copy
    }

    /// Copies the subtree of a share being left into the user's zone, with the asset files of
    /// its records (``SharedSubtreeCopy``); returns the copy of the root.
    private func keepACopy<Root: ShareableModel>(of root: Root) throws(SyncError) -> Root? {
        let copied = try SharedSubtreeCopy(context: context).copy(root)
        try copyFiles(of: copied)
        guard let rootCopy = copied.first?.copy else { return nil }
        return try context.appWrite { try $0.fetch(Root.self, recordName: rootCopy) }
    }

    /// The originals' files, to the copies (a file already copied is left as it is).
    private func copyFiles(of copied: [SharedSubtreeCopy.Copied]) throws(SyncError) {
        for asset in SharedSubtreeCopy(context: context).assets(of: copied) {
            do {
                try AssetFileCopy(context: context).copy(from: asset.original, to: asset.copy)
            } catch {
                throw .assetFiles(error)
            }
        }
    }

    /// The files of the copies a leave cut short made (the app died after the copies were saved,
    /// before their files were copied): copied by the pass, so each copy uploads its file even if
    /// the user never leaves again. The share is still there, and so are the originals' files.
    func copyFilesOfInterruptedLeaves() throws(SyncError) {
        for copied in try context.transaction({ try SharedSubtreeCopy.rememberedCopies(in: $0) }) {
            try copyFiles(of: copied)
        }
    }

    /// Leaves a share of someone else's whole zone: deletes it in the shared database and removes
    /// everything of that zone here, as when the zone leaves the shared database.
    func leave(zoneShare share: ShareRecord) async throws(SyncError) {
        guard share.isZoneWide, share.id.zoneID.ownerName != SyncConstants.currentUserOwnerName else {
            throw .cloud(CloudError(.invalidArguments, "\(ShareSubject(share)) is not a zone-wide share of someone else's: leave a root's share with leaveShare(root)"))
        }
        try await deleteInSharedDatabase(share.id)
        let lost = try context.transaction { store in
            try ZoneServerState.forget(share.id.zoneID, scope: .shared, in: store)
            return try ParentChain(context: context).removeSharedZone(share.id.zoneID, in: store)
        }
        if !lost.isEmpty { context.events.publish(.shareEnded(share.id.zoneID, rootRecordName: nil, lostChanges: lost)) }
    }

    /// Deletes a share in the shared database: how a participant leaves it. A share they left
    /// already (a leave cut before this device forgot it) counts as left.
    private func deleteInSharedDatabase(_ id: RecordID) async throws(SyncError) {
        do throws(SyncError) {
            let result = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: [id]), in: .shared)
            if let error = result.itemErrors[id] { throw .cloud(error) }
        } catch .cloud(let error) where Self.saysTheUserIsOut(error) {
            return
        }
    }

    /// What deleting a share in the shared database answers a user who is no longer in it: the
    /// share is gone, or their access to its zone ended.
    private static func saysTheUserIsOut(_ error: CloudError) -> Bool {
        [.unknownItem, .zoneNotFound, .permissionFailure].contains(error.code)
    }
}

/// The share an owner's call manages: a root's (with the hierarchy under it), or the whole zone's.
struct ShareSubject: CustomStringConvertible {
    /// The share record's ID.
    let id: RecordID
    /// The shared root; nil for a zone-wide share.
    let rootRecordName: String?

    /// A share the cloud returned.
    init(_ share: ShareRecord) {
        self.init(id: share.id, rootRecordName: share.rootRecordName)
    }

    init(id: RecordID, rootRecordName: String?) {
        self.id = id
        self.rootRecordName = rootRecordName
    }

    var description: String {
        if let rootRecordName { return "the share of \(rootRecordName)" }
        return ShareRecord.isZoneWide(id) ? "the share of zone \(id.zoneID.zoneName)" : "share \(id.recordName)"
    }
}
