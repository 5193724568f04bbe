import Foundation

/// Share lifecycle: create (the root and its share in one request), invite, accept (the shared
/// database read again from scratch, the root stored first), stop (by the share's known ID),
/// leave (only the shared subtree removed locally).
struct ShareUseCase {
    let context: SyncContext

    /// The record name a root's share gets: chosen here, so it can be deleted by ID later.
    static func shareRecordName(forRoot root: String) -> String { "share-" + root }

    func share<Root: ShareableModel>(_ root: Root, title: String?, participants: [ShareParticipant], publicPermission: SharePermission) async throws(CloudError) -> ShareRecord {
        guard root.resolvedScope == .private else {
            throw CloudError(.permissionFailure, "only the owner shares a record")
        }
        guard var record = try context.local({ try context.store.uploadRecord(type: Root.self, recordName: root.recordName, syncZoneName: context.configuration.syncZoneName) }) else {
            throw CloudError(.unknownItem, "\(Root.recordType) \(root.recordName) is not stored")
        }
        record.changeTag = try context.local { try context.store.serverRecord(record.id)?.changeTag }
        let share = ShareRecord(
            id: RecordID(recordName: Self.shareRecordName(forRoot: root.recordName), zoneID: record.id.zoneID),
            rootRecordName: root.recordName, title: title ?? root.shareTitle, participants: participants, publicPermission: publicPermission)
        // The share and its root go in one request, or CloudKit refuses the share.
        let result = try await context.gateway.modify(ModifyRequest(recordsToSave: [record], sharesToSave: [share]), in: .private)
        if let failure = result.partialFailure { throw failure.itemErrors.values.first ?? failure }
        var savedRoot = try result.savedRecords[record.id]!.get()
        savedRoot.shareRecordName = share.id.recordName
        try context.local { try context.store.setServerRecord(savedRoot) }
        return try result.savedShares[share.id]!.get()
    }

    /// Adds participants to an existing share (again with the server's copy on a conflict).
    func invite<Root: ShareableModel>(_ participants: [ShareParticipant], to root: Root) async throws(CloudError) -> ShareRecord {
        let id = try shareID(of: root)
        for attempt in 0..<2 {
            guard case .success(var share) = try await context.gateway.fetchShares([id], in: .private)[id] else {
                throw CloudError(.unknownItem, "\(root.recordName) is not shared")
            }
            for participant in participants where !share.participants.contains(where: { $0.userRecordName == participant.userRecordName }) {
                share.participants.append(participant)
            }
            let result = try await context.gateway.modify(ModifyRequest(sharesToSave: [share]), in: .private)
            switch result.savedShares[id] {
            case .success(let saved): return saved
            case .failure(let error) where error.code == .serverRecordChanged && attempt == 0: continue
            case .failure(let error): throw error
            case nil: throw CloudError(.serviceUnavailable, "no result for the share")
            }
        }
        throw CloudError(.serverRecordChanged, "the share keeps changing")
    }

    /// Stops sharing: the share is deleted by its ID, never looked for.
    func stopSharing<Root: ShareableModel>(_ root: Root) async throws(CloudError) {
        let id = try shareID(of: root)
        let result = try await context.gateway.modify(ModifyRequest(recordIDsToDelete: [id]), in: .private)
        if let error = result.itemErrors[id], error.code != .unknownItem { throw error }
        if var server = try context.local({ try context.store.serverRecord(root.makeRecord(syncZoneName: context.configuration.syncZoneName).id) }) {
            server.shareRecordName = nil
            try context.local { try context.store.setServerRecord(server) }
        }
    }

    private func shareID<Root: ShareableModel>(of root: Root) throws(CloudError) -> RecordID {
        let rootID = root.makeRecord(syncZoneName: context.configuration.syncZoneName).id
        let name = try context.local { try context.store.serverRecord(rootID)?.shareRecordName } ?? Self.shareRecordName(forRoot: root.recordName)
        return RecordID(recordName: name, zoneID: rootID.zoneID)
    }

    /// Accepts a share. The shared database is then read from scratch (its token may already be
    /// past the zone), the root first so it shows at once. Offline or not ready, the acceptance
    /// is remembered and completed by a later pass.
    func accept(_ metadata: ShareMetadata) async throws(CloudError) {
        do {
            try await context.gateway.acceptShare(metadata)
        } catch where RecoveryPolicy.action(for: error) == .waitForNetwork || SetupUseCase.isTransient(error) {
            try remember(metadata)
            throw error
        }
        try context.local {
            try context.store.setState(Self.pendingKey(metadata), nil)
            try context.store.setState("token.database.shared", nil)
            try context.store.setState("token.zone.shared.\(metadata.ownerName).\(metadata.shareID.zoneID.zoneName)", nil)
        }
        if let root = metadata.rootRecordName {
            let id = RecordID(recordName: root, zoneID: ZoneID(zoneName: metadata.shareID.zoneID.zoneName, ownerName: metadata.ownerName))
            if case .success(let record) = try await context.gateway.fetchRecords([id], desiredKeys: context.registry.keysWithoutAssetContents, in: .shared)[id],
                let type = context.registry.type(forRecordType: record.recordType)
            {
                try context.local {
                    try context.store.setServerRecord(record)
                    _ = try context.store.applyPulled(record, as: type)
                }
                try AssetCacheUseCase(context: context).recordArrived(record)
            }
        }
    }

    private static func pendingKey(_ metadata: ShareMetadata) -> String {
        "pendingAccept.\(metadata.ownerName).\(metadata.shareID.zoneID.zoneName).\(metadata.shareID.recordName)"
    }

    private func remember(_ metadata: ShareMetadata) throws(CloudError) {
        let json = String(decoding: (try? JSONEncoder().encode(metadata)) ?? Data(), as: UTF8.self)
        try context.local {
            try context.store.setState(Self.pendingKey(metadata), json)
            var pending = Set((try context.store.state(Self.pendingListKey) ?? "").split(separator: "\n").map(String.init))
            pending.insert(Self.pendingKey(metadata))
            try context.store.setState(Self.pendingListKey, pending.sorted().joined(separator: "\n"))
        }
    }

    static let pendingListKey = "pendingAccepts"

    /// Acceptances that could not complete before.
    func pendingAcceptances() throws(CloudError) -> [ShareMetadata] {
        let keys = try context.local { try context.store.state(Self.pendingListKey) ?? "" }.split(separator: "\n").map(String.init)
        var pending: [ShareMetadata] = []
        for key in keys {
            guard let json = try context.local({ try context.store.state(key) }),
                let metadata = try? JSONDecoder().decode(ShareMetadata.self, from: Data(json.utf8))
            else { continue }
            pending.append(metadata)
        }
        return pending
    }

    func forgetPending() throws(CloudError) {
        try context.local { try context.store.setState(Self.pendingListKey, nil) }
    }

    /// Leaves someone else's share: deletes the share in the shared database and removes only
    /// the shared subtree locally (the owner's other shared lists in the zone stay).
    func leave<Root: ShareableModel>(_ root: Root) async throws(CloudError) {
        let rootID = RecordID(recordName: root.recordName, zoneID: ZoneID(zoneName: context.configuration.syncZoneName, ownerName: root.ownerName))
        let shareName = try context.local { try context.store.serverRecord(rootID)?.shareRecordName } ?? Self.shareRecordName(forRoot: root.recordName)
        let id = RecordID(recordName: shareName, zoneID: rootID.zoneID)
        let result = try await context.gateway.modify(ModifyRequest(recordIDsToDelete: [id]), in: .shared)
        if let error = result.itemErrors[id], error.code != .unknownItem { throw error }
        try PullUseCase(context: context, isCurrent: { true }).removeSharedSubtree(root: root.recordName, type: Root.self, zone: rootID.zoneID)
    }
}
