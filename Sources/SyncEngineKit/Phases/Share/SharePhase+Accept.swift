import Foundation
import SyncCore
import SyncPorts

/// Accepting someone else's share, by link or by metadata, remembered until it is done.
extension SharePhase {
    /// Accepts the share a link leads to: its metadata is looked up, then accepted as below.
    /// Offline, the lookup fails and says so: there is nothing to remember yet.
    func accept(at url: URL) async throws(SyncError) {
        let metadata: ShareMetadata
        do {
            metadata = try await context.cloud.shareMetadata(for: url)
        } catch .cloud(let error) where RecoveryPolicy.answer(to: error).isGone {
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
            } catch .cloud(let error) where RecoveryPolicy.answer(to: error).isGone {
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
}
