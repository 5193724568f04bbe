import SyncCore
import SyncPorts

/// What a cloud error means for the request that met it, by kind of request: one record's (or
/// share's) answer in a lookup, a save or a deletion; a read of a zone that failed; a push request
/// refused whole. `action(for:)` decides what a failed pass does next; these decide what a phase
/// does with one answer. Phases switch on these answers, never on an error's code (.ci/run), so
/// each code's meaning is written here once.
extension RecoveryPolicy {
    /// One item's answer, in any request that names items: a record or share looked up, saved or
    /// deleted, a share's link or acceptance.
    enum ItemAnswer<Value> {
        /// Found, saved or deleted.
        case done(Value)
        /// The cloud has a newer version than the one the save was made on
        /// (`serverRecordChanged`); its `serverRecord`, when the cloud sent it.
        case conflict(CloudError)
        /// The cloud has no such item (`unknownItem`): deleted, or never saved.
        case gone(CloudError)
        /// This user may not read or change it (`permissionFailure`).
        case notAllowed(CloudError)
        /// Its zone is gone, or this user's access to it ended (`zoneNotFound`, `userDeletedZone`).
        case zoneGone(CloudError)
        /// Anything else: a failure the caller reports, or leaves to the pass's action.
        case failed(CloudError)

        /// The error of any answer but `done`.
        var failure: CloudError? {
            switch self {
            case .done: nil
            case .conflict(let error), .gone(let error), .notAllowed(let error), .zoneGone(let error), .failed(let error): error
            }
        }

        /// The save met a newer version.
        var isConflict: Bool {
            if case .conflict = self { true } else { false }
        }

        /// The item is not there, as the request asked: gone, or never saved.
        var isGone: Bool {
            if case .gone = self { true } else { false }
        }

        /// The save named a parent the cloud does not have (`referenceViolation`).
        var isParentMissing: Bool {
            if case .failed(let error) = self { error.code == .referenceViolation } else { false }
        }

        var result: Result<Value, CloudError> {
            if case .done(let value) = self { return .success(value) }
            return .failure(failure!)
        }
    }

    /// The answer of `item` in a request's results; an item the results leave out failed
    /// (`CloudError.noResult`).
    static func answer<Value>(_ result: Result<Value, CloudError>?, for item: some CustomStringConvertible) -> ItemAnswer<Value> {
        switch result {
        case .success(let value): .done(value)
        case .failure(let error): classify(error)
        case nil: .failed(CloudError.noResult(for: item))
        }
    }

    /// What an error says of the one item its request named.
    static func answer(to error: CloudError) -> ItemAnswer<Never> {
        classify(error)
    }

    private static func classify<Value>(_ error: CloudError) -> ItemAnswer<Value> {
        switch error.code {
        case .serverRecordChanged: .conflict(error)
        case .unknownItem: .gone(error)
        case .permissionFailure: .notAllowed(error)
        case .zoneNotFound, .userDeletedZone: .zoneGone(error)
        default: .failed(error)
        }
    }

    /// One record or share saved alone, made again once when the save meets a newer version of
    /// it: the asset phase's file saved into its record, the share phase's changes of a share.
    /// `attempt` makes and sends the save, given the conflict the first save met (nil the first
    /// time), and returns the item's result; a second conflict is the answer.
    static func savingAgainOnConflict<Value>(
        _ item: some CustomStringConvertible, _ attempt: (_ conflict: CloudError?) async throws(SyncError) -> Result<Value, CloudError>?
    ) async throws(SyncError) -> Result<Value, CloudError> {
        let first = answer(try await attempt(nil), for: item)
        guard case .conflict(let conflict) = first else { return first.result }
        return answer(try await attempt(conflict), for: item).result
    }

    /// A request that read a zone and failed: its change feed, or records looked up in it; a
    /// database's change feed when `zoneIn` is nil.
    enum ReadFailure: Equatable {
        /// The server forgot the history the token names (`changeTokenExpired`): the feed is read
        /// again from scratch, once.
        case startOver
        /// The zone is gone, and why: deleted, purged by the user in Settings, reset with the
        /// user's encrypted data. In the shared database, this user's access ended.
        case zoneGone(ZoneDeletionReason)
        /// Any other failure: the pass's, decided by `action(for:)`.
        case fail
    }

    static func readFailure(_ error: CloudError, zoneIn scope: DatabaseScope?) -> ReadFailure {
        if error.code == .changeTokenExpired { return .startOver }
        guard let scope else { return .fail }
        if scope == .shared && (error.code == .permissionFailure || error.code == .zoneNotFound) {
            // No longer allowed in: this user left the share, or was removed from it.
            return .zoneGone(.deleted)
        }
        switch error.code {
        case .userDeletedZone:
            return .zoneGone(.purged)
        case .zoneNotFound:
            return .zoneGone(error.userDidResetEncryptedData ? .encryptedDataReset : .deleted)
        default:
            return .fail
        }
    }

    /// Whether a failed read of one zone leaves the pull's other zones to be read: a failure of
    /// that zone's own (it is busy, its request was refused, the server failed on it) does, and
    /// the pass reports it after the others; one of the network, the account, the service or the
    /// store does not, since every zone would meet it.
    static func sparesOtherZones(_ error: SyncError) -> Bool {
        guard case .cloud(let error) = error else { return false }
        switch error.code {
        case .networkUnavailable, .networkFailure, .notAuthenticated, .serviceUnavailable, .requestRateLimited,
             .accountTemporarilyUnavailable, .managedAccountRestricted, .badContainer, .missingEntitlement, .operationCancelled:
            return false
        default:
            return true
        }
    }

    /// A push's modify request that failed whole, before any item's answer was read.
    enum ModifyFailure: Equatable {
        /// The request may have been applied, its reply lost (`serverResponseLost`).
        case replyLost
        /// The request never left the device (`networkUnavailable`).
        case neverSent
        /// Refused whole, nothing of it applied: too large, or one item makes it invalid
        /// (`limitExceeded`, `invalidArguments`). Sent again in halves.
        case refusedWhole
        /// Items failed and the error names none (Apple's async `modifyRecords` promises no map
        /// of them: `partialFailure`, `batchRequestFailed`). Sent again in halves.
        case itemsUnnamed
        /// Any other failure: the pass's.
        case fail
    }

    static func modifyFailure(_ error: CloudError) -> ModifyFailure {
        switch error.code {
        case .serverResponseLost: .replyLost
        case .networkUnavailable: .neverSent
        case .limitExceeded, .invalidArguments: .refusedWhole
        case .partialFailure, .batchRequestFailed: error.itemErrors.isEmpty ? .itemsUnnamed : .fail
        default: .fail
        }
    }

    /// The error an atomic request's failure is about: the named item's own, else the first
    /// item's that is not only held back by another (`batchRequestFailed`).
    static func cause(of failure: CloudError, naming item: RecordID) -> CloudError? {
        failure.itemErrors[item] ?? failure.itemErrors.values.first { $0.code != .batchRequestFailed }
    }

    /// Whether a save's error says its reply was lost (`serverResponseLost`): the save may have
    /// landed.
    static func mayHaveLanded(_ error: CloudError) -> Bool {
        error.code == .serverResponseLost
    }

    /// Whether an error says nobody is signed in to iCloud any more (`notAuthenticated`).
    static func saysSignedOut(_ error: CloudError) -> Bool {
        error.code == .notAuthenticated
    }

    /// Whether an error of a download says the asset cannot be handed over for now
    /// (`assetNotAvailable`: locked away by its data protection class; Apple: "can be retried").
    static func isNotAvailableYet(_ error: CloudError) -> Bool {
        error.code == .assetNotAvailable
    }
}
