import Foundation

/// A limit on the requests that write (saves and deletions: a push's, a file's upload, a share's,
/// a zone move's) the engine sends to each database (private, shared, public) within a sliding
/// interval: a bug in the app, or a storm of saves, never sends more. A request past the budget
/// is not sent; the pass ends as CloudKit's own rate limit ends one (`requestRateLimited`, with
/// the wait until the budget has room), and what waited goes with the next pass, in order. Reads
/// are not counted: a pass reads what changed and keeps its place, while a pass whose reads a
/// budget cut short would read the same again the next time, and never get to its writes.
public struct RequestBudget: Sendable, Hashable {
    /// Requests that write one database may take within `interval`.
    public var requests: Int
    /// The sliding interval, in seconds.
    public var interval: TimeInterval

    /// At most `requests` requests that write to each database within any `interval` seconds.
    public init(requests: Int, per interval: TimeInterval) {
        precondition(requests > 0 && interval > 0, "a budget lets one request through in some interval")
        self.requests = requests
        self.interval = interval
    }
}
