import SyncCore
import SyncPorts

/// A cloud version of a record arriving: the one way what the cloud has enters the store, from a
/// pull, a push's conflict, a share's records, a retirement's answer or a dropped change. It runs
/// inside the transaction that records the version, so the decision is made on the store as it is
/// at that moment: an app write cannot slip in between reading the model and writing it back.
/// Everything an arrival implies happens here: a natural key's copy redirected to its survivor,
/// the known version kept, the model merged or taken, and the asset cache told of the markers.
///
/// When the app has no change of the record in flight, the model takes the server's version.
/// When it has one (waiting, or set aside), the model becomes the three-way merge of the last
/// version this device knew, the model and the server's version, and the change goes up with the
/// server's change tag. Either way the server version becomes the known one, the next merge's
/// ancestor.
struct CloudVersionArrival {
    /// The store topics a cloud version's arrival reads and writes.
    typealias Topics = NaturalKeyMerge.Topics & ConflictLog & AssetEntries & BackfilledValues

    let context: SyncContext

    struct Applied {
        /// The record as the model now is; nil when the model was deleted here and the deletion
        /// is still to go up.
        var record: SyncRecord?
        /// References (the parent included) whose targets are not stored.
        var missingTargets: [RecordKey] = []
        var merged = false
    }

    /// `isLocalChange`: what the caller knows of the model: it holds a change of its own (a push
    /// meeting a conflict, a full upload's record), or the pull's record of the app's changes
    /// says whether it does; nil asks the store. `isStored` false: the caller knows the model is
    /// not stored (nothing is read for it); nil or true, the store is asked.
    func apply(_ server: SyncRecord, as type: any SyncModel.Type, in store: any Topics, isLocalChange: Bool? = nil, isStored: Bool? = nil) throws -> Applied {
        let applied = try merge(server, as: type, in: store, isLocalChange: isLocalChange, isStored: isStored)
        if let record = applied.record { try AssetMarkers(context: context).arrived(record, in: store) }
        return applied
    }

    /// Whether the store holds this very version of the record already (its change tag known,
    /// its model stored): an arrival of it would change nothing.
    static func holds(_ record: SyncRecord, type: any SyncModel.Type, in store: any Topics) throws -> Bool {
        guard let tag = record.changeTag else { return false }
        return try store.serverChangeTag(record.id) == tag && store.isStored(type: type, recordName: record.id.recordName)
    }

    /// Whether `record` holds a key the version kept here lacks: the kept one was fetched with
    /// fewer keys than the app reads now (`PullPhase.refetchZonesForNewKeys`).
    static func bringsKeysNotHeld(_ record: SyncRecord, in store: any Topics) throws -> Bool {
        guard let kept = try store.serverRecord(record.id) else { return true }
        return record.fields.names.contains { kept.fields[$0] == nil } || record.encryptedFields.names.contains { kept.encryptedFields[$0] == nil }
    }

    /// The cloud's version taken over this device's change, which is dropped (a change the app
    /// reverted, one the cloud refused): written over the model as it is, and kept as the known
    /// version.
    func replace(_ server: SyncRecord, as type: any SyncModel.Type, in store: any Topics) throws {
        try store.setServerRecord(server)
        _ = try store.applyPulled(server, as: type)
        try AssetMarkers(context: context).arrived(server, in: store)
    }

    private func merge(_ server: SyncRecord, as type: any SyncModel.Type, in store: any Topics, isLocalChange: Bool?, isStored: Bool?) throws -> Applied {
        let naturalKeys = NaturalKeyMerge(context: context)
        // A record this device merged into another sharing its natural key stays merged: what
        // another device changed of it since goes to the survivor.
        if try naturalKeys.foldArrival(server, type: type, store: store) {
            try store.setServerRecord(server)
            return Applied(record: nil)
        }
        guard try isLocalChange ?? store.hasLocalChange(recordType: server.recordType, recordName: server.id.recordName) else {
            try store.setServerRecord(server)
            let missing = isStored == false ? try store.insertPulled(server, as: type) : try store.applyPulled(server, as: type)
            return Applied(record: server, missingTargets: try Self.unredirected(missing, by: naturalKeys, in: store))
        }
        let ancestor = try ancestor(of: server, in: store)
        try store.setServerRecord(server)
        guard var local = try store.uploadRecord(type: type, recordName: server.id.recordName, routes: context.routes) else {
            return Applied(record: nil)
        }
        try yieldBackfills(of: &local, to: server, since: ancestor, in: store)
        let rules = type.mergeRules(policy: context.configuration.conflictPolicy(for: type))
        let merge = RecordMerge.merge(ancestor: ancestor, local: local, server: server, rules: rules)
        var merged = merge.record
        merged.id = server.id
        let missing = try Self.unredirected(try store.applyPulled(merged, as: type), by: naturalKeys, in: store)
        try store.noteConflictResolution(recordType: server.recordType, recordName: server.id.recordName)
        context.events.publish(.conflictResolved(server.id))
        if !merge.conflicts.isEmpty {
            let conflict = try store.recordConflict(recordType: server.recordType, id: server.id, fields: merge.conflicts, retention: context.configuration.conflictRetention)
            context.events.publish(.conflictRecorded(conflict))
        }
        return Applied(record: merged, missingTargets: missing, merged: true)
    }

    /// A value a schema migration computed here, still unchanged and unpushed, yields to the
    /// cloud's where the cloud's changed since the version both started from (another device
    /// backfilled it first, or the user set it there): the merge then sees both sides agree. A
    /// value the app changed since the backfill is its own, and merges as any edit does.
    private func yieldBackfills(of local: inout SyncRecord, to server: SyncRecord, since ancestor: SyncRecord?, in store: any Topics) throws {
        let backfilled = try store.backfilledValues(recordType: server.recordType, recordName: server.id.recordName)
        guard !backfilled.isEmpty else { return }
        for (key, value) in backfilled where local[field: key] == value {
            guard let theirs = server[field: key], theirs != ancestor?[field: key] else { continue }
            if local.encryptedFields[key] != nil { local.encryptedFields[key] = theirs } else { local.fields[key] = theirs }
        }
        try store.forgetBackfilledValues(recordType: server.recordType, recordNames: [server.id.recordName])
    }

    /// The version a merge of `server` starts from: the last server version known here, or the
    /// newest save this device sent and never read the reply of (lost, or the app killed before
    /// it read it: `noteSent`) when `server` descends from that save and the known version does
    /// not (the save landed, and the others' edits came after it: against the older version,
    /// what this device removed since, or what the others removed of the save's changes, would
    /// come back). The saves kept are forgotten: `server` settles them.
    private func ancestor(of server: SyncRecord, in store: any Topics) throws -> SyncRecord? {
        // A record's first version in the zone it moved into descends from its copy in the zone
        // it moved out of (``ZoneMoves``).
        let known = try store.serverRecord(server.id) ?? ZoneMoves(context: context).copyLeftBehind(of: server.id, in: store)
        let sent = try store.sentVersions(server.id)
        guard !sent.isEmpty else { return known }
        try store.forgetSent([server.id.recordName], in: server.id.zoneID)
        let knownUploads = Set(known?.uploadVersions ?? [])
        // The server's uploads run newest first: the first one this device knows decides.
        for upload in server.uploadVersions {
            if knownUploads.contains(upload) { return known }
            if let save = sent.first(where: { $0.uploadVersions.first == upload }) { return save }
        }
        return known
    }

    /// Missing targets, but those merged away here: the record now points at their survivors.
    private static func unredirected(_ missing: [RecordKey], by naturalKeys: NaturalKeyMerge, in store: any Topics) throws -> [RecordKey] {
        guard !missing.isEmpty else { return missing }
        let redirected = try naturalKeys.redirect(missing, store: store)
        return redirected.isEmpty ? missing : missing.filter { !redirected.contains($0) }
    }
}
