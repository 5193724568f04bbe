import Foundation
import SyncCore
import SyncPorts

/// Leaving someone else's share, with a copy of it kept if asked.
extension SharePhase {
    /// Leaves someone else's share: deletes the share in the shared database and removes only
    /// the shared subtree locally (the owner's other shared lists in the zone stay). With
    /// `keepingACopy`, the subtree is first copied into the user's own zone
    /// (``LeftShareCopy``); returns the copy of the root.
    func leave<Root: ShareableModel>(_ root: Root, keepingACopy: Bool) async throws(SyncError) -> Root? {
        let source = LeftShareCopy.Source.subtree(root: root.recordName, type: Root.self, ownerName: root.ownerName)
        let copy = keepingACopy ? try keepACopy(of: source) : nil
        let id = try subject(of: root).id
        try await deleteInSharedDatabase(id)
        try context.transaction { store in
            try store.forgetShare(id)
            try LeftShareCopy.forget(source, in: store)
            let lost = try ParentChain(context: context).removeSharedSubtree(root: root.recordName, type: Root.self, zone: id.zoneID, in: store)
            // The copy holds what this device had changed; without one, the changes the cloud
            // never received went, and the app hears which.
            if copy == nil && !lost.isEmpty {
                try LostChanges(context: context).announce(.shareEnded(id.zoneID, rootRecordName: root.recordName, lostChanges: lost), in: store)
            }
        }
        guard let rootCopy = copy?.first?.copy else { return nil }
        return try context.appWrite { try $0.fetch(Root.self, recordName: rootCopy) }
    }

    /// Copies what a share being left holds into the user's zones, with the asset files of its
    /// records (``LeftShareCopy``); returns the copies.
    private func keepACopy(of source: LeftShareCopy.Source) throws(SyncError) -> [LeftShareCopy.Copied] {
        let copied = try context.transaction { try LeftShareCopy(context: context).copy(source, in: $0) }
        try copyFiles(of: copied)
        return copied
    }

    /// The originals' files, to the copies (a file already copied is left as it is).
    private func copyFiles(of copied: [LeftShareCopy.Copied]) throws(SyncError) {
        for asset in LeftShareCopy(context: context).assets(of: copied) {
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
        for copied in try context.transaction({ try LeftShareCopy.rememberedCopies(in: $0) }) {
            try copyFiles(of: copied)
        }
    }

    /// Leaves a share of someone else's whole zone: deletes it in the shared database and removes
    /// everything of that zone here, as when the zone leaves the shared database. With `keeping`,
    /// the zone's records (or those this user created, with their ancestors) are first copied
    /// into the user's own zones (``LeftShareCopy``); returns how many records were copied.
    func leave(zoneShare share: ShareRecord, keeping: ZoneShareCopy?) async throws(SyncError) -> Int {
        let zone = share.id.zoneID
        guard share.isZoneWide, zone.ownerName != SyncConstants.currentUserOwnerName else {
            throw .cloud(CloudError(.invalidArguments, "\(ShareSubject(share)) is not a zone-wide share of someone else's: leave a root's share with leaveShare(root)"))
        }
        let source = LeftShareCopy.Source.zone(zone, onlyOwnRecords: keeping == .ownRecords)
        let copied = try keeping.map { _ throws(SyncError) in try keepACopy(of: source) } ?? []
        try await deleteInSharedDatabase(share.id)
        try context.transaction { store in
            try ZoneServerState.forget(zone, scope: .shared, in: store)
            try LeftShareCopy.forget(source, in: store)
            // A change the copy holds is kept there; one to a record left out of it is gone.
            let kept = Set(copied.map { RecordKey($0.recordType, $0.original) })
            let lost = try ParentChain(context: context).removeCopy(of: zone, types: context.sharedTypes(in: zone), in: store).filter { !kept.contains($0) }
            if !lost.isEmpty { try LostChanges(context: context).announce(.shareEnded(zone, rootRecordName: nil, lostChanges: lost), in: store) }
        }
        return copied.count
    }

    /// Deletes a share in the shared database: how a participant leaves it. A share they left
    /// already (a leave cut before this device forgot it) counts as left.
    private func deleteInSharedDatabase(_ id: RecordID) async throws(SyncError) {
        do throws(SyncError) {
            let result = try await context.cloud.modify(ModifyRequest(recordIDsToDelete: [id]), in: .shared)
            if let error = result.itemErrors[id] { throw .cloud(error) }
        } catch .cloud(let error) {
            // What deleting a share in the shared database answers a user who is no longer in
            // it: the share is gone, or their access to its zone ended.
            switch RecoveryPolicy.answer(to: error) {
            case .gone, .notAllowed, .zoneGone: return
            default: throw .cloud(error)
            }
        }
    }
}
