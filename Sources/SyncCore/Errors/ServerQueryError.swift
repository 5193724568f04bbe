import Foundation

/// Why a server query's page did not come, and what to do about it (`recovery`).
public struct ServerQueryError: Error, Sendable, CustomStringConvertible {
    /// What the app does next.
    public enum Recovery: Sendable, Hashable {
        /// Ask for the same page again, with the same cursor, after this many seconds: the cloud
        /// is busy or limits the app's requests.
        case retry(after: TimeInterval)
        /// The network is gone: ask for the same page again when it is back.
        case retryWhenOnline
        /// The cloud no longer takes the cursor (it expired, or the data moved under it): run the
        /// query again from its first page.
        case startOver
        /// Asking again will not help: the query, the deployed schema or the device must change
        /// first (`error` says which).
        case report
    }

    /// What the app does next.
    public let recovery: Recovery
    /// What failed: the cloud's error, or the local store's when a kept page could not be written.
    public let error: SyncError

    /// A failure and its recovery.
    public init(_ error: SyncError, recovery: Recovery) {
        self.error = error
        self.recovery = recovery
    }

    public var description: String { "\(error) (\(recovery))" }
}
