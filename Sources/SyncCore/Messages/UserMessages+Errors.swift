import Foundation

// Which errors (and account states) a person using the app is told of, and with which message:
// the ones they can act on or must know of. Every other error is the app's and the runtime's to
// handle, and has none.

extension AccountStatus {
    /// What to tell the user while sync waits for their account (`SyncEvent.accountUnavailable`);
    /// nil for an available one.
    public var userMessage: UserMessage? {
        switch self {
        case .available: nil
        case .noAccount: UserMessage(.notSignedIn)
        case .restricted: UserMessage(.iCloudRestricted)
        case .temporarilyUnavailable: UserMessage(.iCloudTemporarilyUnavailable)
        }
    }
}

extension CloudError: LocalizedError {
    /// What to tell the user of this error; nil for an error that is not theirs to know of.
    public var userMessage: UserMessage? {
        if let userMessageKey { return UserMessage(userMessageKey) }
        return switch code {
        case .quotaExceeded: UserMessage(.iCloudStorageFull)
        case .notAuthenticated: UserMessage(.notSignedIn)
        case .accountTemporarilyUnavailable: UserMessage(.iCloudTemporarilyUnavailable)
        case .managedAccountRestricted: UserMessage(.iCloudRestricted)
        case .networkUnavailable, .networkFailure: UserMessage(.offline)
        default: nil
        }
    }

    /// The user message's text (``userMessage``).
    public var errorDescription: String? { userMessage?.text }
}

extension LocalStoreError: LocalizedError {
    /// What to tell the user of this error: only a full device is theirs to act on.
    public var userMessage: UserMessage? {
        reason == .full ? UserMessage(.deviceStorageFull) : nil
    }

    /// The user message's text (``userMessage``).
    public var errorDescription: String? { userMessage?.text }
}

extension SyncError: LocalizedError {
    /// What to tell the user of this error: the cloud's (iCloud storage full, not signed in,
    /// offline, a share that is gone) or a full device's; nil for the rest.
    public var userMessage: UserMessage? {
        switch self {
        case .cloud(let error): error.userMessage
        case .localStore(let error): error.userMessage
        case .assetFiles(.store(let error)): error.userMessage
        case .assetFiles: nil
        }
    }

    /// The user message's text (``userMessage``).
    public var errorDescription: String? { userMessage?.text }
}
