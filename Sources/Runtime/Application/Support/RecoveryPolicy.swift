import Foundation

/// Decides, for every CloudKit error, what to do: a pure function, so the same error always gets
/// the same answer and every code has a decision (an unclassified error would retry forever).
public enum RecoveryPolicy {
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
        }
    }

    /// The wait when the server asks for one without saying how long.
    public static let defaultRetryAfter: TimeInterval = 5

    /// Backoff while waiting for the network: 10 s, doubling, at most 120 s.
    public static func networkBackoff(attempt: Int) -> TimeInterval {
        min(120, 10 * pow(2, Double(max(0, attempt))))
    }
}
