import Foundation
import SyncCore
import SyncPorts

/// Retiring the copies a merge found in the cloud (``NaturalKeyMerge``). Each survivor goes up
/// with its waiting copies merged in whole, and each copy over the version this device knows,
/// marked with the survivor (`RecordFieldNames.mergedInto`), in one request of the user's custom
/// zone, which CloudKit commits atomically: either the survivor holds the copies and the copies
/// say so, or nothing changed. A device that sees a mark, however it learns of it, then finds
/// the marked version in the survivor, and adds only what it changed of the copy since.
struct RetirementPhase {
    /// The store topics the retirement's helpers read and write inside its transactions.
    typealias Topics = CloudVersionArrival.Topics & EngineState

    let context: SyncContext

    /// The merges the copies go into, once their marks land.
    private var naturalKeys: NaturalKeyMerge { NaturalKeyMerge(context: context) }

    /// Merges the records that share a natural key (``NaturalKeyMerge``), in one transaction,
    /// and announces each merge once it commits: what the pass does before the push, so the
    /// merges go up in it, after the copies they retire.
    func mergeDuplicates() throws(SyncError) {
        let merged = try context.transaction { try naturalKeys.mergeDuplicates(in: $0) }
        for (survivor, losers) in merged {
            context.events.publish(.duplicatesMerged(survivor, merged: losers))
        }
    }

    /// How many rounds `retireMergedCopies` makes in a pass: each conflict takes the newer
    /// version and tries again; what is left waits for the next pass.
    static let retirementRounds = 3

    /// One survivor's retirement request: the survivor with its copies merged in, and their marks.
    struct Retirement {
        var type: any SyncModel.Type
        var survivor: SyncRecord
        var marks: [SyncRecord] = []
        /// Each record of the request as this device holds it, stamped with the upload it goes
        /// up as: the survivor without the copies first, then each copy whole (the mark alone
        /// when the copy is merged here already). What the model's edits since start from, so what is kept as
        /// sent (`noteSent`): the version the survivor lands as brings the copies in, and
        /// nothing this device changed since goes.
        var held: [SyncRecord] = []

        var request: ModifyRequest { ModifyRequest(recordsToSave: [survivor] + marks, isAtomic: true) }

        /// As `held` keeps it.
        func held(_ id: RecordID) -> SyncRecord? { held.first { $0.id == id } }
    }

    /// Retires the copies waiting to merge. Landed, each copy goes into the survivor on this
    /// device too (what changed of it while the request was out, against the mark). A newer
    /// version of the survivor or of a copy met on the way is taken (``CloudVersionArrival``), and the
    /// request tries again in the next round. A copy another device marked first, or one whose
    /// survivor or itself is gone from the cloud, waits no more: the check after the next pull
    /// settles it (`NaturalKeyMerge.settleMarked`, or a merge of what is left).
    func retireMergedCopies(as account: PassAccount) async throws(SyncError) {
        var merged: [(RecordKey, [String])] = []
        defer {
            for (survivor, losers) in merged { context.events.publish(.duplicatesMerged(survivor, merged: losers)) }
        }
        for _ in 0..<Self.retirementRounds {
            let retirements = try context.transaction { store in try self.retirements(in: store) }
            guard !retirements.isEmpty else { return }
            // One request per survivor: an atomic request fails whole, and one survivor's
            // conflict must not hold back the others.
            for retirement in retirements {
                try await account.verify()
                let result = try await context.cloud.modify(retirement.request, in: .private)
                try await account.verify()
                try context.transaction { store in
                    if let landed = try settle(retirement, result: result, in: store) { merged.append(landed) }
                }
            }
        }
    }

    /// The requests for the copies waiting to merge, by survivor. A survivor gone here (a user
    /// deleted it) or itself marked into another (settled after the next pull) sends none.
    private func retirements(in store: any Topics) throws -> [Retirement] {
        var bySurvivor: [String: Retirement] = [:]
        var order: [String] = []
        let routes = context.routes
        let device = try UploadDevice.id(in: store)
        for (recordType, name, survivor) in try store.retirements() {
            guard let type = context.registry.type(forRecordType: recordType) else { continue }
            let zone = context.ownZone(of: type)
            let key = "\(recordType)\u{0}\(survivor)"
            if bySurvivor[key] == nil {
                guard let record = try store.uploadRecord(type: type, recordName: survivor, routes: routes) else {
                    try store.forgetRetirement(recordType: recordType, recordName: name)
                    continue
                }
                guard try store.serverRecord(record.id)?.mergedInto == nil else { continue }
                bySurvivor[key] = Retirement(type: type, survivor: record, held: [record])
                order.append(key)
            }
            guard let retirement = bySurvivor[key], retirement.marks.count < CloudKitLimits.maxItemsPerRequest - 1 else { continue }
            let id = RecordID(recordName: name, zoneID: zone)
            // The copy's version in the cloud: the one known here, or the last save whose reply
            // was never read (sent as new, it meets the cloud's version if that save landed, and
            // takes it).
            let known = try store.serverRecord(id)
            guard var mark = try known ?? store.sentVersions(id).first else {
                // No version of it is known here any more (its zone went): merged as one the
                // cloud never had, after the next pull.
                try store.forgetRetirement(recordType: recordType, recordName: name)
                continue
            }
            let upload = SyncRecord.newUploadID(device: device)
            mark.fields[RecordFieldNames.mergedInto] = .string(survivor)
            mark.base(onServerVersionOf: known)
            mark.stampUpload(upload, over: known)
            bySurvivor[key]?.marks.append(mark)
            // The whole copy as this device holds it (nothing, when it merged it already and
            // only marks it again).
            if var copy = try store.uploadRecord(type: type, recordName: name, routes: routes) {
                bySurvivor[key]?.survivor = naturalKeys.merged([(copy, nil)], into: retirement.survivor, type: type)
                copy.stampUpload(upload, over: known)
                bySurvivor[key]?.held.append(copy)
            } else {
                bySurvivor[key]?.held.append(mark)
            }
        }
        return try order.compactMap { key in
            guard var retirement = bySurvivor[key], !retirement.marks.isEmpty else { return nil }
            let known = try store.serverRecord(retirement.survivor.id)
            let upload = SyncRecord.newUploadID(device: device)
            retirement.held[0].stampUpload(upload, over: known)
            retirement.survivor.base(onServerVersionOf: known)
            retirement.survivor.stampUpload(upload, over: known)
            // Kept as sent before it goes, as a push's saves are: read or not, the reply leaves
            // the version each model's edits since start from.
            try store.noteSent(retirement.held)
            return retirement
        }
    }

    /// Applies one request's result; returns the survivor and the copies merged into it when it
    /// landed.
    private func settle(_ retirement: Retirement, result: ModifyResult, in store: any Topics) throws -> (RecordKey, [String])? {
        let landed = try apply(result, of: retirement, in: store)
        // The versions that arrived merged against what was sent: what is kept of it goes.
        try store.forgetSent(answeredBy: result, of: retirement.request, in: retirement.survivor.id.zoneID)
        return landed
    }

    private func apply(_ result: ModifyResult, of retirement: Retirement, in store: any Topics) throws -> (RecordKey, [String])? {
        let type = retirement.type
        let survivor = retirement.survivor.id.recordName
        switch result.savedRecords[retirement.survivor.id] {
        case .success(let saved)?:
            // The survivor holds the copies whole: it is taken here as it was saved, and what
            // changed of a copy while the request was out goes in after, against its mark.
            _ = try CloudVersionArrival(context: context).apply(saved, as: type, in: store)
            var landed: [String] = []
            for mark in retirement.marks {
                guard case .success(let savedMark)? = result.savedRecords[mark.id] else { continue }
                try store.setServerRecord(savedMark)
                // The survivor holds the copy as it was when the request was made: only what
                // changed of it since goes in.
                try naturalKeys.complete(mark.id.recordName, of: type, into: survivor, ancestor: retirement.held(mark.id) ?? savedMark, store: store)
                landed.append(mark.id.recordName)
            }
            return landed.isEmpty ? nil : (RecordKey(type.recordType, survivor), landed)
        case .failure(let error)? where RecoveryPolicy.answer(to: error).isConflict:
            if let server = error.serverRecord { _ = try CloudVersionArrival(context: context).apply(server, as: type, in: store) }
        case .failure(let error)? where RecoveryPolicy.answer(to: error).isGone:
            // Deleted elsewhere: the pull brings the deletion, and the copies are merged with
            // what is left of their key, if anything.
            for mark in retirement.marks { try store.forgetRetirement(recordType: type.recordType, recordName: mark.id.recordName) }
            return nil
        default:
            break
        }
        for mark in retirement.marks {
            guard case .failure(let error)? = result.savedRecords[mark.id] else { continue }
            switch RecoveryPolicy.answer(to: error) {
            case .conflict:
                guard let server = error.serverRecord else { continue }
                _ = try CloudVersionArrival(context: context).apply(server, as: type, in: store)
                if server.mergedInto != nil {
                    // Marked already, by another device (or by this one, the reply lost): its
                    // survivor holds it, and the next pull brings that survivor.
                    try store.forgetRetirement(recordType: type.recordType, recordName: mark.id.recordName)
                }
            case .gone:
                try store.forgetRetirement(recordType: type.recordType, recordName: mark.id.recordName)
            default:
                // Held back by another item of the request, or a failure tried again in the
                // next round or pass.
                continue
            }
        }
        return nil
    }
}
