import Foundation
import SyncCore
import SyncPorts

/// Leaving someone else's share, with a copy of it kept if asked.
extension SharePhase {
    /// Leaves someone else's share: deletes the share in the shared database and removes only
    /// the shared subtree locally (the owner's other shared lists in the zone stay). With
    /// `keepingACopy`, the subtree is first copied into the user's own zone
    /// (``SharedSubtreeCopy``); returns the copy of the root.
    func leave<Root: ShareableModel>(_ root: Root, keepingACopy: Bool) async throws(SyncError) -> Root? {
        let copy = keepingACopy ? try keepACopy(of: root) : nil
        let id = try subject(of: root).id
        try await deleteInSharedDatabase(id)
        try context.transaction { store in
            try store.forgetShare(id)
            try SharedSubtreeCopy.forget(root: root.recordName, ownerName: root.ownerName, in: store)
            let lost = try ParentChain(context: context).removeSharedSubtree(root: root.recordName, type: Root.self, zone: id.zoneID, in: store)
            // The copy holds what this device had changed; without one, the changes the cloud
            // never received went, and the app hears which.
            if copy == nil && !lost.isEmpty {
                try LostChanges(context: context).announce(.shareEnded(id.zoneID, rootRecordName: root.recordName, lostChanges: lost), in: store)
            }
        }
        return copy
    }

    /// Copies the subtree of a share being left into the user's zone, with the asset files of
    /// its records (``SharedSubtreeCopy``); returns the copy of the root.
    private func keepACopy<Root: ShareableModel>(of root: Root) throws(SyncError) -> Root? {
        let copied = try context.transaction { try SharedSubtreeCopy(context: context).copy(root, in: $0) }
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
        try context.transaction { store in
            try ZoneServerState.forget(share.id.zoneID, scope: .shared, in: store)
            let lost = try ParentChain(context: context).removeCopy(of: share.id.zoneID, types: context.sharedTypes(in: share.id.zoneID), in: store)
            if !lost.isEmpty { try LostChanges(context: context).announce(.shareEnded(share.id.zoneID, rootRecordName: nil, lostChanges: lost), in: store) }
        }
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
