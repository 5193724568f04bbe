// Only where CloudKit does not exist (CKContainer.swift says why).
#if !canImport(CloudKit)
import Foundation

/// CloudKit's error domain (Apple, `CKErrorDomain`).
public let CKErrorDomain = "CKErrorDomain"
/// The key of a partial failure's errors by item ID (Apple, `CKPartialErrorsByItemIDKey`).
public let CKPartialErrorsByItemIDKey = "CKPartialErrors"
/// The keys of a conflict's records (Apple, `CKRecordChangedErrorServerRecordKey` and its two
/// siblings).
public let CKRecordChangedErrorServerRecordKey = "ServerRecord"
public let CKRecordChangedErrorClientRecordKey = "ClientRecord"
public let CKRecordChangedErrorAncestorRecordKey = "AncestorRecord"
/// The key of the wait a transient error asks for, in seconds (Apple, `CKErrorRetryAfterKey`).
public let CKErrorRetryAfterKey = "CKRetryAfter"
/// The key of a `zoneNotFound`'s flag that the user's reset of their encrypted data took the zone
/// (Apple, `CKErrorUserDidResetEncryptedDataKey`): an `NSNumber` holding a Boolean.
public let CKErrorUserDidResetEncryptedDataKey = "CKErrorUserDidResetEncryptedDataKey"

/// A CloudKit error (Apple, `CKError`): a code, and what comes with some codes.
public struct CKError: Error, CustomNSError, @unchecked Sendable {
    /// CloudKit's error codes, by number (Apple, `CKError.Code`).
    public enum Code: Int, Sendable {
        case internalError = 1, partialFailure, networkUnavailable, networkFailure, badContainer
        case serviceUnavailable, requestRateLimited, missingEntitlement, notAuthenticated, permissionFailure
        case unknownItem, invalidArguments, resultsTruncated, serverRecordChanged, serverRejectedRequest
        case assetFileNotFound, assetFileModified, incompatibleVersion, constraintViolation, operationCancelled
        case changeTokenExpired, batchRequestFailed, zoneBusy, badDatabase, quotaExceeded
        case zoneNotFound, limitExceeded, userDeletedZone, tooManyParticipants, alreadyShared
        case referenceViolation, managedAccountRestricted, participantMayNeedVerification, serverResponseLost
        case assetNotAvailable, accountTemporarilyUnavailable, participantAlreadyInvited
    }

    public static var errorDomain: String { CKErrorDomain }

    public let errorCode: Int
    public let errorUserInfo: [String: Any]

    public init(_ code: CKError.Code, userInfo: [String: Any] = [:]) {
        errorCode = code.rawValue
        errorUserInfo = userInfo
    }

    /// An error of a number no case names (a code of a later SDK): CloudKit's codes are an
    /// Objective-C enumeration, which takes any number.
    package init(errorCode: Int, userInfo: [String: Any] = [:]) {
        self.errorCode = errorCode
        errorUserInfo = userInfo
    }

    /// The error's code; a number this SDK does not name reads as `internalError`.
    public var code: CKError.Code { CKError.Code(rawValue: errorCode) ?? .internalError }

    public var partialErrorsByItemID: [AnyHashable: any Error]? {
        errorUserInfo[CKPartialErrorsByItemIDKey] as? [AnyHashable: any Error]
    }

    public var serverRecord: CKRecord? { errorUserInfo[CKRecordChangedErrorServerRecordKey] as? CKRecord }
    public var clientRecord: CKRecord? { errorUserInfo[CKRecordChangedErrorClientRecordKey] as? CKRecord }
    public var ancestorRecord: CKRecord? { errorUserInfo[CKRecordChangedErrorAncestorRecordKey] as? CKRecord }

    public var retryAfterSeconds: Double? { (errorUserInfo[CKErrorRetryAfterKey] as? NSNumber)?.doubleValue }
}
#endif
