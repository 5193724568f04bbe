import Foundation
import SyncCore
import SyncPorts

/// Decides, for every CloudKit error, what to do: pure functions, so the same error always gets
/// the same answer and every code has a decision (an unclassified error would retry forever).
///
/// Two decisions: `action(for:)` for an error that ended a whole request or pass, and
/// `itemAction(for:)` for one record's error inside a modify request. How soon a failed pass is
/// tried again is `retryDelay`: never sooner than the server asks, never at once twice in a row,
/// and never for an error a retry cannot fix.
public enum RecoveryPolicy {
    /// What to do about a CloudKit error that ended a request or a pass.
    public static func action(for error: CloudError) -> RecoveryAction {
        switch error.code {
        case .networkUnavailable, .networkFailure:
            return .waitForNetwork
        case .serviceUnavailable, .requestRateLimited, .zoneBusy, .accountTemporarilyUnavailable:
            return .retry(after: error.retryAfter ?? defaultRetryAfter)
        case .serverResponseLost:
            return .retry(after: 0)
        case .notAuthenticated:
            return .stopForAccount
        case .permissionFailure:
            return .skipItem
        case .unknownItem:
            return .treatAsDone
        case .invalidArguments:
            return .report
        case .serverRecordChanged:
            return .mergeAndRetry
        case .changeTokenExpired:
            return .resetToken
        case .batchRequestFailed:
            return .retryWithBatch
        case .quotaExceeded:
            return .tellUserQuotaExceeded
        case .zoneNotFound:
            return .recreateZone
        case .limitExceeded:
            return .splitBatch
        case .userDeletedZone:
            return .askBeforeReuploading
        case .referenceViolation:
            return .uploadParentFirst
        case .partialFailure:
            return .report
        case .badDatabase, .alreadyShared, .tooManyParticipants, .participantMayNeedVerification, .participantAlreadyInvited:
            // A request the database cannot serve, a record shared already, a share that is
            // full, a participant who must act first: the app's call, never retried as it is.
            return .report
        case .assetFileModified, .operationCancelled, .assetNotAvailable:
            // The file changed under the upload, the request was cancelled, the asset is locked
            // away by its data protection class for now (Apple, `assetNotAvailable`: "can be
            // retried"): the same request later goes through.
            return .retry(after: error.retryAfter ?? defaultRetryAfter)
        case .managedAccountRestricted:
            return .stopForAccount
        case .internalError, .badContainer, .missingEntitlement, .resultsTruncated, .serverRejectedRequest,
            .assetFileNotFound, .incompatibleVersion, .constraintViolation, .unrecognized:
            // CloudKit's own failure, an app that is misconfigured or too old, a refusal the
            // server does not explain, a code this version does not know: only a change (of the
            // app, its setup or its data) can fix it.
            return .report
        }
    }

    /// What one record's error in a modify request means for that record. A record CloudKit will
    /// never take as it is (a name it rejects, more than a record may hold) is set aside; a
    /// parent the cloud does not have goes up first, or, deleted, takes the child with it; what a
    /// later attempt can fix keeps the change waiting, as `action(for:)` says.
    public static func itemAction(for error: CloudError) -> RecoveryAction {
        switch error.code {
        case .invalidArguments, .limitExceeded, .serverRejectedRequest, .constraintViolation, .unrecognized:
            // Refused for good, or for a reason this version cannot act on: waiting in the queue
            // it would block every change behind it, so it is set aside, visible to the app.
            // (Whether CloudKit answers a save of a record rebuilt without its system fields with
            // serverRejectedRequest rather than serverRecordChanged is unverified: either way the
            // change is kept, never dropped.)
            return .setAside
        default:
            return action(for: error)
        }
    }

    /// What to do about a failed pass or call, whatever failed: a cloud error as CloudKit says
    /// (`action(for: CloudError)`); a local store that another connection holds is tried again
    /// shortly, a full device is the user's to free, and a store that cannot be written, is
    /// damaged, was written by a newer version, or fails otherwise is reported; the asset cache's files failing is reported.
    public static func action(for error: SyncError) -> RecoveryAction {
        switch error {
        case .cloud(let error):
            action(for: error)
        case .localStore(let error):
            switch error.reason {
            case .busy: .retry(after: localStoreBusyRetryAfter)
            case .full: .tellUserStorageFull
            case .readOnly, .corrupt, .newerVersion, .other: .report
            }
        case .assetFiles:
            .report
        }
    }

    /// What the app does about a server query's page that failed: what a later attempt may fix
    /// is asked again, after the wait the cloud asks or when the network is back. Any other
    /// refusal of a page after the first means the cloud no longer takes its cursor, so the
    /// query starts over: Apple names no code for a cursor that expired, and warns that a cursor
    /// kept long may not resume (`CKQueryOperation.init(cursor:)`: "don't cache cursors for a
    /// long time before using them"). A first page refused for good is reported.
    static func queryRecovery(for error: SyncError, continuing: Bool) -> ServerQueryError.Recovery {
        switch action(for: error) {
        case .retry(let seconds): return .retry(after: seconds)
        case .waitForNetwork: return .retryWhenOnline
        default:
            if continuing, error.cloudError != nil { return .startOver }
            return .report
        }
    }

    /// The wait before a pass tries again a store another connection held.
    public static let localStoreBusyRetryAfter: TimeInterval = 1

    /// Whether a later attempt of the same request may succeed by itself (the network, a busy or
    /// unavailable server, a rate limit).
    public static func isTransient(_ error: CloudError) -> Bool {
        switch action(for: error) {
        case .retry, .waitForNetwork: true
        default: false
        }
    }

    /// The wait when the server asks for one without saying how long.
    public static let defaultRetryAfter: TimeInterval = 5

    /// Backoff while waiting for the network: 10 s, doubling, at most 120 s.
    public static func networkBackoff(attempt: Int) -> TimeInterval {
        min(120, 10 * pow(2, Double(max(0, attempt))))
    }

    /// How long after a failed pass the next one starts by itself, given how many passes failed
    /// in a row before this one (0 for the first failure); nil when no retry can help until
    /// something changes (the app writes, the cloud notifies, the app asks).
    ///
    /// The server's `retryAfter` is waited out in full. Errors a retry may fix without a change
    /// (a lost reply, a merge, a zone rebuilt, a token reset) are retried at once the first time
    /// and then after 1 s, 2 s, 4 s... at most 5 minutes: never a storm.
    public static func retryDelay(after action: RecoveryAction, failuresBefore: Int) -> TimeInterval? {
        switch action {
        case .retry(let seconds):
            return max(seconds, backoff(failuresBefore))
        case .waitForNetwork:
            return networkBackoff(attempt: failuresBefore)
        case .resetToken, .recreateZone, .retryWithBatch, .mergeAndRetry, .uploadParentFirst, .splitBatch, .stopForAccount:
            return backoff(failuresBefore)
        case .treatAsDone, .skipItem, .setAside, .askBeforeReuploading, .tellUserQuotaExceeded, .tellUserStorageFull, .report:
            return nil
        }
    }

    /// 0 s for the first failure, then 1 s doubling, at most 300 s.
    static func backoff(_ failuresBefore: Int) -> TimeInterval {
        failuresBefore == 0 ? 0 : min(300, pow(2, Double(min(failuresBefore - 1, 16))))
    }
}
