import Foundation
import SyncCore
import SyncPorts
import SyncStorage

extension LocalCloudServer {
    /// Saves and deletes records and shares: every rule of a CloudKit modify request. Returns each
    /// item's outcome, the zones that changed and the records created, changed or deleted (what
    /// subscriptions fire on). Throws only for the request as a whole.
    func modify(_ request: ModifyRequest, scope: DatabaseScope, caller: Caller) throws -> (ModifyResult, [StoredZone], [RecordChange]) {
        let user = try signedIn(caller)
        try checkRequestLimits(request)
        var result = ModifyResult()
        var changedZones: [StoredZone] = []
        var changes: [RecordChange] = []
        for part in request.zoneParts {
            let zoneID = part.itemIDs[0].zoneID
            let zone: StoredZone
            let access: ZoneAccess
            do {
                (zone, access) = try self.access(zoneID, scope: scope, caller: caller, writing: true)
            } catch let error as CloudError {
                fail(part, with: error, into: &result)
                continue
            }
            let writer = ZoneWriter(server: self, zone: zone, scope: scope, access: access, user: user, request: part)
            let errors = try writer.check()
            if zone.isCustom && request.isAtomic && !errors.isEmpty {
                // A custom zone commits atomically unless told not to: one failure fails every
                // item of the zone.
                for (id, error) in errors { record(id, error, in: part, into: &result) }
                let batchFailed = CloudError(.batchRequestFailed, "another item of this atomic zone request failed")
                for id in part.itemIDs where errors[id] == nil { record(id, batchFailed, in: part, into: &result) }
                continue
            }
            for (id, error) in errors { record(id, error, in: part, into: &result) }
            if try writer.apply(skipping: Set(errors.keys), into: &result, changes: &changes) {
                changedZones.append(zone)
            }
        }
        return (result, changedZones, changes)
    }

    // MARK: - Whole-request rules

    private func checkRequestLimits(_ request: ModifyRequest) throws {
        guard request.itemCount <= CloudKitLimits.maxItemsPerRequest else {
            throw CloudError(.limitExceeded, "\(request.itemCount) items in one request; CloudKit takes at most \(CloudKitLimits.maxItemsPerRequest)")
        }
        let bytes = request.recordsToSave.reduce(0) { $0 + RecordSize.of($1) }
        guard bytes <= CloudKitLimits.maxRequestBytes else {
            throw CloudError(.limitExceeded, "the request holds \(bytes) bytes of records; CloudKit takes at most \(CloudKitLimits.maxRequestBytes)")
        }
        var seen = Set<RecordID>()
        for id in request.itemIDs where !seen.insert(id).inserted {
            throw CloudError(.invalidArguments, "record \(id) appears twice in one request")
        }
    }

    private func fail(_ part: ModifyRequest, with error: CloudError, into result: inout ModifyResult) {
        for id in part.itemIDs { record(id, error, in: part, into: &result) }
    }

    private func record(_ id: RecordID, _ error: CloudError, in part: ModifyRequest, into result: inout ModifyResult) {
        if part.recordsToSave.contains(where: { $0.id == id }) {
            result.savedRecords[id] = .failure(error)
        } else if part.sharesToSave.contains(where: { $0.id == id }) {
            result.savedShares[id] = .failure(error)
        } else {
            result.deletedRecords[id] = .failure(error)
        }
    }
}

/// Checks and applies one zone's part of a modify request.
private struct ZoneWriter {
    let server: LocalCloudServer
    let zone: StoredZone
    let scope: DatabaseScope
    let access: ZoneAccess
    let user: String
    let request: ModifyRequest
    /// Parents of the records this request saves, so children may come with their parents.
    let pendingParents: [String: String?]

    init(server: LocalCloudServer, zone: StoredZone, scope: DatabaseScope, access: ZoneAccess, user: String, request: ModifyRequest) {
        self.server = server
        self.zone = zone
        self.scope = scope
        self.access = access
        self.user = user
        self.request = request
        var parents: [String: String?] = [:]
        for record in request.recordsToSave { parents[record.id.recordName] = .some(record.parentRecordName) }
        self.pendingParents = parents
    }

    private var database: SQLiteDatabase { server.database }

    // MARK: - Checks

    /// Each failing item's error.
    func check() throws -> [RecordID: CloudError] {
        var errors: [RecordID: CloudError] = [:]
        var tally = Tally()
        for record in request.recordsToSave {
            if let error = try check(save: record, tally: &tally) { errors[record.id] = error }
        }
        for share in request.sharesToSave {
            if let error = try check(share: share) { errors[share.id] = error }
        }
        for id in request.recordIDsToDelete {
            if let error = try check(delete: id) { errors[id] = error }
        }
        if let quotaError = try checkQuota(growth: tally.growth.filter { errors[$0.key] == nil }) {
            for (id, grows) in tally.growth where grows > 0 && errors[id] == nil { errors[id] = quotaError }
        }
        return errors
    }

    /// What the saves checked so far add up to: what earlier records of the request claim.
    private struct Tally {
        var deleteSelfCounts: [String: Int] = [:]
        var schemaAdditions: [String: SchemaField] = [:]
        /// Bytes each save adds to its database's storage (negative when it shrinks).
        var growth: [RecordID: Int] = [:]
    }

    /// Apple, `CKError.quotaExceeded`: "An error that occurs when saving a record exceeds the
    /// user's storage quota": in the public database the app's container's, in the private
    /// database the user's, in the shared database the zone owner's. Saves that grow the storage
    /// fail; saves that shrink it and deletions go through.
    private func checkQuota(growth: [RecordID: Int]) throws -> CloudError? {
        let added = growth.values.reduce(0, +)
        guard added > 0, let quota = try server.quota(of: zone.owner) else { return nil }
        let used = try server.storageUsed(by: zone.owner)
        guard used + added > quota else { return nil }
        let holder = zone.owner == LocalCloudStore.publicOwner ? "the public database" : "\(zone.owner)'s iCloud storage"
        return CloudError(.quotaExceeded, "\(holder) is full: \(used) of \(quota) bytes used, the request adds \(added)")
    }

    private func check(save record: SyncRecord, tally: inout Tally) throws -> CloudError? {
        let name = record.id.recordName
        for key in record.fields.names + record.encryptedFields.names + record.clearedKeys.sorted() where RecordFieldNames.cloudKitSystemFields.contains(key) || CloudKitNaming.problem(with: key) != nil {
            return CloudError(.invalidArguments, "'\(key)' cannot be a field name")
        }
        if let problem = try server.schemaProblem(in: record, scope: scope, adding: &tally.schemaAdditions) { return problem }
        let existing = try server.record(named: name, in: zone)
        let live = existing.flatMap { $0.deleted ? nil : $0 }
        // The limits count the record as it will be: the server's keys the save leaves alone too.
        var whole = record
        (whole.fields, whole.encryptedFields) = Self.resulting(record, over: live)
        if let refusal = RecordRefusal.check(whole) { return refusal.cloudError }
        if let live, live.type != record.recordType {
            return CloudError(.invalidArguments, "record \(name) is a \(live.type), not a \(record.recordType)")
        }
        if request.savePolicy == .ifServerRecordUnchanged {
            let basedTag: String?
            do {
                basedTag = try LocalCloudSystemFields.basedTag(of: record.systemFields, recordType: record.recordType, id: record.id)
            } catch {
                return error
            }
            if let live, basedTag != live.changeTag {
                let serverRecord = try server.clientRecord(live, zone: zone, scope: scope, desiredKeys: nil, viewer: user, downloadingAssets: false)
                let ancestor = try basedTag.flatMap { try server.previousVersion(of: live, taggedAs: $0, in: zone) }
                return CloudError(
                    .serverRecordChanged, "record \(name) changed on the server", serverRecord: serverRecord, clientRecord: record,
                    ancestorRecord: try ancestor.map { try server.clientRecord($0, zone: zone, scope: scope, desiredKeys: nil, viewer: user, downloadingAssets: false) })
            }
            if live == nil, basedTag != nil {
                return CloudError(.unknownItem, "record \(name) no longer exists on the server")
            }
        }
        if let parent = record.parentRecordName {
            if parent == name { return CloudError(.invalidArguments, "record \(name) cannot be its own parent") }
            let storedParent = try server.record(named: parent, in: zone)
            let parentExists = pendingParents[parent] != nil || storedParent.map { !$0.deleted } == true
            if !parentExists {
                return CloudError(.referenceViolation, "the parent \(parent) of record \(name) does not exist; save it first or in the same request")
            }
        }
        switch scope {
        case .public:
            if let live, live.creator != user {
                return CloudError(.permissionFailure, "only the creator may modify public record \(name)")
            }
        case .shared:
            let root = try server.shareRoot(of: name, in: zone, pending: pendingParents)
            if access.permission(forRoot: root) != .readWrite {
                return CloudError(.permissionFailure, "this user may not write record \(name) in the shared zone")
            }
        case .private:
            break
        }
        for target in Self.deleteSelfTargets(record.fields) + Self.deleteSelfTargets(record.encryptedFields) {
            let stored = try database.query(
                "SELECT COUNT(*) FROM references_to WHERE owner = ? AND zone = ? AND target = ? AND source != ?",
                [.text(zone.owner), .text(zone.name), .text(target), .text(name)]).first?.integer(0) ?? 0
            tally.deleteSelfCounts[target, default: Int(stored)] += 1
            if tally.deleteSelfCounts[target]! > CloudKitLimits.maxDeleteSelfReferencesPerTarget {
                return CloudError(.limitExceeded, "more than \(CloudKitLimits.maxDeleteSelfReferencesPerTarget) deleteSelf references would point at \(target)")
            }
        }
        let before = live.map { RecordSize.of($0.fields) + RecordSize.of($0.encrypted) } ?? 0
        tally.growth[record.id] = RecordSize.of(whole.fields) + RecordSize.of(whole.encryptedFields) - before
        return nil
    }

    private func check(share: ShareRecord) throws -> CloudError? {
        // Apple, `CKError.badDatabase`: "Make sure you aren't submitting a share operation to the
        // public database".
        guard scope != .public else {
            return CloudError(.badDatabase, "the public database holds no shares")
        }
        guard scope == .private else {
            return CloudError(.permissionFailure, "only a share's owner saves it, in the private database")
        }
        guard zone.isCustom else {
            return CloudError(.invalidArguments, "the default zone does not support sharing; share records of a custom zone")
        }
        guard share.rootRecordName != nil || share.isZoneWide else {
            return CloudError(.invalidArguments, "a zone-wide share is named \(ShareRecord.zoneWideRecordName)")
        }
        let people = share.participants.filter { $0.role != .owner && $0.acceptanceStatus != .removed }
        let participants = people.indices.filter { index in !people[..<index].contains { LocalCloudShareParticipants.isSamePerson($0, people[index]) } }.count + 1
        if participants > CloudKitLimits.maxShareParticipants {
            return CloudError(.tooManyParticipants, "a share takes at most \(CloudKitLimits.maxShareParticipants) participants, its owner included; this one has \(participants)")
        }
        let existing = try server.share(named: share.id.recordName, in: zone)
        // CloudKit's header (CKModifyRecordsOperation.h): "A CKShare record is always treated as
        // CKRecordSaveIfServerRecordUnchanged, regardless of the savePolicy of the operation that
        // modifies the share."
        let basedTag: String?
        do {
            basedTag = try LocalCloudSystemFields.basedTag(of: share.systemFields, recordType: ShareRecord.recordType, id: share.id)
        } catch {
            return error
        }
        if let existing, basedTag != existing.changeTag {
            return CloudError(.serverRecordChanged, "share \(share.id.recordName) changed on the server")
        }
        if existing == nil, basedTag != nil {
            return CloudError(.unknownItem, "share \(share.id.recordName) no longer exists on the server")
        }
        if let problem = LocalCloudShareParticipants.problem(saving: share, over: existing) {
            return CloudError(.invalidArguments, problem)
        }
        if existing == nil {
            if let root = share.rootRecordName {
                guard request.recordsToSave.contains(where: { $0.id.recordName == root }) else {
                    return CloudError(.invalidArguments, "a new share must be saved in the same request as its root record \(root)")
                }
            }
            if let conflict = try shareConflict(forNew: share) { return CloudError(.alreadyShared, conflict) }
        }
        return nil
    }

    /// Why a new share cannot be: a record takes part in one share at most (Apple,
    /// `CKError.alreadyShared`: the record has a share, its parent has one, or one of its children
    /// has one), and a zone shared as a whole holds no other share (Apple, `CKRecordZone.share`:
    /// "A record zone, and the records it contains, can take part in only a single share").
    private func shareConflict(forNew share: ShareRecord) throws -> String? {
        let others = try database.query("SELECT name, root FROM shares WHERE owner = ? AND zone = ? AND deleted = 0 AND name != ?", [.text(zone.owner), .text(zone.name), .text(share.id.recordName)])
        guard let root = share.rootRecordName else {
            return others.first.map { "zone \(zone.name) already holds the share \($0.text(0)); a zone-wide share must be its only one" }
        }
        for other in others {
            guard let otherRoot = other.optionalText(1) else { return "zone \(zone.name) is shared as a whole by \(other.text(0))" }
            if otherRoot == root { return "record \(root) is already shared by \(other.text(0))" }
            if try ancestors(of: root).contains(otherRoot) { return "record \(root) is under \(otherRoot), which is shared by \(other.text(0))" }
            if try ancestors(of: otherRoot).contains(root) { return "record \(root) is above \(otherRoot), which is shared by \(other.text(0))" }
        }
        return nil
    }

    /// A record's parent chain, nearest first (the request's own parents included).
    private func ancestors(of name: String) throws -> [String] {
        var chain: [String] = []
        var current = name
        for _ in 0..<64 {
            let parent: String?
            if let pending = pendingParents[current] {
                parent = pending
            } else {
                parent = try server.record(named: current, in: zone)?.parent
            }
            guard let parent, !chain.contains(parent) else { break }
            chain.append(parent)
            current = parent
        }
        return chain
    }

    private func check(delete id: RecordID) throws -> CloudError? {
        let name = id.recordName
        if try server.share(named: name, in: zone) != nil { return nil }  // stop sharing or leave
        guard let existing = try server.record(named: name, in: zone), !existing.deleted else {
            return CloudError(.unknownItem, "record \(name) does not exist")
        }
        switch scope {
        case .public:
            if existing.creator != user {
                return CloudError(.permissionFailure, "only the creator may delete public record \(name)")
            }
        case .shared:
            let root = try server.shareRoot(of: name, in: zone)
            if root == name, case .participant(let roots, _) = access, roots[name] != nil {
                return CloudError(.permissionFailure, "only the owner may delete the shared root \(name); leave the share instead")
            }
            if access.permission(forRoot: root) != .readWrite {
                return CloudError(.permissionFailure, "this user may not delete record \(name) in the shared zone")
            }
        case .private:
            break
        }
        return nil
    }

    static func deleteSelfTargets(_ fields: RecordFields) -> [String] {
        referenceTargets(fields) { $0.action == .deleteSelf }
    }

    static func referenceTargets(_ fields: RecordFields, where include: (SyncReference) -> Bool = { _ in true }) -> [String] {
        var targets: [String] = []
        func collect(_ value: SyncFieldValue) {
            switch value {
            case .reference(let reference) where include(reference): targets.append(reference.recordName)
            case .list(let items): items.forEach(collect)
            default: break
            }
        }
        fields.values.forEach(collect)
        return targets
    }

    /// The records a record links to: its parent and every record its references point at.
    static func linkTargets(parent: String?, fields: RecordFields, encrypted: RecordFields) -> Set<String> {
        var targets = Set(referenceTargets(fields) + referenceTargets(encrypted))
        if let parent { targets.insert(parent) }
        return targets
    }

    // MARK: - Writes

    /// Writes every item not in `failed`, adding the records saved or deleted to `changes`; true
    /// when anything changed.
    func apply(skipping failed: Set<RecordID>, into result: inout ModifyResult, changes: inout [RecordChange]) throws -> Bool {
        var lastSeq: Int64?
        for record in request.recordsToSave where !failed.contains(record.id) {
            let (saved, change) = try save(record)
            result.savedRecords[record.id] = .success(saved)
            changes.append(change)
            lastSeq = Int64(saved.changeTag ?? "")
        }
        for share in request.sharesToSave where !failed.contains(share.id) {
            let saved = try save(share)
            result.savedShares[share.id] = .success(saved)
            lastSeq = Int64(saved.changeTag ?? "")
        }
        for id in request.recordIDsToDelete where !failed.contains(id) {
            if let seq = try delete(id.recordName, changes: &changes) { lastSeq = seq }
            result.deletedRecords[id] = .success(())
        }
        guard let lastSeq else { return false }
        try server.touchZone(zone, seq: lastSeq)
        return true
    }

    /// A record's fields once saved over `existing`: the keys the save sets take its values, the
    /// keys it clears go, and every key it leaves out keeps its value, under every save policy
    /// (Apple's `allKeys` page: "saving that same record modifies only those keys that you
    /// include"). A key is plain or encrypted as the schema says, so it is only ever on one side.
    static func resulting(_ record: SyncRecord, over existing: LocalCloudServer.StoredRecord?) -> (fields: RecordFields, encrypted: RecordFields) {
        var fields = existing?.fields ?? [:]
        var encrypted = existing?.encrypted ?? [:]
        for name in record.clearedKeys {
            fields[name] = nil
            encrypted[name] = nil
        }
        for (name, value) in record.fields {
            fields[name] = value
            encrypted[name] = nil
        }
        for (name, value) in record.encryptedFields {
            encrypted[name] = value
            fields[name] = nil
        }
        return (fields, encrypted)
    }

    /// Saves a record; returns it as the server holds it, and the change as subscriptions see it.
    private func save(_ record: SyncRecord) throws -> (SyncRecord, RecordChange) {
        let seq = try server.store.nextSequence()
        let now = server.clock.now
        let existing = try server.record(named: record.id.recordName, in: zone).flatMap { $0.deleted ? nil : $0 }
        let uploaded = (fields: try uploadAssets(record.fields), encrypted: try uploadAssets(record.encryptedFields))
        var sent = record
        (sent.fields, sent.encryptedFields) = uploaded
        let (fields, encrypted) = Self.resulting(sent, over: existing)
        let size = RecordSize.of(fields) + RecordSize.of(encrypted)
        try database.query(
            """
            INSERT INTO records (owner, zone, name, type, fields, encrypted, parent, change_tag, created, modified, creator, modifier, seq, deleted, size)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
            ON CONFLICT(owner, zone, name) DO UPDATE SET type = excluded.type, fields = excluded.fields,
                encrypted = excluded.encrypted, parent = excluded.parent, change_tag = excluded.change_tag,
                created = CASE WHEN records.deleted = 1 THEN excluded.created ELSE records.created END,
                creator = CASE WHEN records.deleted = 1 THEN excluded.creator ELSE records.creator END,
                modified = excluded.modified, modifier = excluded.modifier, seq = excluded.seq, deleted = 0,
                size = excluded.size,
                prev_tag = CASE WHEN records.deleted = 1 THEN NULL ELSE records.change_tag END,
                prev_fields = records.fields, prev_encrypted = records.encrypted, prev_parent = records.parent
            """,
            [.text(zone.owner), .text(zone.name), .text(record.id.recordName), .text(record.recordType),
             .blob(FieldsCodec.encode(fields)), .blob(FieldsCodec.encode(encrypted)),
             record.parentRecordName.map(SQLiteValue.text) ?? .null, .text(String(seq)),
             .real(now.timeIntervalSince1970), .real(now.timeIntervalSince1970), .text(user), .text(user),
             .integer(seq), .integer(Int64(size))])
        try database.query("DELETE FROM references_to WHERE owner = ? AND zone = ? AND source = ?", [.text(zone.owner), .text(zone.name), .text(record.id.recordName)])
        for target in Set(Self.deleteSelfTargets(fields) + Self.deleteSelfTargets(encrypted)) {
            try database.query("INSERT OR IGNORE INTO references_to (owner, zone, source, target) VALUES (?, ?, ?, ?)", [.text(zone.owner), .text(zone.name), .text(record.id.recordName), .text(target)])
        }
        try server.extendSchema(with: sent)
        try touchNewLinkTargets(of: record.id.recordName, parent: record.parentRecordName, fields: fields, encrypted: encrypted, before: existing)
        try server.store.count("records.saved")
        try server.store.count("bytes.uploaded", by: Int64(size))
        // The saved record holds its assets as the server stored them: saving it again does not
        // upload the contents again.
        var saved = record
        saved.fields = uploaded.fields
        saved.encryptedFields = uploaded.encrypted
        saved.clearedKeys = []
        saved.clearedEncryptedKeys = []
        saved.changeTag = String(seq)
        saved.systemFields = LocalCloudSystemFields.archive(recordType: saved.recordType, id: saved.id, changeTag: String(seq))
        saved.modificationDate = now
        saved.creatorUserRecordName = LocalCloudServer.creatorName(existing?.creator ?? user, viewer: user)
        saved.creationDate = existing?.created ?? now
        saved.lastModifiedUserRecordName = SyncConstants.currentUserOwnerName
        return (saved, RecordChange(zone: zone, recordName: record.id.recordName, recordType: record.recordType, kind: existing == nil ? .creation : .update, fields: fields))
    }

    /// Apple, `CKRecord.recordChangeTag`: "setting a record as the parent of another record can
    /// cause the recordChangeTag to update on the parent record. This usually occurs when you save
    /// the child record." LocalCloud takes the strict reading: every record a save newly links to,
    /// as its parent or by a reference, gets a new change tag, so a client that saves the target
    /// with the tag it had meets `serverRecordChanged`. The target's fields are untouched and it is
    /// not reported as changed in the zone's feed.
    private func touchNewLinkTargets(of name: String, parent: String?, fields: RecordFields, encrypted: RecordFields, before existing: LocalCloudServer.StoredRecord?) throws {
        let previous = existing.map { Self.linkTargets(parent: $0.parent, fields: $0.fields, encrypted: $0.encrypted) } ?? []
        for target in Self.linkTargets(parent: parent, fields: fields, encrypted: encrypted).subtracting(previous).sorted() where target != name {
            let tag = try server.store.nextSequence()
            try database.query(
                """
                UPDATE records SET prev_tag = change_tag, prev_fields = fields, prev_encrypted = encrypted, prev_parent = parent,
                    change_tag = ? WHERE owner = ? AND zone = ? AND name = ? AND deleted = 0
                """,
                [.text(String(tag)), .text(zone.owner), .text(zone.name), .text(target)])
        }
    }

    private func uploadAssets(_ fields: RecordFields) throws -> RecordFields {
        var uploaded = RecordFields(minimumCapacity: fields.count)
        for (name, value) in fields {
            if case .asset(let asset) = value {
                uploaded.append(name, .asset(try server.upload(asset)))
            } else {
                uploaded.append(name, value)
            }
        }
        return uploaded
    }

    private func save(_ share: ShareRecord) throws -> ShareRecord {
        let seq = try server.store.nextSequence()
        let existing = try server.share(named: share.id.recordName, in: zone)
        let (participants, removed) = LocalCloudShareParticipants.saved(share, over: existing, owner: zone.owner, seq: seq)
        // Only people with an account can have accepted, and so hold a membership.
        for participant in removed {
            if let user = participant.userRecordName {
                try server.endMembership(user: user, share: share.id.recordName, in: zone, seq: seq)
            }
        }
        for participant in participants where participant.role != .owner && participant.acceptanceStatus == .accepted {
            guard let user = participant.userRecordName else { continue }
            try database.query("UPDATE memberships SET permission = ? WHERE user = ? AND owner = ? AND zone = ? AND share = ?",
                [.text(participant.permission.rawValue), .text(user), .text(zone.owner), .text(zone.name), .text(share.id.recordName)])
        }
        var saved = share
        saved.participants = participants
        saved.changeTag = String(seq)
        saved.systemFields = LocalCloudSystemFields.archive(recordType: ShareRecord.recordType, id: saved.id, changeTag: String(seq))
        saved.url = LocalCloudShareLink.url(ofShare: saved.id.recordName, in: zone)
        try server.writeShare(saved, in: zone, seq: seq)
        return try server.share(saved, readBy: user)
    }

    /// Deletes a record (with its deleteSelf dependants), or ends a share: stopping it when the
    /// owner deletes it, leaving it when a participant does. Returns the change's sequence number.
    private func delete(_ name: String, changes: inout [RecordChange]) throws -> Int64? {
        if let share = try server.share(named: name, in: zone) {
            let seq = try server.store.nextSequence()
            if scope == .shared {
                try server.endMembership(user: user, share: name, in: zone, seq: seq)
                var updated = share
                for index in updated.participants.indices where updated.participants[index].userRecordName == user {
                    updated.participants[index].acceptanceStatus = .removed
                }
                try server.writeShare(updated, in: zone, seq: seq)
            } else {
                try server.deleteShare(name, in: zone, seq: seq)
            }
            return seq
        }
        var pending = [name]
        var lastSeq: Int64?
        while let next = pending.popLast() {
            guard let existing = try server.record(named: next, in: zone), !existing.deleted else { continue }
            changes.append(RecordChange(zone: zone, recordName: next, recordType: existing.type, kind: .deletion, fields: existing.fields))
            let seq = try server.store.nextSequence()
            try database.query(
                "UPDATE records SET deleted = 1, fields = ?, encrypted = ?, seq = ?, modified = ?, modifier = ?, size = 0 WHERE owner = ? AND zone = ? AND name = ?",
                [.blob(FieldsCodec.encode([:])), .blob(FieldsCodec.encode([:])), .integer(seq), .real(server.clock.now.timeIntervalSince1970), .text(user), .text(zone.owner), .text(zone.name), .text(next)])
            try database.query("DELETE FROM references_to WHERE owner = ? AND zone = ? AND source = ?", [.text(zone.owner), .text(zone.name), .text(next)])
            try server.store.count("records.deleted")
            // A shared root takes its share with it.
            for row in try database.query("SELECT name FROM shares WHERE owner = ? AND zone = ? AND root = ? AND deleted = 0", [.text(zone.owner), .text(zone.name), .text(next)]) {
                try server.deleteShare(row.text(0), in: zone, seq: seq)
            }
            // Records that reference this one with deleteSelf go too (immediately, in any zone).
            for row in try database.query("SELECT source FROM references_to WHERE owner = ? AND zone = ? AND target = ?", [.text(zone.owner), .text(zone.name), .text(next)]) {
                pending.append(row.text(0))
            }
            lastSeq = seq
        }
        return lastSeq
    }
}
