import Foundation

/// CloudKit's error codes, by their CKError numbers.
public enum CloudErrorCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case partialFailure = 2
    case networkUnavailable = 3
    case networkFailure = 4
    case serviceUnavailable = 6
    case requestRateLimited = 7
    case notAuthenticated = 9
    case permissionFailure = 10
    case unknownItem = 11
    case invalidArguments = 12
    case serverRecordChanged = 14
    case changeTokenExpired = 21
    case batchRequestFailed = 22
    case zoneBusy = 23
    case badDatabase = 24
    case quotaExceeded = 25
    case zoneNotFound = 26
    case limitExceeded = 27
    case userDeletedZone = 28
    case tooManyParticipants = 29
    case alreadyShared = 30
    case referenceViolation = 31
    case serverResponseLost = 34
    case accountTemporarilyUnavailable = 36

    public var description: String {
        switch self {
        case .partialFailure: "partialFailure"
        case .networkUnavailable: "networkUnavailable"
        case .networkFailure: "networkFailure"
        case .serviceUnavailable: "serviceUnavailable"
        case .requestRateLimited: "requestRateLimited"
        case .notAuthenticated: "notAuthenticated"
        case .permissionFailure: "permissionFailure"
        case .unknownItem: "unknownItem"
        case .invalidArguments: "invalidArguments"
        case .serverRecordChanged: "serverRecordChanged"
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
        case .serverResponseLost: "serverResponseLost"
        case .accountTemporarilyUnavailable: "accountTemporarilyUnavailable"
        }
    }
}

/// An error from the cloud, shaped like a CKError: a code, a message, and what comes with some
/// codes (the wait before retrying, the server's record on a conflict, each item's error).
public struct CloudError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as CloudKit's `CKError.Code` would say.
    public var code: CloudErrorCode
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

    /// An error of a code, with what that code carries.
    public init(
        _ code: CloudErrorCode, _ message: String = "", retryAfter: TimeInterval? = nil,
        serverRecord: SyncRecord? = nil, clientRecord: SyncRecord? = nil, ancestorRecord: SyncRecord? = nil,
        itemErrors: [RecordID: CloudError] = [:]
    ) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.serverRecord = serverRecord
        self.clientRecord = clientRecord
        self.ancestorRecord = ancestorRecord
        self.itemErrors = itemErrors
    }

    public var description: String {
        var text = "\(code) (\(code.rawValue))"
        if !message.isEmpty { text += ": \(message)" }
        if let retryAfter { text += "; retry after \(retryAfter) s" }
        return text
    }
}
