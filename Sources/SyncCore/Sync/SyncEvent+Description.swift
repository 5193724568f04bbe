import Foundation

// How the engine's values read in a log, a debugger or a bug report: as a person reads them,
// never as `SyncCore.SyncEvent.changeSetAside(SyncCore.FailedChange(...))`. Each value says it
// once, as a `SyncLogMessage` whose names (records, people, titles, what the cloud said) are
// marked private for the log; its `description` is the same line with the names shown. Apps
// that show them to users still render the values in their own words.

extension SyncEvent: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The event as a log line.
    public var logMessage: SyncLogMessage {
        switch self {
        case .setupCompleted: "setup completed"
        case .setupFailed(let error): "setup failed: \(error.logMessage)"
        case .accountUnavailable(let status): "no usable iCloud account (\(status))"
        case .accountChanged(let change): "account \(change.logMessage)"
        case .changesParked(let parked): parked.logMessage
        case .parkedChangesRestored(let count): "\(Self.count(count, "parked change")) restored"
        case .pullStarted(let scope): "pulling the \(scope) database"
        case .pullProgress(let scope, let zone, let records, let deletions):
            "pulled \(Self.count(records, "record")) and \(Self.count(deletions, "deletion")) of \(name: zone) (\(scope))"
        case .pullCompleted(let scope): "pulled the \(scope) database"
        case .pushStarted(let items): "pushing \(Self.count(items, "change"))"
        case .pushLanded(let saved, let deleted):
            "in the cloud now: \(Self.count(saved.count, "save")) and \(Self.count(deleted.count, "deletion")): \(name: (saved + deleted).map(\.recordName).joined(separator: ", "))"
        case .pushCompleted(let saved, let deleted): "pushed \(Self.count(saved, "save")) and \(Self.count(deleted, "deletion"))"
        case .pushFailed(let errors):
            "\(Self.count(errors.count, "change")) not pushed yet, tried again later: \(name: errors.keys.map(\.recordName).sorted().joined(separator: ", "))"
        case .changeSetAside(let change): "set aside: \(change.logMessage)"
        case .changeReverted(let change): "reverted to the cloud's version: \(change.logMessage)"
        case .recordUnreadable(let record): record.logMessage
        case .removedWithParent(let key, let parent): "\(key.logMessage) went with its deleted parent \(name: parent)"
        case .changeLostToDeletion(let key): "\(key.logMessage) was deleted elsewhere: the change made here went with it"
        case .conflictResolved(let id): "merged a change of \(name: id) with the cloud's"
        case .conflictRecorded(let conflict): conflict.logMessage
        case .duplicatesMerged(let key, let merged): "\(name: merged.joined(separator: ", ")) merged into \(key.logMessage): one natural key"
        case .shareAccepted(let metadata): "accepted \(metadata.logMessage)"
        case .shareEnded(let zone, let root, let lost) where lost.isEmpty:
            if let root { "share of \(name: root) in \(name: zone) ended, removed here" } else { "share of the whole of \(name: zone) ended, removed here" }
        case .shareEnded(let zone, let root, let lost):
            if let root {
                "share of \(name: root) in \(name: zone) ended, removed here with \(Self.count(lost.count, "change")) never sent: \(name: lost.map(\.recordName).joined(separator: ", "))"
            } else {
                "share of the whole of \(name: zone) ended, removed here with \(Self.count(lost.count, "change")) never sent: \(name: lost.map(\.recordName).joined(separator: ", "))"
            }
        case .danglingReferences(let names): "references to records not found: \(name: names.joined(separator: ", "))"
        case .zoneMoved(let zone, let target): "every record of \(name: zone) moved into \(name: target)"
        case .userDeletedZone(let zone): "the user deleted \(name: zone) in Settings: nothing goes up again until the app decides"
        case .encryptedDataReset(let zone): "the user reset their encrypted data: \(name: zone) is made again and uploaded from here"
        case .retryScheduled(let delay, let reason): "retrying in \(Self.seconds(delay)): \(reason.logMessage)"
        case .waitingForNetwork(let delay): "no network: checking again in \(Self.seconds(delay))"
        case .assetStateChanged(let key, let state): "the asset of \(name: key) is \(state)"
        case .assetTransferFailed(let key, let error): "the transfer of \(name: key)'s asset failed, tried again later: \(error.logMessage)"
        case .assetTransfersWaiting(let conditions): "asset transfers wait: \(conditions.map(\.description).sorted().joined(separator: ", "))"
        case .error(let error): "the pass stopped: \(error.logMessage)"
        }
    }

    /// "1 change", "2 changes".
    package static func count(_ number: Int, _ noun: String) -> String {
        // English adds "es" after a hissing sound: "fetches", "searches", "boxes".
        let plural = ["ch", "sh", "s", "x", "z"].contains(where: noun.hasSuffix) ? noun + "es" : noun + "s"
        return "\(number) \(number == 1 ? noun : plural)"
    }

    /// "1.5 s".
    package static func seconds(_ interval: TimeInterval) -> String {
        interval.rounded() == interval ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }
}

extension SyncError {
    /// The error as a log line: its kind and code public, what it says private (a message may
    /// name a record).
    public var logMessage: SyncLogMessage {
        switch self {
        case .cloud(let error): "the cloud: \(error.code) (\(error.cloudKitCode)): \(name: error.message)"
        case .localStore(let error): "the local store: \(error.reason): \(name: error)"
        case .assetFiles(let error): "the asset cache: \(name: error)"
        }
    }
}

extension AccountChange: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The change as a log line.
    public var logMessage: SyncLogMessage {
        switch self {
        case .signedIn(let user): "\(name: user) signed in"
        case .signedOut(let user): "\(name: user) signed out"
        case .switched(let old, let new): "switched from \(name: old) to \(name: new)"
        }
    }
}

extension ParkedChanges: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The parked changes as a log line.
    public var logMessage: SyncLogMessage {
        "\(SyncEvent.count(count, "unpushed change")) of \(name: userRecordName) parked until it signs in again"
    }
}

extension FailedChange: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The change as a log line.
    public var logMessage: SyncLogMessage {
        "the \(kind) of \(recordType) \(name: recordName) (zone of \(name: ownerName)): \(SyncError.cloud(error).logMessage)"
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
    public var description: String { logMessage.revealed }

    /// The record as a log line.
    public var logMessage: SyncLogMessage {
        let why: SyncLogMessage = isUnreadableByThisVersion
            ? "this app version cannot read it, set aside"
            : "\(SyncEvent.count(failedFetches, "fetch")) failed\(isSetAside ? ", set aside" : "")"
        return "\(name: id) could not be read (\(why)): \(SyncError.cloud(error).logMessage)"
    }
}

extension RecordKey: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The key as a log line: its type public, its name private.
    public var logMessage: SyncLogMessage { "\(recordType) \(name: recordName)" }
}

extension RecordConflict: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The conflict as a log line: the fields it settled, never their values.
    public var logMessage: SyncLogMessage {
        "conflict on \(recordType) \(name: recordID), settled field by field: \(fields.map(\.field).joined(separator: ", "))"
    }
}

extension ShareMetadata: CustomStringConvertible {
    public var description: String { logMessage.revealed }

    /// The share as a log line.
    public var logMessage: SyncLogMessage {
        if let rootRecordName {
            "the share \(name: title) of \(name: ownerName) (root \(name: rootRecordName))"
        } else {
            "the share \(name: title) of \(name: ownerName) (the whole zone)"
        }
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
