import Foundation

/// CloudKit's error codes, by their CKError numbers (`CKError.Code`), every one Apple defines up
/// to `participantAlreadyInvited` (37). A number this list does not know (a code of a later SDK)
/// is `unrecognized`, and the error keeps the number (``CloudError/cloudKitCode``).
public enum CloudErrorCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// CloudKit failed on its side in a way it does not expect to recover from.
    case internalError = 1
    /// Some items of a request failed: each one's error is in `itemErrors`.
    case partialFailure = 2
    /// No network.
    case networkUnavailable = 3
    /// The network failed during the request.
    case networkFailure = 4
    /// The app's container is unknown or not configured for it.
    case badContainer = 5
    /// CloudKit is unavailable for now; `retryAfter` says when to try again.
    case serviceUnavailable = 6
    /// Too many requests; `retryAfter` says when to try again.
    case requestRateLimited = 7
    /// The app lacks the iCloud entitlement for the request.
    case missingEntitlement = 8
    /// No iCloud account is signed in (or it cannot be used).
    case notAuthenticated = 9
    /// The user may not do this (another user's record, a read-only share).
    case permissionFailure = 10
    /// The record (or zone, share, subscription) does not exist.
    case unknownItem = 11
    /// The request is malformed (a name CloudKit rejects, a field of the wrong type).
    case invalidArguments = 12
    /// Deprecated by Apple: results were cut short.
    case resultsTruncated = 13
    /// The record changed on the server since the change tag the save carried.
    case serverRecordChanged = 14
    /// The server refused the request for a reason of its own.
    case serverRejectedRequest = 15
    /// An asset's file was not found.
    case assetFileNotFound = 16
    /// An asset's file changed while it was being uploaded.
    case assetFileModified = 17
    /// This app version is too old for the container: the user must update it.
    case incompatibleVersion = 18
    /// A unique constraint of the server was violated.
    case constraintViolation = 19
    /// The request was cancelled.
    case operationCancelled = 20
    /// The change token is too old: fetch from scratch.
    case changeTokenExpired = 21
    /// An atomic batch failed because another of its items did.
    case batchRequestFailed = 22
    /// The zone is busy; `retryAfter` says when to try again.
    case zoneBusy = 23
    /// The database cannot serve this request (a zone in the shared database, a feed of the public one).
    case badDatabase = 24
    /// The user's iCloud storage is full.
    case quotaExceeded = 25
    /// The zone does not exist.
    case zoneNotFound = 26
    /// The request or a record is larger than CloudKit allows.
    case limitExceeded = 27
    /// The user deleted the zone's data in Settings.
    case userDeletedZone = 28
    /// The share has as many participants as CloudKit allows.
    case tooManyParticipants = 29
    /// The record (or one above or under it) is in another share.
    case alreadyShared = 30
    /// A reference's target (or a parent) does not exist.
    case referenceViolation = 31
    /// The account is a managed Apple ID that may not use this.
    case managedAccountRestricted = 32
    /// The participant must verify their account before the share can be accepted.
    case participantMayNeedVerification = 33
    /// The reply was lost: the server may have done the work.
    case serverResponseLost = 34
    /// The asset cannot be downloaded (the server no longer has it).
    case assetNotAvailable = 35
    /// The account is signed in but cannot be used for now (it needs the user's attention).
    case accountTemporarilyUnavailable = 36
    /// The user was invited already and must accept the existing invitation.
    case participantAlreadyInvited = 37
    /// A code this version does not know; the error's `cloudKitCode` holds the number.
    case unrecognized = -1

    /// The code of a CloudKit error number: its case, or `unrecognized`.
    public init(cloudKitCode: Int) {
        self = CloudErrorCode(rawValue: cloudKitCode) ?? .unrecognized
    }

    public var description: String {
        switch self {
        case .internalError: "internalError"
        case .partialFailure: "partialFailure"
        case .networkUnavailable: "networkUnavailable"
        case .networkFailure: "networkFailure"
        case .badContainer: "badContainer"
        case .serviceUnavailable: "serviceUnavailable"
        case .requestRateLimited: "requestRateLimited"
        case .missingEntitlement: "missingEntitlement"
        case .notAuthenticated: "notAuthenticated"
        case .permissionFailure: "permissionFailure"
        case .unknownItem: "unknownItem"
        case .invalidArguments: "invalidArguments"
        case .resultsTruncated: "resultsTruncated"
        case .serverRecordChanged: "serverRecordChanged"
        case .serverRejectedRequest: "serverRejectedRequest"
        case .assetFileNotFound: "assetFileNotFound"
        case .assetFileModified: "assetFileModified"
        case .incompatibleVersion: "incompatibleVersion"
        case .constraintViolation: "constraintViolation"
        case .operationCancelled: "operationCancelled"
        case .changeTokenExpired: "changeTokenExpired"
        case .batchRequestFailed: "batchRequestFailed"
        case .zoneBusy: "zoneBusy"
        case .badDatabase: "badDatabase"
        case .quotaExceeded: "quotaExceeded"
        case .zoneNotFound: "zoneNotFound"
        case .limitExceeded: "limitExceeded"
        case .userDeletedZone: "userDeletedZone"
        case .tooManyParticipants: "tooManyParticipants"
        case .alreadyShared: "alreadyShared"
        case .referenceViolation: "referenceViolation"
        case .managedAccountRestricted: "managedAccountRestricted"
        case .participantMayNeedVerification: "participantMayNeedVerification"
        case .serverResponseLost: "serverResponseLost"
        case .assetNotAvailable: "assetNotAvailable"
        case .accountTemporarilyUnavailable: "accountTemporarilyUnavailable"
        case .participantAlreadyInvited: "participantAlreadyInvited"
        case .unrecognized: "unrecognized"
        }
    }
}

/// An error from the cloud, shaped like a CKError: a code, a message, and what comes with some
/// codes (the wait before retrying, the server's record on a conflict, each item's error).
public struct CloudError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as CloudKit's `CKError.Code` would say.
    public var code: CloudErrorCode
    /// The number CloudKit gave the error: `code`'s own, or, for an `unrecognized` code, the one
    /// this version does not know (kept, so a log or a later version can still tell it).
    public var cloudKitCode: Int
    /// What the cloud said, for a log.
    public var message: String
    /// How long to wait before retrying (`serviceUnavailable`, `requestRateLimited`, `zoneBusy`).
    public var retryAfter: TimeInterval?
    /// The record as the server has it (`serverRecordChanged`).
    public var serverRecord: SyncRecord?
    /// The record as the client sent it (`serverRecordChanged`).
    public var clientRecord: SyncRecord?
    /// The server's version the client's change tag names, when the server still has it
    /// (`serverRecordChanged`); often nil, so a client never depends on it.
    public var ancestorRecord: SyncRecord?
    /// Each failed item's own error (`partialFailure`).
    public var itemErrors: [RecordID: CloudError]
    /// Set on a `zoneNotFound` when the zone went because the user reset their encrypted data
    /// (CloudKit's `CKErrorUserDidResetEncryptedDataKey`): its records are to be uploaded again.
    public var userDidResetEncryptedData = false
    /// The user message the error's context calls for, where the code alone says less (a share's
    /// link leading nowhere is `unknownItem`, which elsewhere is no user's concern); nil to
    /// follow the code (``userMessage``).
    public var userMessageKey: UserMessage.Key?

    /// An error of a code, with what that code carries.
    public init(
        _ code: CloudErrorCode, _ message: String = "", retryAfter: TimeInterval? = nil,
        serverRecord: SyncRecord? = nil, clientRecord: SyncRecord? = nil, ancestorRecord: SyncRecord? = nil,
        itemErrors: [RecordID: CloudError] = [:]
    ) {
        self.code = code
        self.cloudKitCode = code.rawValue
        self.message = message
        self.retryAfter = retryAfter
        self.serverRecord = serverRecord
        self.clientRecord = clientRecord
        self.ancestorRecord = ancestorRecord
        self.itemErrors = itemErrors
    }

    /// An error of CloudKit's number `cloudKitCode`, known to this version or not.
    public init(cloudKitCode: Int, _ message: String = "", retryAfter: TimeInterval? = nil) {
        self.init(CloudErrorCode(cloudKitCode: cloudKitCode), message, retryAfter: retryAfter)
        self.cloudKitCode = cloudKitCode
    }

    public var description: String {
        var text = "\(code) (\(cloudKitCode))"
        if !message.isEmpty { text += ": \(message)" }
        if let retryAfter { text += "; retry after \(retryAfter) s" }
        return text
    }
}
