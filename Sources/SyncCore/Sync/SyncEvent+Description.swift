import Foundation

// How the engine's values read in a log, a debugger or a bug report: as a person reads them,
// never as `SyncCore.SyncEvent.changeSetAside(SyncCore.FailedChange(...))`. Apps that show them
// to users still render the values in their own words; these are for the people who ship the app.

extension SyncEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .setupCompleted: "setup completed"
        case .setupFailed(let error): "setup failed: \(error)"
        case .accountUnavailable(let status): "no usable iCloud account (\(status))"
        case .accountChanged(let change): "account \(change)"
        case .changesParked(let parked): "\(parked)"
        case .parkedChangesRestored(let count): "\(Self.count(count, "parked change")) restored"
        case .pullStarted(let scope): "pulling the \(scope) database"
        case .pullProgress(let scope, let zone, let records, let deletions):
            "pulled \(Self.count(records, "record")) and \(Self.count(deletions, "deletion")) of \(zone) (\(scope))"
        case .pullCompleted(let scope): "pulled the \(scope) database"
        case .pushStarted(let items): "pushing \(Self.count(items, "change"))"
        case .pushCompleted(let saved, let deleted): "pushed \(Self.count(saved, "save")) and \(Self.count(deleted, "deletion"))"
        case .pushFailed(let errors):
            "\(Self.count(errors.count, "change")) not pushed yet, tried again later: "
                + errors.sorted { $0.key.recordName < $1.key.recordName }.prefix(3).map { "\($0.key.recordName): \($0.value)" }.joined(separator: "; ")
                + (errors.count > 3 ? "; …" : "")
        case .changeSetAside(let change): "set aside: \(change)"
        case .changeReverted(let change): "reverted to the cloud's version: \(change)"
        case .recordUnreadable(let record): "\(record)"
        case .removedWithParent(let key, let parent): "\(key) went with its deleted parent '\(parent)'"
        case .conflictResolved(let id): "merged a change of \(id) with the cloud's"
        case .conflictRecorded(let conflict): "\(conflict)"
        case .duplicatesMerged(let key, let merged): "\(merged.map { "'\($0)'" }.joined(separator: ", ")) merged into \(key): one natural key"
        case .shareAccepted(let metadata): "accepted \(metadata)"
        case .shareEnded(let zone, let root): "share ended: \(root.map { "'\($0)' in " } ?? "the whole of ")\(zone), removed here"
        case .danglingReferences(let names): "references to records not found: \(names.joined(separator: ", "))"
        case .userDeletedZone(let zone): "the user deleted \(zone) in Settings: nothing goes up again until the app decides"
        case .encryptedDataReset(let zone): "the user reset their encrypted data: \(zone) is made again and uploaded from here"
        case .retryScheduled(let delay, let reason): "retrying in \(Self.seconds(delay)): \(reason)"
        case .waitingForNetwork(let delay): "no network: checking again in \(Self.seconds(delay))"
        case .assetStateChanged(let key, let state): "the asset of \(key) is \(state)"
        case .assetTransferFailed(let key, let error): "the transfer of \(key)'s asset failed, tried again later: \(error)"
        case .error(let error): "the pass stopped: \(error)"
        }
    }

    /// "1 change", "2 changes".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// "1.5 s".
    static func seconds(_ interval: TimeInterval) -> String {
        interval.rounded() == interval ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }
}

extension AccountChange: CustomStringConvertible {
    public var description: String {
        switch self {
        case .signedIn(let user): "\(user) signed in"
        case .signedOut(let user): "\(user) signed out"
        case .switched(let old, let new): "switched from \(old) to \(new)"
        }
    }
}

extension ParkedChanges: CustomStringConvertible {
    public var description: String {
        "\(SyncEvent.count(count, "unpushed change")) of \(userRecordName) parked until it signs in again"
    }
}

extension FailedChange: CustomStringConvertible {
    public var description: String {
        "the \(kind) of \(recordType) '\(recordName)' (zone of \(ownerName)): \(error)"
    }
}

extension ChangeKind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .save: "save"
        case .delete: "deletion"
        }
    }
}

extension UnreadableRecord: CustomStringConvertible {
    public var description: String {
        "\(id) could not be read (\(SyncEvent.count(failedFetches, "fetch")) failed\(isSetAside ? ", set aside" : "")): \(error)"
    }
}

extension RecordKey: CustomStringConvertible {
    public var description: String { "\(recordType) '\(recordName)'" }
}

extension RecordConflict: CustomStringConvertible {
    public var description: String {
        "conflict on \(recordType) \(recordID), settled field by field: \(fields.map(\.field).joined(separator: ", "))"
    }
}

extension ShareMetadata: CustomStringConvertible {
    public var description: String {
        "the share '\(title)' of \(ownerName)\(rootRecordName.map { " (root '\($0)')" } ?? " (the whole zone)")"
    }
}

extension EngineStatus: CustomStringConvertible {
    public var description: String {
        var parts = ["\(phase)"]
        if pendingChanges > 0 { parts.append("\(SyncEvent.count(pendingChanges, "change")) to push") }
        if isOffline { parts.append("offline") }
        if let lastCompletedPass { parts.append("last pass completed \(lastCompletedPass.formatted(.iso8601))") }
        if let lastError { parts.append("last error: \(lastError)") }
        parts.append(userRecordName.map { "account \($0)" } ?? "no account")
        return parts.joined(separator: ", ")
    }
}

extension RecoveryAction: CustomStringConvertible {
    public var description: String {
        switch self {
        case .retry(let delay): "retry in \(SyncEvent.seconds(delay))"
        case .waitForNetwork: "wait for the network"
        case .treatAsDone: "treat as done"
        case .mergeAndRetry: "merge with the cloud's version and retry"
        case .splitBatch: "split the batch"
        case .recreateZone: "create the zone again"
        case .resetToken: "read the changes again from the start"
        case .retryWithBatch: "retry with the rest of the batch"
        case .uploadParentFirst: "upload the parent first"
        case .skipItem: "skip the item"
        case .setAside: "set the change aside"
        case .stopForAccount: "stop until the account changes"
        case .askBeforeReuploading: "ask the app before uploading again"
        case .tellUserQuotaExceeded: "tell the user their iCloud storage is full"
        case .tellUserStorageFull: "tell the user the device is full"
        case .report: "report"
        }
    }
}
